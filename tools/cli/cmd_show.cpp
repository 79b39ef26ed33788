// tools/cli/cmd_show.cpp — `vkdml show`: a .npy file's type, shape and values as text, in NumPy-like nested
// brackets (C-order logical layout, whatever the file's order); large arrays as NumPy summarizes them (the
// first and last entries of each long axis around "...") with their minimum, maximum and mean; a zero-size
// array as "[]".
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "npy/half.hpp"
#include "npy/npy.hpp"

namespace vkdml::cli {
namespace {

constexpr uint64_t kWholeUpTo = 1000;  // arrays of up to this many elements print whole (NumPy's threshold)
constexpr int64_t kDefaultLimit = 6;   // entries per axis of a larger one (NumPy's 3 edge items each side)

void define_show(CLI::App& app) {
    add_integer(app, "--limit", "N",
                "entries shown per axis: an axis longer than N shows its first ceil(N/2) and last floor(N/2) "
                "around '...' (default 6, for arrays of more than 1000 elements; given, for any array)")
        .check([](int64_t n) { return n >= 0; }, "option '--limit' expects a non-negative integer");
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
// With a limit, an axis longer than it shows its first ceil(limit/2) and last floor(limit/2) entries, and
// "..." in place of the rest.
class Printer {
public:
    Printer(const npy::Array& array, std::optional<uint64_t> limit)
        : array_(array), strides_(array.strides()), size_(element_size(array.type)), limit_(limit) {}

    std::string text() {
        block(0, 0);
        return std::move(out_);
    }

private:
    // The sub-array at `depth` whose first element is at element offset `offset` of the data.
    void block(size_t depth, uint64_t offset) {
        const size_t rank = array_.shape.size();
        const uint64_t n = array_.shape[depth];
        const bool cut = limit_ && n > *limit_;
        const uint64_t head = cut ? (*limit_ + 1) / 2 : n, tail = cut ? *limit_ / 2 : 0;
        bool first = true;
        // The separator before every entry but the first.
        const auto next = [&] {
            if (!std::exchange(first, false)) {
                out_ += ',';
                if (depth + 1 == rank)
                    out_ += ' ';
                else
                    out_.append(rank - depth - 1, '\n').append(depth + 1, ' ');
            }
        };
        const auto entry = [&](uint64_t i) {
            next();
            const uint64_t at = offset + i * strides_[depth];
            if (depth + 1 < rank)
                block(depth + 1, at);
            else
                out_ += element_text(array_.type, array_.data.data() + at * size_);
        };
        out_ += '[';
        for (uint64_t i = 0; i < head; ++i) entry(i);
        if (cut) {
            next();
            out_ += "...";
            for (uint64_t i = n - tail; i < n; ++i) entry(i);
        }
        out_ += ']';
    }

    const npy::Array& array_;
    const std::vector<uint32_t> strides_;
    const uint32_t size_;
    const std::optional<uint64_t> limit_;
    std::string out_;
};

// Every element as a double (integers past 2^53 rounded), for the summary's statistics.
double element_value(DML_TENSOR_DATA_TYPE type, const std::byte* at) {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: return static_cast<double>(half_to_float(load<uint16_t>(at)));
    case DML_TENSOR_DATA_TYPE_FLOAT32: return static_cast<double>(load<float>(at));
    case DML_TENSOR_DATA_TYPE_FLOAT64: return load<double>(at);
    case DML_TENSOR_DATA_TYPE_INT8: return load<int8_t>(at);
    case DML_TENSOR_DATA_TYPE_INT16: return load<int16_t>(at);
    case DML_TENSOR_DATA_TYPE_INT32: return load<int32_t>(at);
    case DML_TENSOR_DATA_TYPE_INT64: return static_cast<double>(load<int64_t>(at));
    case DML_TENSOR_DATA_TYPE_UINT8: return load<uint8_t>(at);
    case DML_TENSOR_DATA_TYPE_UINT16: return load<uint16_t>(at);
    case DML_TENSOR_DATA_TYPE_UINT32: return load<uint32_t>(at);
    case DML_TENSOR_DATA_TYPE_UINT64: return static_cast<double>(load<uint64_t>(at));
    default: return 0;
    }
}

// "min A, max B, mean C": the minimum and maximum as stored (exact, in the element's own text; NaN when any
// element is NaN, as NumPy's min and max), the mean in double precision.
std::string statistics(const npy::Array& array) {
    const uint32_t size = element_size(array.type);
    const uint64_t count = array.data.size() / size;
    const std::byte* data = array.data.data();
    // a < b by the stored values: 64-bit integers exactly, every other type as doubles (exact for them).
    const auto less = [&](uint64_t a, uint64_t b) {
        const std::byte* x = data + a * size;
        const std::byte* y = data + b * size;
        if (array.type == DML_TENSOR_DATA_TYPE_INT64) return load<int64_t>(x) < load<int64_t>(y);
        if (array.type == DML_TENSOR_DATA_TYPE_UINT64) return load<uint64_t>(x) < load<uint64_t>(y);
        return element_value(array.type, x) < element_value(array.type, y);
    };
    uint64_t lowest = 0, highest = 0, nan = count;
    double sum = 0;
    for (uint64_t i = 0; i < count; ++i) {
        const double v = element_value(array.type, data + i * size);
        sum += v;
        if (std::isnan(v)) {
            if (nan == count) nan = i;
        } else {
            if (less(i, lowest)) lowest = i;
            if (less(highest, i)) highest = i;
        }
    }
    const auto text = [&](uint64_t i) { return element_text(array.type, data + i * size); };
    const std::string low = nan < count ? text(nan) : text(lowest),
                      high = nan < count ? text(nan) : text(highest);
    return "min " + low + ", max " + high + ", mean " + formatted("%.9g", sum / static_cast<double>(count));
}

void run_show(const Args& args) {
    const std::optional<int64_t> given = args.integer("--limit");
    const npy::Array array = take(npy::read(args.operands()[0]));
    const uint64_t count = array.data.size() / element_size(array.type);
    const bool summarized = given || count > kWholeUpTo;
    const std::optional<uint64_t> limit =
        summarized ? std::optional<uint64_t>(static_cast<uint64_t>(given.value_or(kDefaultLimit)))
                   : std::nullopt;

    std::string text = array.boolean ? "BOOL" : to_string(array.type);  // a bool array's values: 0 and 1
    text += " [";
    for (size_t i = 0; i < array.shape.size(); ++i) text += (i ? "," : "") + std::to_string(array.shape[i]);
    text += "]\n";
    // A zero-size array prints as NumPy prints one, "[]", whatever its shape, and has no statistics.
    text += count == 0 ? "[]" : Printer(array, limit).text();
    text += '\n';
    if (summarized && count > 0) text += statistics(array) + '\n';
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
        fail("cannot write to standard output");
}

}  // namespace

extern const Command kShowCommand = {
    "show", "Print the type, shape and values of FILE.npy (C order, NumPy-like brackets).", kFile,
    define_show, run_show};

}  // namespace vkdml::cli
