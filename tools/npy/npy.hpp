// tools/npy/npy.hpp — reading and writing NumPy .npy files as DirectML-shaped tensors.
//
// Reads format versions 1.0, 2.0 and 3.0 holding bool (as UINT8) or one of the 11 numeric types vkdml knows,
// little- or big-endian (big-endian data is given little-endian, as NumPy's astype('=') would), C or Fortran
// order, rank 0..8 (rank 0 reads as shape {1}), dimensions and an element count of at most 2^32 - 1
// (DirectML's limit; a dimension of 0 too: zero-size arrays), with a header of at most 1 MiB. Nothing is
// allocated from what a header says before it has been checked against the file's size, and every size
// computation is overflow-checked. Writes C-order files in format 1.0, atomically (temporary file + rename).
// Every rejection is an Error with code invalid_argument and a one-line message naming the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "vkdml/vkdml.hpp"

namespace vkdml::npy {

/// What a .npy file's header says: the array's type, shape and order, and where its data starts.
struct Header {
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_UNKNOWN;
    std::vector<uint32_t> shape;  ///< rank 1..8; a 0-d array reads as shape {1}
    bool fortran_order = false;
    /// The file's elements are big-endian (a '>' descr of 2 to 8 bytes): read() and read_data() swap them.
    bool big_endian = false;
    /// A NumPy bool array ('|b1'): `type` is UINT8, and read() and read_data() give each element as 0 or 1
    /// (NumPy reads any non-zero byte as True).
    bool boolean = false;
    uint64_t data_offset = 0;  ///< byte position of the data in the file

    /// Product of the shape (UINT64_MAX if it overflows, which no header read() accepts can).
    uint64_t element_count() const;
    /// Bytes of the data: element count × element size (0 for a type the reader does not know; UINT64_MAX
    /// if it overflows).
    uint64_t data_bytes() const;
    /// Strides in elements describing the data as a DirectML tensor: row-major (last dimension fastest) for
    /// C order, column-major (first dimension fastest) for Fortran order; a zero-size array's are those of
    /// its shape with every 0 read as 1.
    std::vector<uint32_t> strides() const;
};

/// The contents of one .npy file.
struct Array : Header {
    std::vector<std::byte> data;  ///< the element bytes, little-endian (a big-endian file's swapped)
};

/// The path that names standard input for read(): "-"; its messages name it kStandardInputName.
inline constexpr const char* kStandardInput = "-";
inline constexpr const char* kStandardInputName = "standard input";

/// Reads and checks a whole .npy file; kStandardInput reads standard input to its end (a stream is read
/// once: read_header and read_data take files alone).
Result<Array> read(const std::string& path);

/// Reads and checks a .npy file's header, and that the file holds exactly its data after it.
Result<Header> read_header(const std::string& path);

/// Reads the data of the file read_header described straight into `out` (header.data_bytes() long),
/// such as a device buffer mapped by vkdml::HostExecution: no copy in between (big-endian data is then
/// swapped in place).
Status read_data(const std::string& path, const Header& header, std::span<std::byte> out);

/// Checks and decodes the bytes of a .npy file; `name_for_errors` names it in error messages.
Result<Array> parse(std::span<const std::byte> file_bytes, const std::string& name_for_errors);

/// The path that names standard output for write(): "-".
inline constexpr const char* kStandardOutput = "-";

/// Checks, cheaply and before any work, that write() could create `path`: it is not a directory or another
/// non-regular file, and "<path>.tmp.<pid>" can be created in its directory (created and removed again).
/// "-" (standard output) always passes.
Status check_writable(const std::string& path);

/// Writes `data` (C order, little-endian, exactly element count × element size bytes) as a .npy file.
/// Writes "<path>.tmp.<pid>" first and renames it over `path`, so `path` never holds a partial file;
/// the temporary file is removed on failure. Refuses a `path` that is a directory, a device, a pipe or a
/// socket. Shape rules are those of read(), and an empty shape is a 0-d array (one element, shape ()).
/// `path` "-" writes the file to standard output instead. `boolean`: a bool array ('|b1') of UINT8 data,
/// each element 0 or 1.
Status write(const std::string& path, DML_TENSOR_DATA_TYPE type, std::span<const uint32_t> shape,
             std::span<const std::byte> data, bool boolean = false);

/// write() of an array whose every element is `element` (element_size(type) bytes), without holding the
/// whole data: blocks of up to 1 MiB written again and again.
Status write_filled(const std::string& path, DML_TENSOR_DATA_TYPE type, std::span<const uint32_t> shape,
                    std::span<const std::byte> element, bool boolean = false);

}  // namespace vkdml::npy
