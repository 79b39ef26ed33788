#!/usr/bin/env python3
"""The cases of `vkdml bench` in PyTorch on CUDA, for comparison with vkdml on the same GPU.

Same case names, shapes, axes, dtypes and byte counts (scans: input + output bytes; reductions: input
bytes), timed with CUDA events: 2 warm-up runs, then the median (and min/max) of N runs. Each case's
baseline is measured just before it on the same bytes: a copy (tensor.copy_, bytes read + written) for
scans, a read (torch.sum over the same bytes viewed as float32) for reductions. Writes the JSON layout of
`vkdml bench --json`, with "device" describing the CUDA device.

usage: python3 tools/bench_torch.py [--suite quick|default|full] [--case NAME]... [--json FILE] [--repeat N]
"""
import argparse
import json
import statistics
import sys

M = 1 << 20
BIG = 64 * M

# (name, op, dtype, shape, axis): the default suite, as in tools/bench/bench_cases.cpp.
DEFAULT_CASES = [
    ("scan-1d", "cumsum", "float32", [BIG], 0),
    ("scan-rows-short", "cumsum", "float32", [M, 16], 1),
    ("scan-rows-medium", "cumsum", "float32", [16384, 1024], 1),
    ("scan-outer", "cumsum", "float32", [4096, 4096], 0),
    ("scan-outer-narrow", "cumsum", "float32", [M, 2], 0),
    ("cumprod-1d", "cumprod", "float32", [BIG], 0),
    ("reduce-1d", "reduce-sum", "float32", [BIG], 0),
    ("reduce-inner", "reduce-sum", "float32", [4096, 4096], 1),
    ("reduce-outer", "reduce-sum", "float32", [4096, 4096], 0),
    ("reduce-few-huge", "reduce-sum", "float32", [4, 16 * M], 1),
    ("reduce-many-tiny", "reduce-sum", "float32", [M, 3], 1),
    ("argmax-1d", "argmax", "float32", [BIG], 0),
    ("logsumexp-1d", "logsumexp", "float32", [BIG], 0),
    ("cummax-1d", "cummax", "float32", [BIG], 0),
    ("cummax-indices-1d", "cummax-indices", "float32", [BIG], 0),
    ("logcumsumexp-1d", "logcumsumexp", "float32", [BIG], 0),
    ("variance-1d", "variance", "float32", [BIG], 0),
    ("variance-outer", "variance", "float32", [4096, 4096], 0),
    ("any-1d", "any", "float32", [BIG], 0),
    ("count-nonzero-1d", "count-nonzero", "float32", [BIG], 0),
    ("scan-1d-f16", "cumsum", "float16", [BIG], 0),
    ("scan-1d-i32", "cumsum", "int32", [BIG], 0),
    ("scan-1d-i64", "cumsum", "int64", [BIG], 0),
    ("scan-1d-f64", "cumsum", "float64", [BIG], 0),
    ("reduce-1d-f16", "reduce-sum", "float16", [BIG], 0),
    ("reduce-1d-i32", "reduce-sum", "int32", [BIG], 0),
    ("reduce-1d-i64", "reduce-sum", "int64", [BIG], 0),
    ("reduce-1d-f64", "reduce-sum", "float64", [BIG], 0),
]
SHORT = {"int8": "i8", "uint8": "u8", "int16": "i16", "uint16": "u16", "uint32": "u32", "uint64": "u64"}
FULL_EXTRA = []
for _dtype in ["int8", "uint8", "int16", "uint16", "uint32", "uint64"]:
    FULL_EXTRA.append(("scan-1d-" + SHORT[_dtype], "cumsum", _dtype, [BIG], 0))
    FULL_EXTRA.append(("reduce-1d-" + SHORT[_dtype], "reduce-sum", _dtype, [BIG], 0))
FULL_EXTRA += [("cumprod-1d-f16", "cumprod", "float16", [BIG], 0),
               ("argmax-1d-f16", "argmax", "float16", [BIG], 0)]
HOST_CASE = ("host-cumsum-1k", "host-cumsum", "float32", [1024], 0)

SIZES = {"float16": 2, "float32": 4, "float64": 8, "int8": 1, "uint8": 1, "int16": 2, "uint16": 2,
         "int32": 4, "uint32": 4, "int64": 8, "uint64": 8}


def quick(case):
    """The case at 1/16 of its elements (largest dimension divided by 16)."""
    name, op, dtype, shape, axis = case
    shape = list(shape)
    i = shape.index(max(shape))
    shape[i] = max(1, shape[i] // 16)
    return (name, op, dtype, shape, axis)


def suite_cases(suite):
    cases = list(DEFAULT_CASES) + (FULL_EXTRA if suite == "full" else [])
    if suite == "quick":
        cases = [quick(c) for c in cases]
    return cases + [HOST_CASE]


def all_cases(suite):
    """Every case of the full table at the suite's scale (what --case chooses from)."""
    cases = list(DEFAULT_CASES) + FULL_EXTRA
    if suite == "quick":
        cases = [quick(c) for c in cases]
    return cases + [HOST_CASE]


def useful_bytes(op, dtype, shape):
    n = 1
    for s in shape:
        n *= s
    bytes_in = n * SIZES[dtype]
    if op == "cummax-indices":
        return 2 * bytes_in + 8 * n  # and the int64 indices
    return 2 * bytes_in if op in ("cumsum", "cumprod", "cummax", "logcumsumexp", "host-cumsum") else bytes_in


def time_cuda(torch, fn, repeat):
    """2 warm-up runs, then `repeat` runs timed with CUDA events: sorted list of ms."""
    for _ in range(2):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)


def make_input(torch, op, dtype, shape):
    """Data like vkdml bench's: floats in [0,1) (float16: -1, 0, 1), products near 1, integers 0..3."""
    g = torch.Generator(device="cuda")
    g.manual_seed(1234)
    t = getattr(torch, dtype)
    if dtype == "float16":
        x = torch.randint(-1, 2, shape, generator=g, device="cuda").to(t)
        return 1 + x * 2.0 ** -10 if op == "cumprod" else x
    if dtype in ("float32", "float64"):
        x = torch.rand(shape, generator=g, device="cuda", dtype=t)
        return 1 + (x - 0.5) * 2.0 ** -12 if op == "cumprod" else x
    return torch.randint(0, 4, shape, generator=g, device="cuda").to(t)


def operation(torch, op, x, axis):
    # dtype=x.dtype: the output keeps the input's type (torch would widen integers to int64 otherwise).
    if op in ("cumsum", "host-cumsum"):
        return lambda: torch.cumsum(x, dim=axis, dtype=x.dtype)
    if op == "cumprod":
        return lambda: torch.cumprod(x, dim=axis, dtype=x.dtype)
    if op == "reduce-sum":
        return lambda: torch.sum(x, dim=axis, keepdim=True, dtype=x.dtype)
    if op == "argmax":
        return lambda: torch.argmax(x, dim=axis, keepdim=True)
    if op == "logsumexp":
        return lambda: torch.logsumexp(x, dim=axis, keepdim=True)
    if op == "cummax":
        return lambda: torch.cummax(x, dim=axis).values
    if op == "cummax-indices":
        return lambda: torch.cummax(x, dim=axis)
    if op == "logcumsumexp":
        return lambda: torch.logcumsumexp(x, dim=axis)
    if op == "variance":
        return lambda: torch.var(x, dim=axis, keepdim=True, correction=0)
    if op == "any":
        return lambda: torch.any(x, dim=axis, keepdim=True)
    if op == "count-nonzero":
        return lambda: torch.count_nonzero(x, dim=axis)
    raise ValueError(op)


def baseline_gbps(torch, kind, nbytes, repeat, cache):
    """GB/s of a copy (bytes read + written) or a read (bytes read) over nbytes bytes, cached per run."""
    key = (kind, nbytes)
    if key not in cache:
        src = torch.zeros(nbytes // 4, dtype=torch.float32, device="cuda")
        if kind == "copy":
            dst = torch.empty_like(src)
            ms = statistics.median(time_cuda(torch, lambda: dst.copy_(src), repeat))
            cache[key] = 2 * nbytes / (ms * 1e-3) / 1e9
        else:
            ms = statistics.median(time_cuda(torch, lambda: torch.sum(src), repeat))
            cache[key] = nbytes / (ms * 1e-3) / 1e9
        del src
        torch.cuda.empty_cache()
    return cache[key]


def run_case(torch, case, repeat, cache):
    name, op, dtype, shape, axis = case
    nbytes = useful_bytes(op, dtype, shape)
    result = {"case": name, "op": op, "dtype": dtype, "shape": shape, "axes": [axis], "bytes": nbytes}
    try:
        x = make_input(torch, op, dtype, shape)
        fn = operation(torch, op, x, axis)
        if op == "host-cumsum":
            # The equivalent of vkdml's HostExecution::run(): upload, compute, download, synchronize.
            import time
            host = x.cpu()
            walls = []
            for i in range(205):
                t0 = time.perf_counter()
                torch.cumsum(host.to("cuda"), dim=0).cpu()
                if i >= 5:
                    walls.append((time.perf_counter() - t0) * 1e3)
            subs = []
            for i in range(205):
                t0 = time.perf_counter()
                torch.cuda.synchronize()
                if i >= 5:
                    subs.append((time.perf_counter() - t0) * 1e3)
            walls.sort()
            med, sub = statistics.median(walls), statistics.median(subs)
            result.update({"median_ms": med, "min_ms": walls[0], "max_ms": walls[-1],
                           "gbps": nbytes / (med * 1e-3) / 1e9, "submit_ms": sub,
                           "ratio_to_submit": med / sub if sub > 0 else None, "cpu_gbps": None,
                           "baseline": "submit", "timing": "wall", "check": "ok"})
            return result
        kind = "copy" if op in ("cumsum", "cumprod") else "read"
        base = baseline_gbps(torch, kind, x.numel() * x.element_size(), repeat, cache)
        times = time_cuda(torch, fn, repeat)
        med = statistics.median(times)
        gbps = nbytes / (med * 1e-3) / 1e9
        result.update({"median_ms": med, "min_ms": times[0], "max_ms": times[-1], "gbps": gbps,
                       "copy_gbps": base, "ratio_to_copy": gbps / base, "cpu_gbps": None,
                       "baseline": kind, "timing": "gpu", "check": "ok"})
    except (RuntimeError, AttributeError, TypeError) as error:  # a dtype torch lacks or an op lacks, OOM
        result["skipped"] = str(error).splitlines()[0]
    finally:
        torch.cuda.empty_cache()
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="default", choices=["quick", "default", "full"])
    parser.add_argument("--case", action="append", default=[], metavar="NAME")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--repeat", type=int)
    args = parser.parse_args()
    repeat = args.repeat if args.repeat is not None else (5 if args.suite == "quick" else 10)
    if repeat < 1:
        parser.error("--repeat expects a positive integer")
    cases = suite_cases(args.suite)
    if args.case:
        table = {c[0]: c for c in all_cases(args.suite)}
        unknown = [n for n in args.case if n not in table]
        if unknown:
            parser.error("unknown case '%s'; the cases are: %s" % (unknown[0], ", ".join(table)))
        cases = [table[n] for n in dict.fromkeys(args.case)]

    import torch  # only now, so that --help and argument errors work without it
    if not torch.cuda.is_available():
        sys.exit("bench_torch.py: error: no CUDA device")
    props = torch.cuda.get_device_properties(0)
    device = {"name": props.name, "driver": "CUDA", "driver_info": "torch %s, CUDA %s" % (
        torch.__version__, torch.version.cuda), "type": "discrete", "subgroup_size": 32,
        "vulkan": None}
    print("device: %s, %s" % (device["name"], device["driver_info"]))
    results, cache = [], {}
    for i, case in enumerate(cases):
        print("[%d/%d] %s ..." % (i + 1, len(cases), case[0]), file=sys.stderr)
        r = run_case(torch, case, repeat, cache)
        results.append(r)
        if "skipped" in r:
            print("%-18s skipped: %s" % (r["case"], r["skipped"]))
        else:
            ratio = r.get("ratio_to_copy", r.get("ratio_to_submit"))
            print("%-18s %-13s %-8s %10.3f ms %8.2f GB/s  ratio %.2f" % (
                r["case"], r["op"], r["dtype"], r["median_ms"], r["gbps"], ratio or float("nan")))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "suite": args.suite, "repeat": repeat, "results": results}, f,
                      indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
