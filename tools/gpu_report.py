#!/usr/bin/env python3
"""One report of a tools/gpu_check.sh run: the test runs, vkdml's benchmark and, when it ran, PyTorch's.

Reads the JSON of `vkdml bench --json` (and of tools/bench_torch.py --json, same layout) and the test
outcomes, and writes a JSON report and a Markdown table with a row per case: vkdml GB/s, its ratio to the
same run's copy/read baseline, torch GB/s and vkdml/torch (above 1: vkdml is faster).

The GPU time of each pass (`vkdml bench --passes`) is listed per case, with the GB/s of the bytes its
bindings span (the bench's pass_bytes) and the chained scan's look-back fallbacks over its tiles where the
case has one, and with --failures (the Catch2
output of the failing test shards that tools/gpu_check.sh collects) the failing test cases and their first
failing case lines. With --baseline, --ab-old and --ab-new (bench JSONs of an earlier build and of this one,
run alternately on the same machine), a table of each case's minimum time in either build and old/new.
With --tune-default and --tune (bench JSONs of the untuned build and of tunings of its policy rows, each
naming its tuning under "device"; tools/gpu_check.sh names them tune-I-ROUND.json, I the tuning's line),
the sweep: the tuning faster than untuned by the most for each case, then every tuning's cases,
untuned/tuned (above 1: the tuning is faster; a case whose check failed has no time); --tune-skipped and
--tune-failed name the tunings that did not run (the sweep's budget was spent) or whose bench failed.

usage: python3 tools/gpu_report.py --vkdml FILE [--torch FILE | --torch-skipped WHY]
           [--test NAME=STATUS]... [--failures FILE]
           [--baseline NAME --ab-old FILE... --ab-new FILE...]
           [--tune-default FILE... --tune FILE... --tune-skipped KNOBS... --tune-failed KNOBS...]
           --json OUT.json --markdown OUT.md
"""
import argparse
import json
import re
import sys

RULE = "-" * 79
SHARD = re.compile(r"^===== shard (\S+) \(exit (\d+)\)")
DONE = re.compile(r"^[0-9.]+ s: (.+)$")  # Catch2's --durations line of a finished test case


def failures(path, limit=60):
    """The failing test cases of a test-failures.txt: [{shard, test, detail}]; for a timed-out shard, the
    test case after the last one that finished (Catch2's --durations lines), with detail 'timed out'."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as error:
        sys.exit(f"gpu_report: cannot read {path}: {error}")
    found, shard, code, test, last_done = [], None, 0, None, None
    seen = set()

    def timed_out():
        name = f"the test case after '{last_done}'" if last_done else "its first test case"
        key = (shard, name, "timed out")
        if key not in seen and len(found) < limit:
            seen.add(key)
            found.append({"shard": shard, "test": name, "detail": "timed out"})

    def add(detail):
        name = test or "(no test case had started)"
        key = (shard, name, detail)
        if key not in seen and len(found) < limit:
            seen.add(key)
            found.append({"shard": shard, "test": name, "detail": detail})

    for i, line in enumerate(lines):
        m = SHARD.match(line)
        if m:
            if shard and code in (124, 137):
                timed_out()
            shard, code, test, last_done = m.group(1), int(m.group(2)), None, None
            continue
        done = DONE.match(line)
        if done:
            last_done = done.group(1)
            continue
        # A test case's header: a rule, its name (one or more lines), a rule.
        if line == RULE and i + 2 < len(lines) and lines[i + 1] and lines[i + 1] != RULE:
            j = i + 1
            name = []
            while j < len(lines) and lines[j] != RULE and len(name) < 4:
                name.append(lines[j].strip())
                j += 1
            if j < len(lines) and lines[j] == RULE:
                test = " ".join(name)
            continue
        if "FAILED" in line and test:
            detail = next((l.strip() for l in lines[i + 1:i + 40] if l.strip().startswith("case:")), line.strip())
            add(detail)
    if shard and code in (124, 137):
        timed_out()
    return found


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as error:
        sys.exit(f"gpu_report: cannot read {path}: {error}")
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        sys.exit(f"gpu_report: {path} is not a bench JSON (no \"results\" list)")
    return data


def device_line(device):
    if not device:
        return "unknown device"
    parts = [str(device.get("name", "?"))]
    for key in ("driver_info", "driver"):
        if device.get(key):
            parts.append(str(device[key]))
            break
    if device.get("subgroup_size"):
        parts.append(f"subgroup size {device['subgroup_size']}")
    if device.get("rows"):  # the policy rows the bench planned with (Device::policy_rows)
        parts.append(f"{device['rows']} rows" + (f" tuned {device['tuning']}" if device.get("tuning") else ""))
    return ", ".join(parts)


def rows(vkdml, torch):
    by_case = {r["case"]: r for r in (torch or {}).get("results", [])}
    out = []
    for r in vkdml["results"]:
        t = by_case.get(r["case"], {})
        row = {"case": r["case"], "op": r.get("op"), "dtype": r.get("dtype"), "shape": r.get("shape"),
               "vkdml_gbps": r.get("gbps"), "ratio_to_copy": r.get("ratio_to_copy"),
               "ratio_to_submit": r.get("ratio_to_submit"), "check": r.get("check"),
               "torch_gbps": t.get("gbps"), "torch_skipped": t.get("skipped")}
        both = row["vkdml_gbps"] and row["torch_gbps"]
        row["vkdml_over_torch"] = row["vkdml_gbps"] / row["torch_gbps"] if both else None
        row["passes_ms"] = r.get("passes")
        row["pass_bytes"] = r.get("pass_bytes")  # the spans of each pass's bindings, summed
        row["chained_scan"] = r.get("chained_scan")  # {tiles, fallbacks}: the look-back's last run
        out.append(row)
    return out


def ab_rows(old_runs, new_runs):
    """Per case of the first new run: the minimum of min_ms over the baseline's runs and over this build's,
    and old/new (above 1: this build is faster)."""
    out = []
    for r in new_runs[0]["results"]:
        old, new = best_min(old_runs, r["case"]), best_min(new_runs, r["case"])
        out.append({"case": r["case"], "old_min_ms": old, "new_min_ms": new,
                    "old_over_new": old / new if old and new else None})
    return out


def best_min(runs, case):
    """The least min_ms of `case` over the runs, among results whose check passed."""
    times = [r["min_ms"] for run in runs for r in run["results"]
             if r["case"] == case and r.get("min_ms") and r.get("check", "ok") == "ok"]
    return min(times) if times else None


TUNE_FILE = re.compile(r"tune-(\d+)-\d+\.json$")  # tools/gpu_check.sh's name: tuning i of the file, round


def tune_rows(default_runs, tuned):
    """Per tuning (one line of the sweep's file: the runs named tune-I-ROUND.json, else those of one tuning
    text), in the order of its first run, and per case: the untuned build's minimum over its runs, the
    tuning's, and untuned/tuned (a case whose check failed has no time)."""
    by_tuning = {}
    for path, run in tuned:
        m = TUNE_FILE.search(path)
        key = m.group(1) if m else run.get("device", {}).get("tuning")
        by_tuning.setdefault(key, []).append(run)
    out = []
    for runs in by_tuning.values():
        tuning = runs[0].get("device", {}).get("tuning") or "?"
        for r in runs[0]["results"]:
            base, best = best_min(default_runs, r["case"]), best_min(runs, r["case"])
            out.append({"tuning": tuning, "case": r["case"], "default_min_ms": base, "tuned_min_ms": best,
                        "default_over_tuned": base / best if base and best else None})
    return out


def number(x, digits=2):
    return "–" if x is None else f"{x:.{digits}f}"


def markdown(report):
    lines = [f"vkdml on {report['device']}", ""]
    if report["tests"]:
        lines += ["| test run | result |", "|---|---|"]
        lines += [f"| {name} | {status} |" for name, status in report["tests"].items()]
        lines.append("")
    if report["failures"]:
        lines += ["Failing test cases (test-failures.txt has their whole output):", ""]
        lines += [f"- {f['test']} [{f['shard']}]: {f['detail']}" for f in report["failures"]]
        lines.append("")
    torch = report["torch"]
    lines.append(f"PyTorch: {torch['device']}" if torch["ran"] else f"PyTorch: not run ({torch['skipped']})")
    lines += ["", "| case | dtype | shape | vkdml GB/s | ratio to copy | torch GB/s | vkdml/torch |",
              "|---|---|---|---:|---:|---:|---:|"]
    for r in report["cases"]:
        shape = "x".join(str(s) for s in r["shape"] or [])
        ratio = number(r["ratio_to_copy"]) if r["ratio_to_copy"] is not None else (
            f"{number(r['ratio_to_submit'])}× submit" if r["ratio_to_submit"] is not None else "–")
        torch_gbps = number(r["torch_gbps"]) if r["torch_skipped"] is None else "skipped"
        lines.append(f"| {r['case']} | {r['dtype']} | {shape} | {number(r['vkdml_gbps'])} | {ratio} | "
                     f"{torch_gbps} | {number(r['vkdml_over_torch'])} |")
    ab = report.get("ab")
    if ab:
        lines += ["", f"A/B against {ab['baseline']} in this run (old, new, old, new; the minimum of each):", "",
                  "| case | baseline min ms | this build min ms | old/new |", "|---|---:|---:|---:|"]
        lines += [f"| {r['case']} | {number(r['old_min_ms'], 3)} | {number(r['new_min_ms'], 3)} | "
                  f"{number(r['old_over_new'])} |" for r in ab["cases"]]
    tune = report.get("tuning")
    if tune and tune["cases"]:
        lines += ["", "Tuning sweep (the untuned build on every case, then each tuning on its cases, in two "
                  "rounds; the minimum of each; untuned/tuned above 1: the tuning is faster).", ""]
        best = {}
        for r in tune["cases"]:
            b = best.setdefault(r["case"], {"default_min_ms": r["default_min_ms"], "tuning": None,
                                              "tuned_min_ms": None, "default_over_tuned": None})
            if r["default_over_tuned"] and r["default_over_tuned"] > max(1, b["default_over_tuned"] or 0):
                b.update(r)
        lines += ["| case | untuned min ms | best tuning | its min ms | untuned/tuned |", "|---|---:|---|---:|---:|"]
        lines += [f"| {case} | {number(r['default_min_ms'], 3)} | {r['tuning'] or 'none faster'} | "
                  f"{number(r['tuned_min_ms'], 3)} | {number(r['default_over_tuned'])} |" for case, r in best.items()]
        lines += ["", "| tuning | case | untuned min ms | tuned min ms | untuned/tuned |", "|---|---|---:|---:|---:|"]
        lines += [f"| {r['tuning']} | {r['case']} | {number(r['default_min_ms'], 3)} | "
                  f"{number(r['tuned_min_ms'], 3)} | {number(r['default_over_tuned'])} |" for r in tune["cases"]]
    for key, heading in (("skipped", "Tunings not run (the sweep's budget was spent)"),
                         ("failed", "Tunings whose bench failed")):
        if tune and tune[key]:
            lines += ["", f"{heading}: " + "; ".join(tune[key])]
    timed = [r for r in report["cases"] if r["passes_ms"]]
    if timed:
        lines += ["", "GPU time of each pass (medians), and the bytes its bindings span over that time:", ""]
        for r in timed:
            chained = r["chained_scan"]
            tail = (f" (look-back fallbacks {chained['fallbacks']} over {chained['tiles']} tiles)"
                    if chained else "")
            spans = r["pass_bytes"] or []
            lines.append(f"- {r['case']}: " + ", ".join(
                f"{ms:.3f} ms" + (f" ({spans[p] / ms / 1e6:.1f} GB/s)" if p < len(spans) and ms > 0 else "")
                for p, ms in enumerate(r["passes_ms"])) + tail)
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vkdml", required=True, metavar="FILE")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--torch", metavar="FILE")
    group.add_argument("--torch-skipped", metavar="WHY")
    parser.add_argument("--test", action="append", default=[], metavar="NAME=STATUS")
    parser.add_argument("--failures", metavar="FILE")
    parser.add_argument("--baseline", metavar="NAME", help="the A/B's baseline build (its commit)")
    parser.add_argument("--ab-old", action="append", default=[], metavar="FILE", help="a baseline bench JSON")
    parser.add_argument("--ab-new", action="append", default=[], metavar="FILE", help="this build's, same cases")
    parser.add_argument("--tune-default", action="append", default=[], metavar="FILE",
                        help="an untuned bench JSON of the sweep")
    parser.add_argument("--tune", action="append", default=[], metavar="FILE", help="a tuned bench JSON")
    parser.add_argument("--tune-skipped", action="append", default=[], metavar="KNOBS")
    parser.add_argument("--tune-failed", action="append", default=[], metavar="KNOBS")
    parser.add_argument("--json", required=True, metavar="OUT")
    parser.add_argument("--markdown", required=True, metavar="OUT")
    args = parser.parse_args()

    tests = {}
    for item in args.test:
        name, sep, status = item.partition("=")
        if not sep or not name:
            parser.error(f"--test expects NAME=STATUS, got '{item}'")
        tests[name] = status
    if bool(args.ab_old) != bool(args.ab_new) or (args.ab_old and not args.baseline):
        parser.error("an A/B needs --baseline and at least one --ab-old and one --ab-new")
    vkdml = load(args.vkdml)
    torch = load(args.torch) if args.torch else None
    report = {
        "device": device_line(vkdml.get("device")),
        "vkdml_device": vkdml.get("device"),
        "suite": vkdml.get("suite"),
        "tests": tests,
        "torch": {"ran": torch is not None,
                  "device": device_line(torch.get("device")) if torch else None,
                  "skipped": None if torch else (args.torch_skipped or "no --torch given")},
        "failures": failures(args.failures) if args.failures else [],
        "cases": rows(vkdml, torch),
    }
    if args.ab_old:
        report["ab"] = {"baseline": args.baseline,
                        "cases": ab_rows([load(p) for p in args.ab_old], [load(p) for p in args.ab_new])}
    if args.tune_default or args.tune or args.tune_skipped or args.tune_failed:
        report["tuning"] = {"cases": tune_rows([load(p) for p in args.tune_default],
                                               [(p, load(p)) for p in args.tune]),
                            "skipped": args.tune_skipped, "failed": args.tune_failed}
    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    with open(args.markdown, "w", encoding="utf-8") as f:
        f.write(markdown(report))


if __name__ == "__main__":
    main()
