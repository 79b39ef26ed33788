#!/usr/bin/env bash
# ctest gpu-check: tools/gpu_check.sh as a lent GPU machine runs it, on this build's device (lavapipe in
# CI) and kept short: --prepare makes the kit (stripped programs and the .debs, downloaded from Debian's
# archive), then a run from the kit unpacks every .deb (VKDML_GPU_CHECK_UNPACK=all: the loader, glvnd and
# the validation layer the lent machine lacks) and runs the SPEC examples in shards with each kernel
# family, the chained scan's stress test (short form), the determinism corpus's first 12 cases with each
# family (VKDML_GOLDEN_LIMIT), two quick benchmark cases with their pass times, one
# timed run; its report is read back.
# usage: gpu_check_test.sh SOURCE_DIR BUILD_DIR OUT_DIR
set -euo pipefail
source_dir=$1 build_dir=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
# Bad input: each refusal names what is wrong (exit 2: an argument; exit 1: a missing build or kit).
refused() {
  local want=$1 text=$2 code=0
  shift 2
  msg=$(bash "$source_dir/tools/gpu_check.sh" "$@" 2>&1 >/dev/null) || code=$?
  [ "$code" -eq "$want" ] && [[ "$msg" == *"$text"* ]] ||
    { echo "gpu_check_test: '$*' gave exit $code and '$msg'" >&2; exit 1; }
}
refused 2 "unknown argument '--bogus'" --bogus
refused 2 "'0' is not a positive whole number" --shard-timeout 0
refused 2 "--stress is full, short or none, not 'long'" --stress long
refused 2 "give --kit or --build, not both" --kit "$out/kit" --build "$build_dir"
refused 1 "$out/no-build has no tools/vkdml" --build "$out/no-build"
refused 1 "$out/no-kit is not a kit (run tools/gpu_check.sh --prepare)" --kit "$out/no-kit"
refused 1 "$out/no-build has no tools/vkdml or bin/vkdml" --baseline "$out/no-build"
# A sweep's file is checked before anything runs: each tuning by `vkdml plan --tune`, each case by the bench.
printf 'cases reduce-many-tiny\n# a comment\nreduce.tree_max_items=8\nscan.tile_workgroup=48\n' >"$out/bad-knob.txt"
refused 2 "--tune: $out/bad-knob.txt:4: option '--tune': tuning: scan.tile_workgroup is 48: it takes a power of two" \
  --build "$build_dir" --tune "$out/bad-knob.txt"
printf 'scan.chained=0 scan-1d scan-9d\n' >"$out/bad-case.txt"
refused 2 "--tune: $out/bad-case.txt:1: unknown case 'scan-9d'" --build "$build_dir" --tune "$out/bad-case.txt"
printf 'scan.chained=0\n' >"$out/no-case.txt"
refused 2 "--tune: $out/no-case.txt:1: no cases (name them, or a 'cases' line before)" --build "$build_dir" \
  --tune "$out/no-case.txt"
refused 2 "--tune: cannot read $out/none.txt" --build "$build_dir" --tune "$out/none.txt"
refused 2 "'0' is not a positive whole number" --tune-budget 0
refused 2 "--no-bench runs nothing without --tune" --no-bench

# This build stands in for an earlier commit's as the A/B's baseline.
bash "$source_dir/tools/gpu_check.sh" --prepare --build "$build_dir" --kit "$out/kit" --baseline "$build_dir"
for f in bin/vkdml bin/vkdml_tests lib/libvkdml.so manifest.txt baseline/bin/vkdml baseline/lib/libvkdml.so \
  baseline/commit.txt; do
  [ -e "$out/kit/$f" ] || { echo "gpu_check_test: the kit has no $f" >&2; exit 1; }
done
for deb in libvulkan1 libglvnd0 libgl1 libglx0 libegl1 libgles2 libopengl0 vulkan-validationlayers; do
  compgen -G "$out/kit/debs/${deb}_*.deb" >/dev/null || { echo "gpu_check_test: the kit has no $deb .deb" >&2; exit 1; }
done
kit_mib=$(du -sm "$out/kit" | cut -f1)
[ "$kit_mib" -lt 64 ] || { echo "gpu_check_test: the kit is $kit_mib MiB, more than a lent machine is carried" >&2; exit 1; }

VKDML_GOLDEN_LIMIT=12 VKDML_GPU_CHECK_UNPACK=all TMPDIR="$out/tmp" bash "$source_dir/tools/gpu_check.sh" --kit "$out/kit" \
  --out "$out/report" --work "$out/work" --suite quick --case scan-1d --case reduce-many-tiny --repeat 1 \
  --tests "[spec]" --jobs 2 --shard-timeout 240 --stress short --stress-timeout 240 2>"$out/run.log" || { cat "$out/run.log" >&2; exit 1; }
grep -q "unpacked into $out/tmp/vkdml-gpu-root: .*libvulkan1.*vulkan-validationlayers" "$out/run.log" ||
  { echo "gpu_check_test: the run did not unpack the kit's .debs:" >&2; cat "$out/run.log" >&2; exit 1; }
report=$out/report/gpu_check.md
expect() {
  grep -qE "$1" "$report" || { echo "gpu_check_test: no line matching '$1' in $report" >&2; cat "$report" >&2; exit 1; }
}
# The device line names the policy rows the bench planned with (Device::policy_rows).
expect '^vkdml on .+, subgroup size [0-9]+, (serial|cooperative)-(cpu|gpu) rows$'
expect '^\| cooperative kernels, \[spec\] \| ([0-9]+) of \1 shards passed \|$'
expect '^\| serial kernels, \[spec\] \| ([0-9]+) of \1 shards passed \|$'
expect '^\| chained scan stress, short \| passed \|$'
expect '^\| determinism corpus, cooperative kernels \| passed: 12 cases, 0 differing \([0-9.]+ s\) \|$'
expect '^\| determinism corpus, serial kernels \| passed: 12 cases, 0 differing \([0-9.]+ s\) \|$'
grep -q '^== cooperative kernels (exit 0)$' "$out/report/golden.txt" ||
  { echo "gpu_check_test: golden.txt has no cooperative section:" >&2; cat "$out/report/golden.txt" >&2; exit 1; }
expect '^\| scan-1d \| float32 \| 4194304 \| [0-9.]+ \| [0-9.]+ \| – \| – \|$'
expect '^\| reduce-many-tiny \| float32 \| 65536x3 \| [0-9.]+ \| [0-9.]+ \| – \| – \|$'
expect '^PyTorch: not run \(.+\)$'
expect '^- scan-1d: [0-9.]+ ms \([0-9.]+ GB/s\)(, [0-9.]+ ms \([0-9.]+ GB/s\))*$'
# The A/B against the kit's baseline: a row per case, each build's minimum and old/new.
expect '^A/B against [^ ]+ in this run \(old, new, old, new; the minimum of each\):$'
expect '^\| scan-1d \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$'
expect '^\| reduce-many-tiny \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$'
[ "$(grep -c '^| ' "$report")" -eq 12 ] || { echo "gpu_check_test: expected 12 table rows in $report" >&2; exit 1; }
files=$(ls "$out/report" | wc -l)
[ "$files" -le 8 ] || { echo "gpu_check_test: $files report files, more than the 8 a lent machine's run returns" >&2; exit 1; }
# The logs: every shard's log and exit status, the stress and corpus logs, the benchmarks' output.
tar -tzf "$out/report/logs.tar.gz" >"$out/logs.txt"
for f in bench.txt stress.log golden-cooperative.log golden-serial.log shards/cooperative-000.log shards/serial-000.rc \
  ab-old-1.json ab-new-2.json; do
  grep -qx "$f" "$out/logs.txt" || { echo "gpu_check_test: logs.tar.gz has no $f" >&2; cat "$out/logs.txt" >&2; exit 1; }
done
[ ! -s "$out/report/test-failures.txt" ] || { echo "gpu_check_test: test-failures.txt is not empty" >&2; exit 1; }
/usr/bin/env python3 - "$out/report/gpu_check.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert [c["case"] for c in report["cases"]] == ["scan-1d", "reduce-many-tiny"], report["cases"]
assert all(c["vkdml_gbps"] > 0 and c["check"] == "ok" for c in report["cases"]), report["cases"]
assert all(c["passes_ms"] and all(ms > 0 for ms in c["passes_ms"]) for c in report["cases"]), report["cases"]
assert report["torch"]["ran"] is False and report["torch"]["skipped"], report["torch"]
assert len(report["tests"]) == 5 and report["failures"] == [], (report["tests"], report["failures"])
assert report["tests"]["chained scan stress, short"] == "passed", report["tests"]
ab = report["ab"]["cases"]
assert [c["case"] for c in ab] == ["scan-1d", "reduce-many-tiny"], ab
assert all(c["old_min_ms"] > 0 and c["new_min_ms"] > 0 and c["old_over_new"] > 0 for c in ab), ab
PY

# A test budget too small to start any shard: every shard reported as not run, and the run fails. With a
# sweep of two tunings (VKDML_TOOL_TUNE), each against the untuned build, two rounds, in the report.
printf '# two tunings of the rows a reduction of short rows takes\ncases reduce-many-tiny\n' >"$out/tunings.txt"
printf 'reduce.serial_max_len=64,reduce.serial_min_len=16\nreduce.row_block_vectors=1 reduce-many-tiny\n' >>"$out/tunings.txt"
code=0
TMPDIR="$out/tmp" bash "$source_dir/tools/gpu_check.sh" --kit "$out/kit" --out "$out/budget" --work "$out/work" \
  --suite quick --case reduce-many-tiny --repeat 1 --tests "[spec]" --jobs 2 --tests-budget 5 --stress none --no-golden \
  --tune "$out/tunings.txt" --tune-budget 200 2>/dev/null >/dev/null || code=$?
[ "$code" -eq 1 ] || { echo "gpu_check_test: a spent test budget gave exit $code" >&2; exit 1; }
report=$out/budget/gpu_check.md
expect '^Tuning sweep \(the untuned build on every case, then each tuning on its cases, in two rounds; '
expect '^\| reduce-many-tiny \| [0-9.]+ \| (reduce\.serial_max_len=64,reduce\.serial_min_len=16 \| [0-9.]+ \| [0-9.]+|none faster \| – \| –) \|$'
expect '^\| reduce\.serial_max_len=64,reduce\.serial_min_len=16 \| reduce-many-tiny \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$'
expect '^\| reduce\.row_block_vectors=1 \| reduce-many-tiny \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$'
tar -tzf "$out/budget/logs.tar.gz" >"$out/budget-logs.txt"
grep -qx tune-1-2.json "$out/budget-logs.txt" ||
  { echo "gpu_check_test: logs.tar.gz has no tune-1-2.json (the second tuning's second round)" >&2; exit 1; }
grep -q '^== VKDML_TOOL_TUNE=reduce.row_block_vectors=1 vkdml bench --suite quick --case reduce-many-tiny --repeat 1$' \
  <(tar -xzOf "$out/budget/logs.tar.gz" bench.txt) || { echo "gpu_check_test: bench.txt has no tuned bench" >&2; exit 1; }
/usr/bin/env python3 - "$out/budget/gpu_check.json" <<'PY'
import json, sys
tuning = json.load(open(sys.argv[1]))["tuning"]
assert [(c["tuning"], c["case"]) for c in tuning["cases"]] == [
    ("reduce.serial_max_len=64,reduce.serial_min_len=16", "reduce-many-tiny"),
    ("reduce.row_block_vectors=1", "reduce-many-tiny")], tuning
assert all(c["default_min_ms"] > 0 and c["tuned_min_ms"] > 0 for c in tuning["cases"]), tuning
assert tuning["skipped"] == [] and tuning["failed"] == [], tuning
PY
# A tuning whose bench fails (the CPU rows lavapipe plans with take no serial reduction chunks of at most 100
# positions: its device is refused) is reported so, and fails the run; the others still run. A sweep alone
# (--no-bench, as a lease's second call): the case table is the sweep's untuned run.
printf 'reduce.serial_max_len=100 reduce-many-tiny\nreduce.row_block_vectors=1 reduce-many-tiny\n' >"$out/failing.txt"
code=0
TMPDIR="$out/tmp" bash "$source_dir/tools/gpu_check.sh" --kit "$out/kit" --out "$out/failing" --work "$out/work" \
  --suite quick --repeat 1 --no-tests --stress none --no-golden --no-bench --tune "$out/failing.txt" \
  --tune-budget 200 2>"$out/failing.log" >/dev/null || code=$?
[ "$code" -eq 1 ] || { echo "gpu_check_test: a failing tuning gave exit $code" >&2; exit 1; }
grep -q "the bench with VKDML_TOOL_TUNE='reduce.serial_max_len=100': it failed" "$out/failing.log" &&
  grep -qx "Tunings whose bench failed: reduce.serial_max_len=100" "$out/failing/gpu_check.md" &&
  grep -qE '^\| reduce\.row_block_vectors=1 \| reduce-many-tiny \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$' "$out/failing/gpu_check.md" &&
  grep -qE '^\| reduce-many-tiny \| float32 \| 65536x3 \| [0-9.]+ \| [0-9.]+ \| – \| – \|$' "$out/failing/gpu_check.md" &&
  grep -qx 'PyTorch: not run (the bench was left out (--no-bench))' "$out/failing/gpu_check.md" &&
  ! grep -q '^A/B against' "$out/failing/gpu_check.md" ||
  { echo "gpu_check_test: the failing tuning was not reported:" >&2; cat "$out/failing.log" "$out/failing/gpu_check.md" >&2; exit 1; }
# A sweep budget too small to start a bench: every tuning reported as not run.
TMPDIR="$out/tmp" bash "$source_dir/tools/gpu_check.sh" --kit "$out/kit" --out "$out/no-time" --work "$out/work" \
  --suite quick --case reduce-many-tiny --repeat 1 --no-tests --stress none --no-golden --tune "$out/tunings.txt" \
  --tune-budget 5 2>/dev/null >/dev/null || { echo "gpu_check_test: a spent sweep budget failed the run" >&2; exit 1; }
grep -qx "Tunings not run (the sweep's budget was spent): reduce.serial_max_len=64,reduce.serial_min_len=16; reduce.row_block_vectors=1" \
  "$out/no-time/gpu_check.md" || { echo "gpu_check_test: the spent sweep budget was not reported:" >&2; cat "$out/no-time/gpu_check.md" >&2; exit 1; }
grep -qE '^\| serial kernels, \[spec\] \| 0 of ([0-9]+) shards passed, \1 not run \(the 5 s budget was spent\) \|$' \
  "$out/budget/gpu_check.md" || { echo "gpu_check_test: the spent budget was not reported:" >&2; cat "$out/budget/gpu_check.md" >&2; exit 1; }
# --no-golden: no corpus run, no golden.txt.
[ ! -e "$out/budget/golden.txt" ] && ! grep -q 'determinism corpus' "$out/budget/gpu_check.md" ||
  { echo "gpu_check_test: --no-golden still ran the corpus" >&2; exit 1; }
# A limit that is not a positive whole number fails the corpus test by name, rather than run no case.
code=0
msg=$(VKDML_GOLDEN_LIMIT=0 "$out/kit/bin/vkdml_tests" "[golden]~[families]" 2>&1) || code=$?
[ "$code" -ne 0 ] && [[ "$msg" == *"VKDML_GOLDEN_LIMIT is '0': give a positive whole number of cases"* ]] ||
  { echo "gpu_check_test: VKDML_GOLDEN_LIMIT=0 gave exit $code and: $msg" >&2; exit 1; }

# The report of a failing run: a shard's failing cases named, a timed-out shard reported as such.
cat >"$out/failures.txt" <<'LOG'
===== shard serial-3 (exit 1), test cases:
  some test
-------------------------------------------------------------------------------
cumsum sweep: every rank, axis, direction and exclusivity for every type
-------------------------------------------------------------------------------
/src/tests/test_scan_sweep.cpp:308
...............................................................................

/src/tests/scan_sweep.cpp:200: FAILED:
  CHECK( ok )
with messages:
  case: UINT32 sizes {40, 16} sum axis 0 INCREASING exclusive
===== shard cooperative-1 (exit 124), test cases:
  quick test
  slow test
0.125 s: quick test
LOG
# (and a case whose chained scan fell back: its look-back figures beside its pass times)
/usr/bin/env python3 - "$out/report/vkdml-bench.json" "$out/chained.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["results"][0]["chained_scan"] = {"tiles": 1024, "fallbacks": 3}
json.dump(doc, open(sys.argv[2], "w"))
PY
/usr/bin/env python3 "$source_dir/tools/gpu_report.py" --vkdml "$out/chained.json" \
  --torch-skipped "not here" --failures "$out/failures.txt" --json "$out/f.json" --markdown "$out/f.md"
grep -qE -- "^- scan-1d: [0-9.]+ ms \([0-9.]+ GB/s\)(, [0-9.]+ ms \([0-9.]+ GB/s\))* \(look-back fallbacks 3 over 1024 tiles\)$" "$out/f.md" ||
  { echo "gpu_check_test: the look-back figures were not reported:" >&2; cat "$out/f.md" >&2; exit 1; }
grep -qx -- "- cumsum sweep: every rank, axis, direction and exclusivity for every type \[serial-3\]: case: UINT32 sizes {40, 16} sum axis 0 INCREASING exclusive" "$out/f.md" &&
  grep -qx -- "- the test case after 'quick test' \[cooperative-1\]: timed out" "$out/f.md" ||
  { echo "gpu_check_test: the failures were not reported as expected:" >&2; cat "$out/f.md" >&2; exit 1; }
echo "gpu_check_test: kit, unpacking, shards and report checked"
