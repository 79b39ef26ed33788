// tools/npy/npy.cpp — the .npy reader and writer: preamble, header dict, shape rules, atomic write.
#include "npy/npy.hpp"

#include "npy/platform.hpp"
#include "vkdml/checked_math.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>

namespace vkdml::npy {
namespace {

static_assert(std::endian::native == std::endian::little, ".npy data is handled as little-endian bytes");

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
constexpr uint64_t kMaxCount = 4294967295u;  // DirectML's element count limit, also the largest dimension
constexpr size_t kMaxRank = 8;
// The longest header accepted. NumPy's own writer never needs more than a few hundred bytes for the types
// read here (and its reader refuses more than 10000 by default); anything near this is not a real header.
constexpr uint64_t kMaxHeaderLength = uint64_t{1} << 20;

// A .npy dtype is a row of the library's type table (vkdml::kTypeInfo): its descr is the byte order, the
// NumPy kind and the size in bytes ("<f4", "|u1").
using Dtype = TypeInfo;

Error problem(const std::string& name, const std::string& what) {
    return Error{ErrorCode::invalid_argument, name + ": " + what};
}

// Text from the file, quoted for a one-line message: printable ASCII kept, the rest as \xNN, long text cut.
std::string printable(std::string_view text) {
    constexpr size_t kMaxShown = 40;
    std::string out = "'";
    for (char ch : text.substr(0, kMaxShown)) {
        auto byte = static_cast<unsigned char>(ch);
        if (byte >= 0x20 && byte < 0x7f) {
            out += ch;
        } else {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", byte);
            out += hex;
        }
    }
    return out + (text.size() > kMaxShown ? "'..." : "'");
}

// Python's repr of a shape tuple: "()", "(5,)", "(3, 4)".
template <class Int>
std::string shape_text(std::span<const Int> shape) {
    std::string out = "(";
    for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + (shape.size() == 1 ? ",)" : ")");
}

// The type of a descr such as '<f4', '|u1' or '>i8' ('>': big-endian, which `big_endian` reports); a bool
// ('|b1') is UINT8, which `boolean` reports.
const Dtype* dtype_from_descr(std::string_view descr, bool& big_endian, bool& boolean) {
    if (descr.size() != 3 || std::string_view("<=|>").find(descr[0]) == std::string_view::npos)
        return nullptr;
    big_endian = descr[0] == '>' && descr[2] != '1';  // one byte has no order
    boolean = descr.substr(1) == "b1";
    if (boolean) return type_info(DML_TENSOR_DATA_TYPE_UINT8);
    for (const Dtype& d : kTypeInfo)
        if (descr[1] == d.numpy_kind && descr[2] == static_cast<char>('0' + d.size)) return &d;
    return nullptr;
}

const Dtype* dtype_from_type(DML_TENSOR_DATA_TYPE type) {
    return type_info(type);
}

// The descr NumPy writes for a type: "|" (no byte order) for single bytes, "<" otherwise.
std::string descr_of(const Dtype& dtype) {
    // Appended, not `"<" + std::string(code)`: GCC 12 at -O3 warns falsely (-Wrestrict) on that form.
    std::string descr(1, dtype.size == 1 ? '|' : '<');
    descr += dtype.numpy_kind;
    return descr += static_cast<char>('0' + dtype.size);
}

// Why a descr that dtype_from_descr refused is unusable.
std::string bad_descr_problem(std::string_view descr) {
    std::string_view kind;
    size_t at = descr.find_first_not_of("<>=|");
    switch (at == std::string_view::npos ? '\0' : descr[at]) {
    case 'b': kind = " (bool)"; break;
    case 'c': kind = " (complex)"; break;
    case 'O': kind = " (object)"; break;
    case 'S':
    case 'a':
    case 'U': kind = " (string)"; break;
    case 'V': kind = " (void/structured)"; break;
    case 'M':
    case 'm': kind = " (datetime)"; break;
    default: break;
    }
    return "unsupported dtype " + printable(descr) + std::string(kind) +
           "; supported: <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 |b1 (and big-endian: >f2 ... >u8)";
}

// The shape rules shared by read and write; returns the problem, if any. Every product is checked: a count
// that overflows 64 bits is reported as such, never wrapped. A zero-size array (a dimension of 0) has no
// count to check, only its dimensions.
std::optional<std::string> shape_problem(std::span<const uint64_t> shape) {
    if (shape.size() > kMaxRank)
        return "rank " + std::to_string(shape.size()) + " exceeds the maximum of " + std::to_string(kMaxRank);
    const bool empty = std::find(shape.begin(), shape.end(), uint64_t{0}) != shape.end();
    uint64_t full_count = 1;
    for (uint64_t n : shape)
        if (!empty && mul_overflows(full_count, n, &full_count))
            return "element count of shape " + shape_text(shape) + " overflows 64 bits";
    uint64_t count = 1;
    bool count_too_large = false;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] > kMaxCount)
            return "dimension " + std::to_string(i) + " of shape " + shape_text(shape) + " exceeds " +
                   std::to_string(kMaxCount);
        count_too_large = count_too_large || count * shape[i] > kMaxCount;  // both factors < 2^32: no wrap
        count = count_too_large ? 1 : count * shape[i];
    }
    if (count_too_large && !empty)
        return "element count of shape " + shape_text(shape) + " exceeds " + std::to_string(kMaxCount) +
               " (DirectML's limit)";
    return std::nullopt;
}

// The product of `factors`, UINT64_MAX if it overflows (0 if a factor is 0, whatever the others).
template <class Int>
uint64_t saturated_product(std::span<const Int> factors) {
    if (std::find(factors.begin(), factors.end(), Int{0}) != factors.end()) return 0;
    uint64_t product = 1;
    for (Int n : factors)
        if (mul_overflows(product, uint64_t{n}, &product)) return UINT64_MAX;
    return product;
}

uint64_t saturated_product(uint64_t a, uint64_t b) {
    uint64_t product = 0;
    return mul_overflows(a, b, &product) ? UINT64_MAX : product;
}

// ---------------------------------------------------------------------------------------------
// Header dict: a Python literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }

struct HeaderFields {
    std::string descr;
    bool fortran_order = false;
    std::vector<uint64_t> shape;
};

class HeaderParser {
public:
    explicit HeaderParser(std::string_view text) : text_(text) {}

    // Parses the whole header; returns the problem on failure.
    std::optional<std::string> parse(HeaderFields& out) {
        if (!eat('{')) return "header is not a dict: " + printable(text_);
        enum Key { kDescr = 1, kFortran = 2, kShape = 4 };
        unsigned seen = 0;
        bool closed = eat('}');
        while (!closed) {
            std::string key;
            if (!string_literal(key)) return expected("a quoted key");
            const unsigned bit = key == "descr"           ? kDescr
                                 : key == "fortran_order" ? kFortran
                                 : key == "shape"         ? kShape
                                                          : 0;
            if (bit == 0) return "unexpected key " + printable(key) + " in the header";
            if (seen & bit) return "duplicate key " + printable(key) + " in the header";
            seen |= bit;
            if (!eat(':')) return expected("':'");
            std::optional<std::string> bad = bit == kDescr     ? descr(out.descr)
                                             : bit == kFortran ? boolean(out.fortran_order)
                                                               : tuple(out.shape);
            if (bad) return bad;
            if (eat(','))
                closed = eat('}');
            else if (eat('}'))
                closed = true;
            else
                return expected("',' or '}'");
        }
        skip_space();
        if (pos_ != text_.size()) return expected("the end of the header after the dict");
        for (auto [bit, name] : {std::pair{kDescr, "descr"}, {kFortran, "fortran_order"}, {kShape, "shape"}})
            if (!(seen & bit)) return std::string("header lacks the key '") + name + "'";
        return std::nullopt;
    }

private:
    std::string expected(const std::string& what) const {
        return "malformed header: expected " + what + " at byte " + std::to_string(pos_) + " of " +
               printable(text_);
    }

    void skip_space() {
        while (pos_ < text_.size() &&
               std::string_view(" \t\n\r\f\v").find(text_[pos_]) != std::string_view::npos)
            ++pos_;
    }

    bool eat(char ch) {
        skip_space();
        if (pos_ >= text_.size() || text_[pos_] != ch) return false;
        ++pos_;
        return true;
    }

    bool eat_word(std::string_view word) {
        skip_space();
        if (!text_.substr(pos_).starts_with(word)) return false;
        pos_ += word.size();
        return true;
    }

    // A '...' or "..." literal without escapes (none of the header's strings need one).
    bool string_literal(std::string& out) {
        skip_space();
        if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) return false;
        const size_t end = text_.find_first_of(std::string{text_[pos_], '\\', '\n'}, pos_ + 1);
        if (end == std::string_view::npos || text_[end] != text_[pos_]) return false;
        out = text_.substr(pos_ + 1, end - pos_ - 1);
        pos_ = end + 1;
        return true;
    }

    std::optional<std::string> descr(std::string& out) {
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == '[') return "structured dtypes are not supported";
        if (!string_literal(out)) return expected("a quoted 'descr' value");
        return std::nullopt;
    }

    std::optional<std::string> boolean(bool& out) {
        if (eat_word("True"))
            out = true;
        else if (eat_word("False"))
            out = false;
        else
            return expected("True or False for 'fortran_order'");
        return std::nullopt;
    }

    // A tuple of non-negative integers (a Python 2 'L' suffix allowed), each below 2^64.
    std::optional<std::string> tuple(std::vector<uint64_t>& out) {
        if (!eat('(')) return expected("a tuple for 'shape'");
        bool trailing_comma = false;
        while (!eat(')')) {
            skip_space();
            if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9')
                return expected("a non-negative integer in 'shape'");
            const size_t start = pos_;
            uint64_t value = 0;
            bool overflow = false;
            for (; pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9'; ++pos_) {
                const auto digit = static_cast<uint64_t>(text_[pos_] - '0');
                overflow = overflow || mul_overflows(value, uint64_t{10}, &value) ||
                           add_overflows(value, digit, &value);
            }
            if (overflow)
                return "dimension " + std::to_string(out.size()) + " of 'shape', " +
                       printable(text_.substr(start, pos_ - start)) + ", overflows 64 bits";
            if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;
            out.push_back(value);
            trailing_comma = eat(',');
            if (!trailing_comma && !eat(')')) return expected("',' or ')' in 'shape'");
            if (!trailing_comma) break;
        }
        if (out.size() == 1 && !trailing_comma)
            return "malformed header: 'shape' is not a tuple (write (n,))";
        return std::nullopt;
    }

    std::string_view text_;
    size_t pos_ = 0;
};

// ---------------------------------------------------------------------------------------------
// File structure

// Where the header lies, from the preamble (magic, version, header length).
struct Preamble {
    uint64_t header_offset;
    uint64_t header_length;
};

// `head` holds the first min(12, file_size) bytes of the file.
Result<Preamble> parse_preamble(std::span<const std::byte> head, uint64_t file_size,
                                const std::string& name) {
    const size_t magic_seen = std::min(head.size(), kMagicSize);
    if (magic_seen == 0 || std::memcmp(head.data(), kMagic, magic_seen) != 0)
        return problem(name, "not a .npy file (the magic string \\x93NUMPY is missing)");
    const auto truncated = [&] {
        return problem(name,
                       "file is truncated inside the preamble (" + std::to_string(file_size) + " bytes)");
    };
    if (head.size() < 8) return truncated();
    const auto major = static_cast<unsigned>(head[6]), minor = static_cast<unsigned>(head[7]);
    if (major < 1 || major > 3 || minor != 0)
        return problem(name, "unsupported .npy format version " + std::to_string(major) + "." +
                                 std::to_string(minor) + " (1.0, 2.0 and 3.0 are supported)");
    const size_t length_bytes = major == 1 ? 2 : 4;
    if (head.size() < 8 + length_bytes) return truncated();
    uint64_t length = 0;
    for (size_t i = 0; i < length_bytes; ++i) length |= static_cast<uint64_t>(head[8 + i]) << (8 * i);
    const uint64_t offset = 8 + length_bytes;
    if (length > file_size - offset)
        return problem(name, "file is truncated: header length " + std::to_string(length) +
                                 " extends beyond the end of the file (" + std::to_string(file_size) +
                                 " bytes)");
    if (length > kMaxHeaderLength)
        return problem(name, "header length " + std::to_string(length) + " exceeds the limit of " +
                                 std::to_string(kMaxHeaderLength) + " bytes");
    return Preamble{offset, length};
}

// Decodes the header (data_offset is left to the caller).
Result<Header> parse_header(std::string_view text, const std::string& name) {
    HeaderFields fields;
    if (auto bad = HeaderParser(text).parse(fields)) return problem(name, *bad);
    bool big_endian = false, boolean = false;
    const Dtype* dtype = dtype_from_descr(fields.descr, big_endian, boolean);
    if (!dtype) return problem(name, bad_descr_problem(fields.descr));
    if (auto bad = shape_problem(fields.shape)) return problem(name, *bad);
    Header header;
    header.type = dtype->type;
    header.fortran_order = fields.fortran_order;
    header.big_endian = big_endian;
    header.boolean = boolean;
    for (uint64_t size : fields.shape) header.shape.push_back(static_cast<uint32_t>(size));  // checked above
    if (header.shape.empty()) header.shape.push_back(1);
    return header;
}

// "shape (2, 3) of <i4": what the data of `array` must hold, for messages.
std::string layout_text(const Header& array) {
    return "shape " + shape_text(std::span<const uint32_t>(array.shape)) + " of " +
           (array.boolean ? std::string("|b1") : descr_of(*dtype_from_type(array.type)));
}

Status check_data_size(const Header& array, uint64_t available, const std::string& name) {
    const uint64_t needed = array.data_bytes();
    if (available == needed) return {};
    const std::string layout = layout_text(array);
    if (available < needed)
        return problem(name, "data is truncated: " + layout + " needs " + std::to_string(needed) +
                                 " bytes, the file holds " + std::to_string(available));
    return problem(name, "file has " + std::to_string(available - needed) + " bytes after the data (" +
                             layout + " needs " + std::to_string(needed) + ")");
}

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

// NumPy reads any non-zero byte of a bool array as True: 1, as it writes True.
void normalize_bools(std::span<std::byte> data) {
    for (std::byte& b : data) b = b == std::byte{0} ? std::byte{0} : std::byte{1};
}

// Reverses the bytes of each `size`-byte element of `data` (big-endian to little-endian).
void swap_bytes(std::span<std::byte> data, uint32_t size) {
    for (size_t at = 0; at + size <= data.size(); at += size)
        std::reverse(data.begin() + at, data.begin() + at + size);
}

bool read_exactly(std::FILE* file, void* out, uint64_t size) {
    return size == 0 || std::fread(out, 1, size, file) == size;
}

Error read_failed(const std::string& path) {
    return problem(path, "read failed (the file changed or is unreadable)");
}

// Why `path` cannot be replaced by a new file, if what is there already says so: a directory, or a device,
// pipe or socket (renaming over /dev/null would replace the device itself).
std::optional<std::string> output_problem(const std::string& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(platform::path_from_utf8(path), ec);
    if (status.type() == std::filesystem::file_type::directory) return "cannot write: it is a directory";
    if (std::filesystem::exists(status) && status.type() != std::filesystem::file_type::regular)
        return "cannot write: it exists and is not a regular file";
    return std::nullopt;
}

}  // namespace

uint64_t Header::data_bytes() const {
    const Dtype* dtype = dtype_from_type(type);
    return dtype ? saturated_product(element_count(), dtype->size) : 0;
}

uint64_t Header::element_count() const {
    return saturated_product(std::span<const uint32_t>(shape));
}

std::vector<uint32_t> Header::strides() const {
    std::vector<uint32_t> strides(shape.size());
    uint64_t step = 1;
    for (size_t k = 0; k < shape.size(); ++k) {
        const size_t dim = fortran_order ? k : shape.size() - 1 - k;
        strides[dim] = static_cast<uint32_t>(step);
        step *= std::max<uint32_t>(shape[dim], 1);  // (a zero-size array's strides are those of its
                                                    // shape with each 0 read as 1)
    }
    return strides;
}

Result<Array> parse(std::span<const std::byte> file_bytes, const std::string& name_for_errors) {
    auto preamble = parse_preamble(file_bytes.first(std::min<size_t>(file_bytes.size(), 12)),
                                   file_bytes.size(), name_for_errors);
    if (!preamble) return preamble.error();
    const auto text = file_bytes.subspan(preamble->header_offset, preamble->header_length);
    auto header = parse_header(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()),
                               name_for_errors);
    if (!header) return header.error();
    header->data_offset = preamble->header_offset + preamble->header_length;
    const auto data = file_bytes.subspan(header->data_offset);
    if (auto status = check_data_size(*header, data.size(), name_for_errors); !status) return status.error();
    Array array;
    static_cast<Header&>(array) = std::move(*header);
    array.data.assign(data.begin(), data.end());
    if (array.big_endian) swap_bytes(array.data, dtype_from_type(array.type)->size);
    if (array.boolean) normalize_bools(array.data);
    return array;
}

Result<Header> read_header(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path native = platform::path_from_utf8(path);
    if (!std::filesystem::is_regular_file(native, ec))
        return problem(path, ec ? "cannot open: " + ec.message() : "not a regular file");
    const uint64_t file_size = std::filesystem::file_size(native, ec);
    if (ec) return problem(path, "cannot read its size: " + ec.message());
    File file(platform::open_file(path, "rb"), &std::fclose);
    if (!file) return problem(path, std::string("cannot open: ") + std::strerror(errno));
    std::byte head[12];
    const size_t head_size = static_cast<size_t>(std::min<uint64_t>(file_size, sizeof head));
    if (!read_exactly(file.get(), head, head_size)) return read_failed(path);
    auto preamble = parse_preamble(std::span(head, head_size), file_size, path);
    if (!preamble) return preamble.error();
    std::string text(preamble->header_length, '\0');
    if (std::fseek(file.get(), static_cast<long>(preamble->header_offset), SEEK_SET) != 0 ||
        !read_exactly(file.get(), text.data(), text.size()))
        return read_failed(path);
    auto header = parse_header(text, path);
    if (!header) return header;
    header->data_offset = preamble->header_offset + preamble->header_length;
    if (auto status = check_data_size(*header, file_size - header->data_offset, path); !status)
        return status.error();
    return header;
}

Status read_data(const std::string& path, const Header& header, std::span<std::byte> out) {
    if (out.size() != header.data_bytes())
        return problem(path, "read_data: the destination holds " + std::to_string(out.size()) +
                                 " bytes, the data " + std::to_string(header.data_bytes()));
    File file(platform::open_file(path, "rb"), &std::fclose);
    if (!file) return problem(path, std::string("cannot open: ") + std::strerror(errno));
    if (std::fseek(file.get(), static_cast<long>(header.data_offset), SEEK_SET) != 0 ||
        !read_exactly(file.get(), out.data(), out.size()) || std::fgetc(file.get()) != EOF)
        return read_failed(path);
    if (header.big_endian) swap_bytes(out, dtype_from_type(header.type)->size);
    if (header.boolean) normalize_bools(out);
    return {};
}

namespace {

// Up to `size` bytes of standard input into `out`, fewer only at its end; an error if it cannot be read.
Result<size_t> read_input(void* out, size_t size) {
    const size_t got = std::fread(out, 1, size, stdin);
    if (got < size && std::ferror(stdin))
        return problem(kStandardInputName, "cannot read it: " + platform::error_text(errno));
    return got;
}

// read(kStandardInput): the preamble, the header and then exactly the data the header gives, in blocks
// (a stream that ends early costs no more than what it held), and nothing after it.
Result<Array> read_standard_input() {
    const std::string name = kStandardInputName;
    if (platform::standard_input_is_terminal())
        return problem(name, "is a terminal: pipe or redirect a .npy file into it");
    std::byte head[12];
    auto got = read_input(head, sizeof head);
    if (!got) return got.error();
    if (*got == 0) return problem(name, "is empty (no .npy file was piped or redirected into it)");
    // (Its size is unknown until its end: the preamble's checks against it take the bytes read so far.)
    auto preamble = parse_preamble(std::span(head, *got), *got < sizeof head ? *got : UINT64_MAX, name);
    if (!preamble) return preamble.error();
    // The bytes read past the preamble: the header's first ones (format 1.0's preamble is 10 bytes long).
    std::span<const std::byte> ahead = std::span(head, *got).subspan(preamble->header_offset);
    std::string text(preamble->header_length, '\0');
    const size_t early = std::min<size_t>(ahead.size(), text.size());
    std::memcpy(text.data(), ahead.data(), early);
    ahead = ahead.subspan(early);
    got = read_input(text.data() + early, text.size() - early);
    if (!got) return got.error();
    if (early + *got < text.size())
        return problem(name, "file is truncated: header length " + std::to_string(text.size()) +
                                 " extends beyond the end of the file (" +
                                 std::to_string(preamble->header_offset + early + *got) + " bytes)");
    auto header = parse_header(text, name);
    if (!header) return header.error();
    header->data_offset = preamble->header_offset + preamble->header_length;
    Array array;
    static_cast<Header&>(array) = std::move(*header);
    const uint64_t needed = array.data_bytes();
    if (ahead.size() > needed) return check_data_size(array, ahead.size(), name).error();
    array.data.assign(ahead.begin(), ahead.end());  // (a header shorter than 2 bytes: the data's first)
    constexpr uint64_t kBlock = uint64_t{64} << 20;
    while (array.data.size() < needed) {
        const uint64_t at = array.data.size(), step = std::min(kBlock, needed - at);
        array.data.resize(at + step);
        got = read_input(array.data.data() + at, step);
        if (!got) return got.error();
        if (*got < step) return check_data_size(array, at + *got, name).error();
    }
    std::byte extra;
    got = read_input(&extra, 1);
    if (!got) return got.error();
    if (*got > 0)
        return problem(name, "file has more bytes after the data (" + layout_text(array) + " needs " +
                                 std::to_string(needed) + ")");
    if (array.big_endian) swap_bytes(array.data, dtype_from_type(array.type)->size);
    if (array.boolean) normalize_bools(array.data);
    return array;
}

}  // namespace

Result<Array> read(const std::string& path) {
    if (path == kStandardInput) return read_standard_input();
    auto header = read_header(path);
    if (!header) return header.error();
    Array array;
    static_cast<Header&>(array) = std::move(*header);
    array.data.resize(array.data_bytes());
    if (auto st = read_data(path, array, array.data); !st) return st.error();
    return array;
}

Status check_writable(const std::string& path) {
    if (path == kStandardOutput) return {};
    if (auto bad = output_problem(path)) return problem(path, *bad);
    const std::string temp = platform::temporary_name(path);
    std::FILE* file = platform::open_file(temp, "wb");
    if (!file) return problem(path, "cannot create '" + temp + "': " + platform::error_text(errno));
    std::fclose(file);
    std::error_code ignored;
    std::filesystem::remove(platform::path_from_utf8(temp), ignored);
    return {};
}

namespace {

// write() and write_filled(): the data after the header is `data`, its parts one after the other.
Status write_parts(const std::string& path, DML_TENSOR_DATA_TYPE type, std::span<const uint32_t> shape,
                   std::vector<std::span<const std::byte>> data, bool boolean) {
    const Dtype* dtype = dtype_from_type(type);
    if (!dtype) return problem(path, "cannot write data type " + std::to_string(static_cast<int>(type)));
    if (boolean && type != DML_TENSOR_DATA_TYPE_UINT8)
        return problem(path, "a bool array is written from UINT8 data, not " + std::string(dtype->name));
    const std::vector<uint64_t> dims(shape.begin(), shape.end());
    if (auto bad = shape_problem(dims)) return problem(path, *bad);
    const uint64_t needed = saturated_product(std::span<const uint64_t>(dims)) * dtype->size;
    uint64_t given = 0;
    for (std::span<const std::byte> part : data) given += part.size();
    if (given != needed)
        return problem(path, "shape " + shape_text(shape) + " of " + descr_of(*dtype) + " needs " +
                                 std::to_string(needed) + " bytes of data, got " + std::to_string(given));

    // Format 1.0, padded with spaces and a newline so the data starts at a multiple of 64 as NumPy does.
    // A rank <= 8 header is under 256 bytes, so the 16-bit header length of format 1.0 always suffices.
    std::string header = "{'descr': '" + (boolean ? std::string("|b1") : descr_of(*dtype)) +
                         "', 'fortran_order': False, 'shape': " + shape_text(shape) + ", }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string preamble(kMagic, kMagicSize);
    preamble +=
        {'\x01', '\x00', static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};

    data.insert(data.begin(), {std::as_bytes(std::span(preamble)), std::as_bytes(std::span(header))});
    if (path == kStandardOutput) {
        if (auto failure = platform::write_standard_output(data)) return problem(path, *failure);
        return {};
    }
    if (auto bad = output_problem(path)) return problem(path, *bad);
    if (auto failure = platform::write_file_atomically(path, data)) return problem(path, *failure);
    return {};
}

}  // namespace

Status write(const std::string& path, DML_TENSOR_DATA_TYPE type, std::span<const uint32_t> shape,
             std::span<const std::byte> data, bool boolean) {
    return write_parts(path, type, shape, {data}, boolean);
}

Status write_filled(const std::string& path, DML_TENSOR_DATA_TYPE type, std::span<const uint32_t> shape,
                    std::span<const std::byte> element, bool boolean) {
    if (element.size() != element_size(type))
        return problem(path, "write_filled: an element of " + std::to_string(element_size(type)) +
                                 " bytes, got " + std::to_string(element.size()));
    // A block of up to 1 MiB of copies written again and again, then part of it: never the whole data.
    const uint64_t count = saturated_product(shape);
    const uint64_t per_block =
        std::clamp<uint64_t>((uint64_t{1} << 20) / element.size(), 1, std::max<uint64_t>(count, 1));
    std::vector<std::byte> block;
    for (uint64_t i = 0; i < per_block && count > 0 && count != UINT64_MAX; ++i)
        block.insert(block.end(), element.begin(), element.end());
    std::vector<std::span<const std::byte>> parts;
    if (count != UINT64_MAX) {  // (else shape_problem refuses it)
        parts.assign(count / per_block, block);
        parts.push_back(std::span(block).first((count % per_block) * element.size()));
    }
    return write_parts(path, type, shape, std::move(parts), boolean);
}

}  // namespace vkdml::npy
