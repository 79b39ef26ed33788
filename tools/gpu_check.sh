#!/usr/bin/env bash
# tools/gpu_check.sh — everything worth knowing about vkdml on a machine's GPU, in one command and one
# report, with no network: the GPU test suite with the cooperative kernel family and with the serial one,
# `vkdml bench`, the same cases in PyTorch when torch with CUDA can be imported, and a report
# (gpu_check.json and gpu_check.md: vkdml GB/s, ratio to copy, torch GB/s, vkdml/torch).
#
# usage: tools/gpu_check.sh [--build DIR] [--out DIR] [--suite quick|default|full] [--case NAME]...
#                           [--repeat N] [--tests FILTER] [--no-tests]
#   --build DIR     a build of the dev preset to use (default: build/dev; built when it lacks the
#                   programs, which needs the Debian packages of tools/bootstrap.sh)
#   --out DIR       where the logs and the report go (default: build/gpu-check)
#   --suite S       the bench suite (default: default); --case NAME only that case (repeatable);
#   --repeat N      timed runs per case (default: the bench's)
#   --tests FILTER  the Catch2 filter of the test runs (default: [gpu], everything that uses a device)
#   --no-tests      benchmarks only
# The device is the one vkdml chooses (the best; VKDML_DEVICE=index or name picks another). The test
# runs need the Vulkan validation layer, as every test run on Linux does (on a machine without package
# access, carry vulkan-validationlayers' .deb and unpack it with `dpkg -x`). Exit status: 0 when every
# test run passed and the benchmark ran, else 1; the report is written whenever the benchmark ran.
set -uo pipefail
cd "$(dirname "$0")/.."

build=build/dev out=build/gpu-check suite=default repeat="" tests="[gpu]" run_tests=1 cases=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=${2:?--build expects a folder}; shift 2 ;;
    --out) out=${2:?--out expects a folder}; shift 2 ;;
    --suite) suite=${2:?--suite expects quick, default or full}; shift 2 ;;
    --case) cases+=(--case "${2:?--case expects a case name}"); shift 2 ;;
    --repeat) repeat=${2:?--repeat expects a number}; shift 2 ;;
    --tests) tests=${2:?--tests expects a Catch2 filter}; shift 2 ;;
    --no-tests) run_tests=0; shift ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu_check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

tool=$build/tools/vkdml tests_program=$build/tests/vkdml_tests
if [ ! -x "$tool" ] || { [ $run_tests = 1 ] && [ ! -x "$tests_program" ]; }; then
  if [ "$build" != build/dev ]; then
    echo "gpu_check: $build has no tools/vkdml or tests/vkdml_tests (build it with the dev preset)" >&2
    exit 1
  fi
  echo "gpu_check: building (preset dev)" >&2
  cmake --preset dev >/dev/null && cmake --build --preset dev || exit 1
fi
mkdir -p "$out" || exit 1
python=$(command -v python3 || true)
[ -n "$python" ] || { echo "gpu_check: python3 is needed for the report" >&2; exit 1; }

status=0
"$tool" info | tee "$out/info.txt" || { echo "gpu_check: vkdml found no usable Vulkan device" >&2; exit 1; }

report_args=()
if [ $run_tests = 1 ]; then
  for family in cooperative serial; do
    echo "gpu_check: tests $tests, $family kernels (log: $out/tests-$family.txt)" >&2
    if VKDML_TEST_KERNELS=$family "$tests_program" "$tests" >"$out/tests-$family.txt" 2>&1; then
      result=passed
    else
      result="FAILED (exit $?)"
      status=1
    fi
    summary=$(grep -E "^(All tests passed|test cases:)" "$out/tests-$family.txt" | tail -n 1)
    echo "gpu_check: $family: $result${summary:+ — $summary}" >&2
    report_args+=(--test "$family kernels, $tests=$result${summary:+ — $summary}")
  done
fi

bench_args=(bench --suite "$suite" "${cases[@]}" --json "$out/vkdml-bench.json")
[ -n "$repeat" ] && bench_args+=(--repeat "$repeat")
echo "gpu_check: vkdml ${bench_args[*]}" >&2
if ! "$tool" "${bench_args[@]}" | tee "$out/vkdml-bench.txt"; then
  echo "gpu_check: vkdml bench failed" >&2
  exit 1
fi

torch_args=(--suite "$suite" "${cases[@]}" --json "$out/torch-bench.json")
[ -n "$repeat" ] && torch_args+=(--repeat "$repeat")
if why=$("$python" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else "torch has no CUDA device")' 2>&1); then
  echo "gpu_check: tools/bench_torch.py ${torch_args[*]}" >&2
  if "$python" tools/bench_torch.py "${torch_args[@]}" | tee "$out/torch-bench.txt"; then
    report_args+=(--torch "$out/torch-bench.json")
  else
    report_args+=(--torch-skipped "tools/bench_torch.py failed (see $out/torch-bench.txt)")
  fi
else
  why=$(printf '%s\n' "$why" | tail -n 1)
  echo "gpu_check: PyTorch step skipped: ${why:-torch cannot be imported}" >&2
  report_args+=(--torch-skipped "${why:-torch cannot be imported}")
fi

"$python" tools/gpu_report.py --vkdml "$out/vkdml-bench.json" "${report_args[@]}" \
  --json "$out/gpu_check.json" --markdown "$out/gpu_check.md" || exit 1
cat "$out/gpu_check.md"
echo "gpu_check: report in $out/gpu_check.md and $out/gpu_check.json" >&2
exit $status
