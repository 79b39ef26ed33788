#!/usr/bin/env python3
"""Times vkdml's Python module against numpy in one run: the call overhead of a 1K-element cumsum, and
the throughput of a 64M-element float32 cumsum and sum, with each result's relative error against a
float64 (or longdouble) reference; the same on vkdml.Arrays (the data on the device, each call timed to
its completion) and a cumsum feeding a sum; and the repeated calls under the default cache against an
unlimited one. Prints Markdown tables (the README's Python numbers).

    PYTHONPATH=build/dev/python /usr/bin/python3 tools/bench_python.py [--elements N] [--repeat R]
"""

import argparse
import time

import numpy as np

import vkdml


def timed(fn, repeat):
    """Minimum and median seconds of `repeat` calls, after one warm-up call (which compiles)."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), float(np.median(times))


def rel_err(got, want):
    want = np.asarray(want, dtype=np.float64)
    return float(np.max(np.abs(np.asarray(got, dtype=np.float64) - want)) / np.max(np.abs(want)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elements", type=int, default=1 << 26, help="throughput size (default 64M)")
    parser.add_argument("--small", type=int, default=1024, help="overhead size (default 1K)")
    parser.add_argument("--repeat", type=int, default=10, help="timed calls of the throughput cases")
    parser.add_argument("--device", default="", help="device selector (default: the best device)")
    args = parser.parse_args()
    dev = vkdml.Device(args.device)
    print(f"device: {dev.name}; numpy {np.__version__}; vkdml {vkdml.__version__}")

    rows = []
    small = np.random.default_rng(0).random(args.small, dtype=np.float32)
    v = timed(lambda: vkdml.cumsum(small, 0, device=dev), 200)
    n = timed(lambda: np.cumsum(small), 200)
    rows.append((f"cumsum {args.small} float32: call overhead", v, n, None, None, small.nbytes * 2))

    rng = np.random.default_rng(1)
    x = rng.random(args.elements, dtype=np.float32)
    exact = np.cumsum(x, dtype=np.float64)  # float64 has 29 bits to spare over float32: the reference
    got_v, got_n = vkdml.cumsum(x, 0, device=dev), np.cumsum(x)
    v = timed(lambda: vkdml.cumsum(x, 0, device=dev), args.repeat)
    n = timed(lambda: np.cumsum(x), args.repeat)
    rows.append((f"cumsum {args.elements} float32", v, n, rel_err(got_v, exact), rel_err(got_n, exact), x.nbytes * 2))
    del got_v, got_n, exact

    total = np.sum(x, dtype=np.longdouble)
    v = timed(lambda: vkdml.sum(x, device=dev), args.repeat)
    n = timed(lambda: np.sum(x), args.repeat)
    rows.append((f"sum {args.elements} float32", v, n, rel_err(vkdml.sum(x, device=dev), total),
                 rel_err(np.sum(x), total), x.nbytes))

    xa = vkdml.asarray(x, device=dev)
    v = timed(lambda: vkdml.cumsum(xa).wait(), args.repeat)
    n = timed(lambda: np.cumsum(x), args.repeat)
    rows.append((f"cumsum {args.elements} float32, vkdml.Array", v, n, None, None, x.nbytes * 2))
    v = timed(lambda: vkdml.sum(xa).wait(), args.repeat)
    n = timed(lambda: np.sum(x), args.repeat)
    rows.append((f"sum {args.elements} float32, vkdml.Array", v, n, None, None, x.nbytes))
    before = vkdml._native.host_transfers()
    v = timed(lambda: vkdml.sum(vkdml.cumsum(xa)).wait(), args.repeat)
    copies = vkdml._native.host_transfers() - before
    n = timed(lambda: np.sum(np.cumsum(x)), args.repeat)
    rows.append((f"sum(cumsum) {args.elements} float32, vkdml.Array", v, n, None, None, x.nbytes * 3))
    del xa

    # The repeated calls under the default cache and under an unlimited one, alternating.
    def repeated():
        vkdml.cumsum(x, 0, device=dev)
        vkdml.sum(x, device=dev)

    cache_rows = []
    start = dev.cache_info()
    default_limits = (start["max_entries"], start["max_bytes"])
    for limits in (default_limits, (1 << 20, 1 << 50), default_limits, (1 << 20, 1 << 50)):
        dev.set_cache_limits(*limits)
        cache_rows.append((limits, timed(repeated, args.repeat)))
    dev.set_cache_limits()
    done = dev.cache_info()

    print()
    print("| case | vkdml ms (min / median) | numpy ms (min / median) | vkdml / numpy time | vkdml GB/s | "
          "vkdml rel err | numpy rel err |")
    print("|---|---|---|---|---|---|---|")
    for name, (vmin, vmed), (nmin, nmed), verr, nerr, nbytes in rows:
        err = lambda e: "-" if e is None else f"{e:.1e}"  # noqa: E731
        print(f"| {name} | {vmin * 1e3:.3f} / {vmed * 1e3:.3f} | {nmin * 1e3:.3f} / {nmed * 1e3:.3f} | "
              f"{vmin / nmin:.2f} | {nbytes / vmin / 1e9:.2f} | {err(verr)} | {err(nerr)} |")
    print()
    print("GB/s: bytes read and written (a cumsum reads and writes its array, a sum reads it) over the "
          "minimum time; each call on a numpy array copies it into the device's buffers and the result out; "
          f"on vkdml.Arrays nothing is copied (the sum of the cumsum: {copies} host copies in "
          f"{args.repeat + 1} chains).")
    print()
    print("| cumsum then sum, numpy arrays | ms (min / median) | / unlimited |")
    print("|---|---|---|")
    best = min(t[0] for limits, t in cache_rows if limits != default_limits)
    for limits, (tmin, tmed) in cache_rows:
        name = "default cache" if limits == default_limits else "unlimited cache"
        print(f"| {name} | {tmin * 1e3:.3f} / {tmed * 1e3:.3f} | {tmin / best:.2f} |")
    print()
    print(f"Over these {4 * (args.repeat + 1)} repetitions: {done['compiles'] - start['compiles']} compiles, "
          f"{done['allocations'] - start['allocations']} buffer allocations (default limits: "
          f"{default_limits[0]} operators, {default_limits[1] >> 20} MiB of idle buffers).")


if __name__ == "__main__":
    main()
