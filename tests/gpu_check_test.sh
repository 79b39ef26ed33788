#!/usr/bin/env bash
# ctest gpu-check: tools/gpu_check.sh end to end on this build's device (lavapipe in CI), kept short (the
# SPEC examples with each kernel family, two quick benchmark cases, one timed run), and its report read
# back: the test runs passed, both cases have a row, the PyTorch step says why it did not run.
# usage: gpu_check_test.sh SOURCE_DIR BUILD_DIR OUT_DIR
set -euo pipefail
source_dir=$1 build_dir=$2 out=$3
rm -rf "$out"
# Bad input: an unknown argument (exit 2) and a build folder without the programs (exit 1), each named.
refused() {
  local want=$1 text=$2 code=0
  shift 2
  msg=$(bash "$source_dir/tools/gpu_check.sh" "$@" 2>&1 >/dev/null) || code=$?
  [ "$code" -eq "$want" ] && [[ "$msg" == *"$text"* ]] ||
    { echo "gpu_check_test: '$*' gave exit $code and '$msg'" >&2; exit 1; }
}
refused 2 "unknown argument '--bogus'" --bogus
refused 1 "$out/no-build has no tools/vkdml" --build "$out/no-build"
bash "$source_dir/tools/gpu_check.sh" --build "$build_dir" --out "$out" --suite quick --case scan-1d \
  --case reduce-many-tiny --repeat 1 --tests "[spec]"
report=$out/gpu_check.md
expect() {
  grep -qE "$1" "$report" || { echo "gpu_check_test: no line matching '$1' in $report" >&2; exit 1; }
}
expect '^\| cooperative kernels, \[spec\] \| passed — All tests passed '
expect '^\| serial kernels, \[spec\] \| passed — All tests passed '
expect '^\| scan-1d \| float32 \| 4194304 \| [0-9.]+ \| [0-9.]+ \| – \| – \|$'
expect '^\| reduce-many-tiny \| float32 \| 65536x3 \| [0-9.]+ \| [0-9.]+ \| – \| – \|$'
expect '^PyTorch: not run \(.+\)$'
[ "$(grep -c '^| ' "$report")" -eq 6 ] || { echo "gpu_check_test: expected 6 table rows in $report" >&2; exit 1; }
/usr/bin/env python3 - "$out/gpu_check.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert [c["case"] for c in report["cases"]] == ["scan-1d", "reduce-many-tiny"], report["cases"]
assert all(c["vkdml_gbps"] > 0 and c["check"] == "ok" for c in report["cases"]), report["cases"]
assert report["torch"]["ran"] is False and report["torch"]["skipped"], report["torch"]
assert len(report["tests"]) == 2, report["tests"]
PY
echo "gpu_check_test: report checked"
