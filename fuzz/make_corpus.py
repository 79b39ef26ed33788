#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_npy (fuzz/corpus/npy/): small valid .npy files of several types, format
versions and orders, laid out as NumPy lays them out, and a few malformed ones. Run from the repository root;
the files are committed, so this only needs running again to change them."""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "npy")


def image(header, data=b"", major=1, pad=True):
    """A .npy file: magic, version major.0, header length, header (padded to 64 like NumPy), data."""
    header = header.encode("latin-1")
    length_size = 2 if major == 1 else 4
    if pad:
        header += b" " * ((64 - (6 + 2 + length_size + len(header) + 1) % 64) % 64) + b"\n"
    length = struct.pack("<H" if major == 1 else "<I", len(header))
    return b"\x93NUMPY" + bytes([major, 0]) + length + header + data


def dict_header(descr, shape, fortran=False):
    shape_text = "(" + ", ".join(str(n) for n in shape) + (",)" if len(shape) == 1 else ")")
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape_text)


def ramp(count, size):
    return bytes((i * 37 + 11) & 0xFF for i in range(count * size))


FILES = {
    # Valid files.
    "v1_f4_c_3x4.npy": image(dict_header("<f4", (3, 4)), struct.pack("<12f", *range(12))),
    "v1_i1_fortran_2x3.npy": image(dict_header("|i1", (2, 3), True), bytes([0, 3, 1, 4, 2, 0xFB])),
    "v1_f2_scalar.npy": image(dict_header("<f2", ()), b"\x00\x3c"),
    "v1_u8_rank8.npy": image(dict_header("<u8", (1, 1, 1, 1, 1, 1, 1, 2)), struct.pack("<2Q", 1, 2**64 - 1)),
    "v1_f8_2x1x2.npy": image(dict_header("<f8", (2, 1, 2)), struct.pack("<4d", 0.5, -0.0, 1e300, -2.25)),
    "v1_i8_fortran_3x2.npy": image(dict_header("<i8", (3, 2), True), struct.pack("<6q", -1, 2, -3, 4, -5, 2**63 - 1)),
    "v1_u1_python2.npy": image('{"shape": (5L,), "fortran_order": False, "descr": "|u1"}', ramp(5, 1)),
    "v2_i2_2x2.npy": image(dict_header("<i2", (2, 2)), ramp(4, 2), major=2),
    "v3_u4_native_order.npy": image(dict_header("=u4", (5,)), ramp(5, 4), major=3),
    "v1_i4_unpadded.npy": image("{'descr':'<i4','fortran_order':False,'shape':(2,)}", ramp(2, 4), pad=False),
    "v1_f4_zero_size_3x0.npy": image(dict_header("<f4", (3, 0))),
    "v1_i2_fortran_zero_size_2x0x5.npy": image(dict_header("<i2", (2, 0, 5), True)),
    # Malformed files.
    "bad_magic.npy": b"\x93NUMPX" + image(dict_header("<f4", (1,)), ramp(1, 4))[6:],
    "truncated_preamble.npy": image(dict_header("<f4", (1,)))[:9],
    "header_beyond_file.npy": image(dict_header("<f4", (3, 4)))[:40],
    "truncated_data.npy": image(dict_header("<f4", (3, 4)), ramp(11, 4)),
    "complex.npy": image(dict_header("<c8", (2,)), ramp(2, 8)),
    "big_endian.npy": image(dict_header(">f4", (2,)), ramp(2, 4)),
    "rank9.npy": image(dict_header("|u1", (1,) * 9), ramp(1, 1)),
    "count_overflows.npy": image(dict_header("|u1", (4294967296, 4294967296, 16)), ramp(4, 1)),
    "object.npy": image(dict_header("|O", (1,)), ramp(8, 1)),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, contents in FILES.items():
        assert len(contents) < 1024, name
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(contents)


if __name__ == "__main__":
    main()
