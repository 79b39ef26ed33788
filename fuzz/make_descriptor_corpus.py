#!/usr/bin/env python3
"""Writes the seed inputs of fuzz_descriptors (fuzz/corpus/descriptors): valid descriptions of each
operator in the byte layout fuzz_descriptors.cpp reads, on both of its devices. The regression_* files
beside them are inputs the fuzzer found slow; they are kept, not written here."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "descriptors")

OPS = {"cumsum": 0, "cumprod": 1, "reduce": 2, "argmin": 3, "argmax": 4, "cummax": 6, "cummin": 7, "logcumsumexp": 8}
TYPES = {"f32": 1, "f16": 2, "u32": 3, "u16": 4, "u8": 5, "i32": 6, "i16": 7, "i8": 8, "f64": 9, "u64": 10, "i64": 11}


def tensor(dtype, sizes=None, strides=None, raw_sizes=None):
    """A tensor read by Tensor::read; sizes None means derived from the input (outputs)."""
    mode = (2 if strides else 0) | (1 if raw_sizes else 0)
    b = bytes([mode, TYPES[dtype] - 1])
    if raw_sizes:
        b += bytes([len(raw_sizes)]) + b"".join(struct.pack("<I", s) for s in (raw_sizes + [1] * 9)[:9])
    elif sizes is not None:
        b += bytes([len(sizes)]) + bytes([(s - 1) for s in (sizes + [1] * 9)[:9]])
    if strides:
        b += bytes((strides + [0] * 9)[:9])
    return b + bytes([0, 0])  # Sizes not null; TotalTensorSizeInBytes exactly what is needed


def desc(device, op, dtype, sizes, function=10, axis=0, direction=0, exclusive=0, axes=(), strides=None,
         index=None, raw_sizes=None, correction=None, indices=None):
    b = bytes([device, OPS[op], function, axis, direction, exclusive, len(axes)]) + bytes(axes)
    b += tensor(dtype, sizes, strides, raw_sizes)
    out_type = index if index else dtype
    b += tensor(out_type)
    if op in ("argmin", "argmax") or (op == "reduce" and function in (0, 1, 17)):
        b += bytes([0, 1 if out_type == "u32" else 0])  # choose the index (count) type
    if op == "reduce" and function in (15, 16):
        b += bytes([1])  # ANY, ALL: the output tensor's own type
    if op in ("cummax", "cummin"):  # the index output: none, or the input's shape (INT32: 5, INT64: 1)
        b += bytes([0]) if indices is None else bytes([5 if indices == "i32" else 1]) + tensor(indices)
    if correction is not None:  # nan_mode, then OperatorOptions::correction
        return b + bytes([0, correction])
    return b + bytes([0])  # nan_mode


SEEDS = {
    "cumsum_f32_2x3_axis1": desc(0, "cumsum", "f32", [2, 3], axis=1),
    "cumsum_i8_4x5x2_decreasing_exclusive": desc(1, "cumsum", "i8", [4, 5, 2], axis=1, direction=1, exclusive=1),
    "cumprod_i32_4x5_axis0": desc(0, "cumprod", "i32", [4, 5], axis=0, direction=1),
    "cumprod_f64_strided": desc(1, "cumprod", "f64", [3, 4], axis=1, strides=[8, 2]),
    "reduce_sum_f32_3x3_both": desc(0, "reduce", "f32", [3, 3], function=10, axes=(0, 1)),
    "reduce_lse_f16_2x3x4_axis2": desc(1, "reduce", "f16", [2, 3, 4], function=6, axes=(2,)),
    "reduce_argmax_u8_5x4_axis0": desc(0, "reduce", "u8", [5, 4], function=0, axes=(0,), index="u32"),
    "argmin_i64_3x2_axis1": desc(1, "argmin", "i64", [3, 2], axes=(1,), index="i64"),
    "argmax_f32_rank8": desc(0, "argmax", "f32", [2, 1, 2, 1, 2, 1, 2, 3], axes=(7, 0), direction=1, index="u32"),
    "cumsum_u16_broadcast_input": desc(0, "cumsum", "u16", [4, 3], axis=0, strides=[0, 1]),
    "reduce_max_f32_long_row": desc(1, "reduce", "f32", None, function=7, axes=(1,), raw_sizes=[2, 100000]),
    # vkdml's functions: function bytes 13..17 are VARIANCE (1000) .. COUNT_NONZERO (1004).
    "reduce_variance_f32_4x5_axis1": desc(0, "reduce", "f32", [4, 5], function=13, axes=(1,), correction=1),
    "reduce_std_f64_3x3_both": desc(1, "reduce", "f64", [3, 3], function=14, axes=(0, 1)),
    "reduce_any_i16_4x5_axis0": desc(0, "reduce", "i16", [4, 5], function=15, axes=(0,), index="u8"),
    "reduce_count_nonzero_f16_6x2_axis1": desc(1, "reduce", "f16", [6, 2], function=17, axes=(1,), index="u32"),
    # vkdml's operators: byte 1 values 6..8.
    "cummax_i8_4x5_axis1": desc(0, "cummax", "i8", [4, 5], axis=1),
    "cummin_u64_3x4_decreasing_exclusive": desc(1, "cummin", "u64", [3, 4], axis=0, direction=1, exclusive=1),
    "cummax_f32_3x6_axis1_indices": desc(0, "cummax", "f32", [3, 6], axis=1, indices="i64"),
    "cummin_u8_5x2_exclusive_i32_indices": desc(1, "cummin", "u8", [5, 2], axis=0, exclusive=1, indices="i32"),
    "logcumsumexp_f32_2x7_axis1": desc(0, "logcumsumexp", "f32", [2, 7], axis=1),
    "logcumsumexp_f16_strided": desc(1, "logcumsumexp", "f16", [3, 4], axis=1, strides=[8, 2]),
}

os.makedirs(OUT, exist_ok=True)
for name, data in SEEDS.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
print(f"wrote {len(SEEDS)} seeds to {OUT}")
