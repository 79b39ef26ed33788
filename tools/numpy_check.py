#!/usr/bin/python3
"""Runs the vkdml tool on random .npy inputs and checks each result against NumPy.

Random ranks (1-4), shapes (one in ten zero-size: NumPy's answer, or its refusal refused too), axes, all
11 data types, cumsum / cumprod / cummax / cummin (half of them with --indices, against PyTorch's loop) /
logcumsumexp (floats; inclusive, exclusive, reversed), reduce (sum, multiply, max, min, over one or
several axes, keepdims) and argmax / argmin (first or last index among ties), then the error paths (exit code 1 or 2, exactly one "vkdml: error:" line on stderr,
nothing on stdout, no output file). Integer results must match exactly (wrapping like NumPy's
fixed-width arithmetic); float results within a tolerance scaled to the data. Needs python3-numpy.

  tools/numpy_check.py [--cases N] [--seed S] -- TOOL [TOOL ARGS...]
  e.g. tools/numpy_check.py -- build/dev/tools/vkdml
       tools/numpy_check.py -- /usr/lib/wine/wine64 build/windows/bin/vkdml.exe
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

INT_TYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOAT_TYPES = ["float16", "float32", "float64"]
TOLERANCE = {"float16": 2e-3, "float32": 2e-6, "float64": 1e-13}


def run(tool, args):
    done = subprocess.run(tool + args, capture_output=True, timeout=300)
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def random_input(rng, dtype, shape, for_product):
    if dtype in FLOAT_TYPES:
        if for_product:  # factors near 1: products stay finite and meaningful
            values = 1.0 + rng.uniform(-0.05, 0.05, shape)
        else:
            values = rng.uniform(-4.0, 4.0, shape)
        return values.astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


def scan(x, axis, exclusive, reverse, product):
    if x.size == 0:  # a zero-size array: NumPy's scan is as empty
        return np.empty(x.shape, x.dtype)
    with np.errstate(over="ignore"):
        a = np.flip(x, axis) if reverse else x
        acc = np.float32 if x.dtype == np.float16 else x.dtype
        out = (np.cumprod if product else np.cumsum)(a, axis=axis, dtype=acc)
        if exclusive:
            identity = np.ones_like if product else np.zeros_like
            first = identity(np.take(out, [0], axis=axis))
            out = np.concatenate([first, np.take(out, range(out.shape[axis] - 1), axis=axis)], axis=axis)
        out = out.astype(x.dtype)
        return np.flip(out, axis) if reverse else out


def running(x, axis, exclusive, reverse, kind):
    """vkdml's cummax, cummin and logcumsumexp (NumPy's maximum, minimum and logaddexp accumulated; the
    exclusive first output the identity: the type's extreme, -inf for floats and the log-sum-exp)."""
    if x.size == 0:
        return np.empty(x.shape, x.dtype)
    a = np.flip(x, axis) if reverse else x
    if kind == "logcumsumexp":
        out = np.logaddexp.accumulate(a.astype(np.float64), axis=axis)
    else:
        out = (np.maximum if kind == "cummax" else np.minimum).accumulate(a, axis=axis)
    if exclusive:
        if x.dtype.kind == "f":
            extreme = np.inf if kind == "cummin" else -np.inf
        else:
            extreme = np.iinfo(x.dtype).max if kind == "cummin" else np.iinfo(x.dtype).min
        first = np.full_like(np.take(out, [0], axis=axis), extreme)
        out = np.concatenate([first, np.take(out, range(out.shape[axis] - 1), axis=axis)], axis=axis)
    out = out.astype(x.dtype)
    return np.flip(out, axis) if reverse else out


def running_indices(x, axis, exclusive, reverse, kind):
    """The index output of vkdml's cummax (cummin) as PyTorch's loop: in scan order an element takes the
    index when it is NaN, or not beyond the running value (>= for the maximum) while that is not NaN; an
    exclusive output takes the index before its element; -1 before any."""
    a = np.moveaxis(x, axis, -1)
    out = np.full(a.shape, -1, np.int64)
    n = a.shape[-1]
    for at in np.ndindex(a.shape[:-1]):
        best, where = None, -1
        for step in range(n):
            k = n - 1 - step if reverse else step
            v = a[at + (k,)]
            if exclusive:
                out[at + (k,)] = where
            is_nan = x.dtype.kind == "f" and np.isnan(v)
            best_nan = best is not None and x.dtype.kind == "f" and np.isnan(best)
            if best is None or is_nan or (not best_nan and (v >= best if kind == "cummax" else v <= best)):
                best, where = v, k
            if not exclusive:
                out[at + (k,)] = where
    return np.moveaxis(out, -1, axis)


def reduce(x, axes, function):
    with np.errstate(over="ignore"):
        acc = np.float32 if x.dtype == np.float16 else x.dtype
        if function == "sum":
            return np.sum(x, axis=axes, dtype=acc, keepdims=True).astype(x.dtype)
        if function == "multiply":
            return np.prod(x, axis=axes, dtype=acc, keepdims=True).astype(x.dtype)
        return (np.max if function == "max" else np.min)(x, axis=axes, keepdims=True)


def arg(x, axis, largest, last):
    a = np.flip(x, axis) if last else x
    index = (np.argmax if largest else np.argmin)(a, axis=axis)
    if last:
        index = x.shape[axis] - 1 - index
    return np.expand_dims(index, axis).astype(np.int64)


def numpy_answer(compute):
    """NumPy's result, or None where NumPy refuses the case (a maximum or an arg of no elements)."""
    try:
        return compute()
    except ValueError:
        return None


def close(got, want, dtype, scale):
    if dtype in FLOAT_TYPES:
        tolerance = TOLERANCE[dtype] * np.maximum(scale, 1.0)
        g, w = got.astype(np.float64), want.astype(np.float64)
        with np.errstate(invalid="ignore"):
            same = (g == w) | (np.abs(g - w) <= tolerance)  # (infinities compare equal)
        return bool(np.all(same))
    return bool(np.array_equal(got, want))


def check_case(tool, rng, work, index):
    rank = int(rng.integers(1, 5))
    shape = [int(n) for n in rng.integers(1, 8, rank)]
    if rng.integers(0, 10) == 0:  # one case in ten a zero-size array: a dimension of 0, or two
        for _ in range(int(rng.integers(1, 3))):
            shape[int(rng.integers(0, rank))] = 0
    shape = tuple(shape)
    dtype = str(rng.choice(INT_TYPES + FLOAT_TYPES))
    kind = str(rng.choice(["cumsum", "cumprod", "reduce", "argmax", "argmin", "cummax", "cummin", "logcumsumexp"]))
    if kind == "logcumsumexp" and dtype not in FLOAT_TYPES:
        dtype = str(rng.choice(FLOAT_TYPES))
    function = str(rng.choice(["sum", "multiply", "max", "min"])) if kind == "reduce" else ""
    product = kind == "cumprod" or function == "multiply"
    x = random_input(rng, dtype, shape, product)
    src, dst = os.path.join(work, "in.npy"), os.path.join(work, "out.npy")
    np.save(src, x)
    axis = int(rng.integers(0, rank))
    scale = float(np.sum(np.abs(x.astype(np.float64)))) if dtype in FLOAT_TYPES and not product else 1.0
    if kind in ("cumsum", "cumprod"):
        exclusive, reverse = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
        args = [kind, "--axis", str(axis - rank if rng.integers(0, 2) else axis)]
        args += ["--exclusive"] * exclusive + ["--reverse"] * reverse
        want = scan(x, axis, exclusive, reverse, kind == "cumprod")
    elif kind in ("cummax", "cummin", "logcumsumexp"):
        exclusive, reverse = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
        args = [kind, "--axis", str(axis)] + ["--exclusive"] * exclusive + ["--reverse"] * reverse
        want = running(x, axis, exclusive, reverse, kind)
        if kind != "logcumsumexp" and rng.integers(0, 2):
            indices = os.path.join(work, "indices.npy")
            args += ["--indices", indices]
            want_indices = running_indices(x, axis, exclusive, reverse, kind)
        scale = float(np.max(np.abs(x.astype(np.float64)), initial=0.0)) if kind == "logcumsumexp" else 1.0
    elif kind == "reduce":
        axes = sorted({axis, int(rng.integers(0, rank))})
        args = ["reduce", "--function", function, "--axes", ",".join(map(str, axes))]
        want = numpy_answer(lambda: reduce(x, tuple(axes), function))
    else:
        last = bool(rng.integers(0, 2))
        args = [kind, "--axis", str(axis)] + ["--select-last-index"] * last
        want = numpy_answer(lambda: arg(x, axis, kind == "argmax", last))
    code, out, err = run(tool, args + [src, dst])
    label = f"case {index}: vkdml {' '.join(args)} on {dtype}{list(shape)}"
    if want is None:  # NumPy refuses it (the maximum of no elements): the tool too, in one line
        lines = err.splitlines()
        if code != 1 or out or len(lines) != 1 or "of no elements has no value" not in lines[0] or os.path.exists(dst):
            return f"{label}: NumPy refuses it, the tool gave exit {code}, stdout {out!r}, stderr {err!r}"
        return None
    if code != 0 or out or err:
        return f"{label}: exit {code}, stdout {out!r}, stderr {err!r}"
    got = np.load(dst)
    os.remove(dst)
    if "--indices" in args:
        got_indices = np.load(indices)
        os.remove(indices)
        if got_indices.dtype != np.int64 or not np.array_equal(got_indices, want_indices):
            return f"{label}: indices\n{got_indices}\nPyTorch's loop\n{want_indices}"
    if got.dtype != want.dtype or got.shape != want.shape:
        return f"{label}: got {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}"
    if not close(got, want, dtype, scale):
        return f"{label}: got\n{got}\nNumPy\n{want}"
    return None


def check_errors(tool, work):
    src, dst = os.path.join(work, "in.npy"), os.path.join(work, "out.npy")
    np.save(src, np.arange(12, dtype=np.float32).reshape(3, 4))
    bad = os.path.join(work, "bad.npy")
    with open(bad, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00\x10\x00{'descr': '<f4'}")
    cases = [
        (["cumsum", "--axis", "2", src, dst], 1, "axis 2 is out of range"),
        (["cumsum", "--axis", "0", os.path.join(work, "absent.npy"), dst], 1, "cannot open: No such file or directory"),
        (["reduce", "--function", "nope", "--axes", "0", src, dst], 2, "--function"),
        (["argmax", src, dst], 2, "give the axes to reduce with --axes"),
        (["cumsum", "--axis", "0", bad, dst], 1, "bad.npy"),
        (["cumsum", "--axis", "0", src, work], 1, "cannot write: it is a directory"),
        (["frobnicate"], 2, "unknown command 'frobnicate'"),
    ]
    failures = []
    for args, want_code, want_text in cases:
        code, out, err = run(tool, args)
        lines = err.splitlines()
        ok = (code == want_code and out == "" and len(lines) == 1 and lines[0].startswith("vkdml: error: ")
              and want_text in lines[0] and not os.path.exists(dst))
        if not ok:
            failures.append(f"error case vkdml {' '.join(args)}: exit {code} (want {want_code}), "
                            f"stdout {out!r}, stderr {err!r} (want {want_text!r})")
    return failures, len(cases)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("tool", nargs="+", help="the command that runs vkdml")
    options = parser.parse_args()
    rng = np.random.default_rng(options.seed)
    failures = []
    with tempfile.TemporaryDirectory(prefix="vkdml_numpy_check_") as work:
        for i in range(options.cases):
            problem = check_case(options.tool, rng, work, i)
            if problem:
                failures.append(problem)
        error_failures, error_cases = check_errors(options.tool, work)
        failures += error_failures
    for problem in failures:
        print("numpy_check: FAILED " + problem, file=sys.stderr)
    print(f"numpy_check: {options.cases - (len(failures) - len(error_failures))}/{options.cases} random cases "
          f"and {error_cases - len(error_failures)}/{error_cases} error cases agree with NumPy {np.__version__}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
