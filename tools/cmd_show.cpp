// tools/cmd_show.cpp — `vkdml show`: a .npy file's type, shape and values as text, in NumPy-like nested
// brackets (C-order logical layout, whatever the file's order).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "half.hpp"
#include "npy.hpp"

namespace vkdml::cli {
namespace {

constexpr int64_t kDefaultLimit = 1000;

void define_show(CLI::App& app) {
    add_integer(app, "--limit", "N", "show at most N values, then '...' (default 1000)")
        ->check(integer_check([](int64_t n) { return n >= 0; },
                              "option '--limit' expects a non-negative integer"));
}
constexpr std::string_view kFile[] = {"FILE.npy"};

template <class T>
T load(const std::byte* at) {
    T value;
    std::memcpy(&value, at, sizeof value);
    return value;
}

std::string formatted(const char* format, double value) {
    char text[40];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

// One element as text: integers exactly, floats with enough digits to read back the same value.
std::string element_text(DML_TENSOR_DATA_TYPE type, const std::byte* at) {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16:
        return formatted("%.5g", static_cast<double>(half_to_float(load<uint16_t>(at))));
    case DML_TENSOR_DATA_TYPE_FLOAT32: return formatted("%.9g", static_cast<double>(load<float>(at)));
    case DML_TENSOR_DATA_TYPE_FLOAT64: return formatted("%.17g", load<double>(at));
    case DML_TENSOR_DATA_TYPE_INT8: return std::to_string(load<int8_t>(at));
    case DML_TENSOR_DATA_TYPE_INT16: return std::to_string(load<int16_t>(at));
    case DML_TENSOR_DATA_TYPE_INT32: return std::to_string(load<int32_t>(at));
    case DML_TENSOR_DATA_TYPE_INT64: return std::to_string(load<int64_t>(at));
    case DML_TENSOR_DATA_TYPE_UINT8: return std::to_string(load<uint8_t>(at));
    case DML_TENSOR_DATA_TYPE_UINT16: return std::to_string(load<uint16_t>(at));
    case DML_TENSOR_DATA_TYPE_UINT32: return std::to_string(load<uint32_t>(at));
    case DML_TENSOR_DATA_TYPE_UINT64: return std::to_string(load<uint64_t>(at));
    default: return "?";
    }
}

// Writes an array's values as nested brackets, as NumPy's repr lays them out: ", " between the values of
// the last dimension; between sub-arrays a comma, one newline per dimension below them and an indent.
class Printer {
public:
    Printer(const npy::Array& array, uint64_t limit)
        : array_(array), strides_(array.strides()), size_(element_size(array.type)), limit_(limit) {}

    std::string text() {
        block(0, 0);
        return std::move(out_);
    }

private:
    // The sub-array at `depth` whose first element is at element offset `offset` of the data.
    void block(size_t depth, uint64_t offset) {
        const size_t rank = array_.shape.size();
        out_ += '[';
        for (uint32_t i = 0; i < array_.shape[depth] && !truncated_; ++i) {
            if (i > 0) {
                out_ += ',';
                if (depth + 1 == rank)
                    out_ += ' ';
                else
                    out_.append(rank - depth - 1, '\n').append(depth + 1, ' ');
            }
            const uint64_t at = offset + uint64_t{i} * strides_[depth];
            if (depth + 1 < rank) {
                block(depth + 1, at);
            } else if (shown_ == limit_) {
                out_ += "...";
                truncated_ = true;
            } else {
                out_ += element_text(array_.type, array_.data.data() + at * size_);
                ++shown_;
            }
        }
        out_ += ']';
    }

    const npy::Array& array_;
    const std::vector<uint32_t> strides_;
    const uint32_t size_;
    const uint64_t limit_;
    uint64_t shown_ = 0;
    bool truncated_ = false;
    std::string out_;
};

void run_show(const Args& args) {
    const int64_t limit = args.integer("--limit").value_or(kDefaultLimit);
    const npy::Array array = take(npy::read(args.operands()[0]));

    std::string text = to_string(array.type);
    text += " [";
    for (size_t i = 0; i < array.shape.size(); ++i) text += (i ? "," : "") + std::to_string(array.shape[i]);
    text += "]\n";
    text += Printer(array, static_cast<uint64_t>(limit)).text();
    text += '\n';
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
        fail("cannot write to standard output");
}

}  // namespace

extern const Command kShowCommand = {
    "show", "Print the type, shape and values of FILE.npy (C order, NumPy-like brackets).", kFile,
    define_show, run_show};

}  // namespace vkdml::cli
