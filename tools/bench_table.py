#!/usr/bin/env python3
"""The README's benchmark table from a `vkdml bench --json` file (Markdown, on standard output).

usage: python3 tools/bench_table.py docs/bench-lavapipe.json
"""
import json
import sys


def number(x, digits):
    return "-" if x is None else f"{x:.{digits}f}"


def row(r):
    shape = "x".join(str(s) for s in r["shape"])
    axes = ",".join(str(a) for a in r["axes"])
    if r.get("ratio_to_copy") is not None:
        baseline, ratio = number(r.get("copy_gbps"), 2), f"**{r['ratio_to_copy']:.2f}**"
    else:
        baseline, ratio = "-", f"**{r['ratio_to_submit']:.2f}s**"
    err = "-" if r.get("max_rel_err") is None else f"{r['max_rel_err']:.1e}"
    return (f"| `{r['case']}` | {r['dtype']} | {shape} | {axes} | {r['bytes'] / 1e6:.2f} | "
            f"{r['median_ms']:.3f} | {r['gbps']:.2f} | {baseline} | {ratio} | {number(r.get('cpu_gbps'), 2)} | "
            f"{err} |")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1], encoding="utf-8") as f:
        results = json.load(f)["results"]
    print("| case | dtype | shape | axes | MB | median ms | GB/s | baseline GB/s | ratio | CPU loop GB/s | rel err |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(row(r))


if __name__ == "__main__":
    main()
