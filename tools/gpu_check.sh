#!/usr/bin/env bash
# tools/gpu_check.sh — everything worth knowing about vkdml on a lent GPU machine, in one command, a few
# minutes and one report: the GPU test suite with both kernel families (one shard per test case and family,
# the long ones first, over the CPU cores, each with its own time limit), `vkdml bench --passes`, the same
# cases in PyTorch when torch with CUDA can be imported, and a report of 8 files (gpu_check.md first).
#
# Two steps, because the lent machine has no package archive and lacks the Vulkan loader and the glvnd
# libraries that NVIDIA's Vulkan driver needs:
#   tools/gpu_check.sh --prepare [--build DIR] [--kit DIR] [--baseline DIR]
#       here, with Debian's archive: builds the dev preset when DIR lacks the programs, and fills the kit
#       (default build/gpu-kit, ignored by git, well under the 64 MiB a lent machine is carried): the
#       stripped vkdml, vkdml_tests and libvkdml, and the .debs of libvulkan1, the glvnd libraries and
#       vulkan-validationlayers (apt-get download; no root needed). --baseline: an earlier commit's dev
#       build (git worktree add /tmp/old COMMIT, then cmake --preset dev and cmake --build --preset dev
#       --target vkdml_cli there), whose stripped vkdml and libvkdml go into the kit's baseline/.
#   tools/gpu_check.sh [--kit DIR | --build DIR] [--out DIR] [options]
#       there: unpacks the .debs whose libraries the machine lacks (the validation layer always) into
#       $TMPDIR/vkdml-gpu-root with dpkg -x, then runs everything and writes the report.
# options:
#   --out DIR            the report (default build/gpu-check), 8 files (as many as a lent machine's run
#                        returns): gpu_check.md, gpu_check.json, info.txt, test-failures.txt, golden.txt (the
#                        determinism corpus's differing cases), vkdml-bench.json, torch-bench.json and
#                        logs.tar.gz (every shard's log with its exit status, the stress and corpus logs, and
#                        bench.txt, the benchmarks' output)
#   --work DIR           shard logs and other scratch (default $TMPDIR/vkdml-gpu-check)
#   --tests FILTER       the Catch2 filter of the test runs (default: [gpu]~[large], the [cli] tests too)
#   --no-tests           benchmarks only
#   --no-bench           no bench, A/B or PyTorch: with --tune, the sweep alone (a second call of a lease; the
#                        report's case table is then the sweep's first untuned run)
#   --jobs N             test processes at once (default: the CPU count)
#   --shard-timeout S    seconds each shard may run before it is killed and reported (default 240)
#   --tests-budget S     seconds for all the shards (default 330): a shard starts only with 8 s of it
#                        left and is killed when it is spent; the shards left out are reported as not run
#   --stress FORM        the chained scan's stress test first, alone on the device (tests/scan/test_chained_stress.cpp:
#                        spin limits 1 to 4, in place and not, every direction, exact integers):
#                        full (fibers of 16k to 64k tiles: about 270 s on an H200), short (default; as ctest's
#                        chained-stress, 20 s on an H200) or none
#   --stress-timeout S   seconds it may run (default 120)
#   --no-golden          leaves out the determinism corpus (tests/kernels/test_golden.cpp), which otherwise runs
#                        next, both kernel families at once, its differing cases listed in golden.txt (and
#                        its test cases left out of the shards)
#   --suite S, --case NAME (repeatable), --repeat N: the bench's
#   --baseline DIR       after the bench, an A/B in the same run: DIR's vkdml (an earlier commit's build, or
#                        a kit's baseline/; default: the kit's, where it has one) and this build's, alternating
#                        old, new, old, new, the minimum of each per case in gpu_check.md (old/new)
#   --tune FILE          after that, a sweep of the policy rows' knobs (vkdml::tuning_knobs; `vkdml plan --help`
#                        lists them): each line of FILE a tuning, knob=value[,knob=value...] as `vkdml plan
#                        --tune` takes it, then the bench cases it runs (none: those of the last line
#                        `cases CASE...` before it); # begins a comment. Two rounds of the untuned build on
#                        every case and then each tuning on its own (VKDML_TOOL_TUNE), the minimum of each,
#                        default/tuned per case and tuning in gpu_check.md, the best tuning per case first
#                        (tools/gpu_tuning.txt: the sweep issue 44 asks for)
#   --tune-budget S      seconds the sweep may take (default 180): a bench starts only with 10 s of it left
#                        and is stopped when it is spent (the tunings left out are reported as not run) or
#                        after 120 s (reported as failed, as is one with a wrong answer or an error)
# Environment: VKDML_GPU_CHECK_UNPACK=all unpacks every .deb of the kit even where the machine has its
# library (CI proves the unpacking that way on lavapipe). VKDML_DEVICE picks a device as vkdml does.
# Exit status: 0 when every shard passed, the benchmark ran and so did every bench of the A/B and of the
# sweep that started (a wrong answer, an error or 120 s of one bench fails it), 1 otherwise (the report is
# written whenever the benchmark ran), 2 for a bad argument.
set -uo pipefail
cd "$(dirname "$0")/.."

debs=(libvulkan1 libglvnd0 libgl1 libglx0 libegl1 libgles2 libopengl0 vulkan-validationlayers)
prepare=0 kit="" build="" baseline="" out=build/gpu-check work="${TMPDIR:-/tmp}/vkdml-gpu-check" suite=default repeat=""
tests="[gpu]~[large]" run_tests=1 jobs="" shard_timeout=240 tests_budget=330 cases=() stress=short stress_timeout=120 golden=1
tune_file="" tune_budget=180 run_bench=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prepare) prepare=1; shift ;;
    --kit) kit=${2:?--kit expects a folder}; shift 2 ;;
    --build) build=${2:?--build expects a folder}; shift 2 ;;
    --out) out=${2:?--out expects a folder}; shift 2 ;;
    --work) work=${2:?--work expects a folder}; shift 2 ;;
    --suite) suite=${2:?--suite expects quick, default or full}; shift 2 ;;
    --case) cases+=(--case "${2:?--case expects a case name}"); shift 2 ;;
    --repeat) repeat=${2:?--repeat expects a number}; shift 2 ;;
    --tests) tests=${2:?--tests expects a Catch2 filter}; shift 2 ;;
    --no-tests) run_tests=0; shift ;;
    --no-bench) run_bench=0; shift ;;
    --jobs) jobs=${2:?--jobs expects a number}; shift 2 ;;
    --shard-timeout) shard_timeout=${2:?--shard-timeout expects seconds}; shift 2 ;;
    --tests-budget) tests_budget=${2:?--tests-budget expects seconds}; shift 2 ;;
    --stress) stress=${2:?--stress expects full, short or none}; shift 2 ;;
    --stress-timeout) stress_timeout=${2:?--stress-timeout expects seconds}; shift 2 ;;
    --no-golden) golden=0; shift ;;
    --baseline) baseline=${2:?--baseline expects a build or kit folder}; shift 2 ;;
    --tune) tune_file=${2:?--tune expects a file of tunings}; shift 2 ;;
    --tune-budget) tune_budget=${2:?--tune-budget expects seconds}; shift 2 ;;
    -h | --help) sed -n '2,60p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu_check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $stress in full | short | none) ;; *) echo "gpu_check: --stress is full, short or none, not '$stress'" >&2; exit 2 ;; esac
for n in "$shard_timeout" "$tests_budget" "$stress_timeout" "$tune_budget" ${jobs:+"$jobs"} ${repeat:+"$repeat"}; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "gpu_check: '$n' is not a positive whole number" >&2; exit 2; }
done
[ $run_bench = 0 ] && [ -z "$tune_file" ] && { echo "gpu_check: --no-bench runs nothing without --tune" >&2; exit 2; }
[ -n "$kit" ] && [ -n "$build" ] && [ $prepare = 0 ] &&
  { echo "gpu_check: give --kit or --build, not both" >&2; exit 2; }
log() { echo "gpu_check: $*" >&2; }
# The vkdml program and library folder of a build (tools/vkdml, src/) or a kit's baseline (bin/, lib/).
baseline_tool() { [ -x "$1/bin/vkdml" ] && echo "$1/bin/vkdml" || echo "$1/tools/vkdml"; }
baseline_lib() { [ -x "$1/bin/vkdml" ] && echo "$1/lib" || echo "$1/src"; }
if [ -n "$baseline" ] && [ ! -x "$(baseline_tool "$baseline")" ]; then
  log "$baseline has no tools/vkdml or bin/vkdml (an earlier commit's dev build, or a kit's baseline)"; exit 1
fi

# ---- --prepare: the kit -------------------------------------------------------------------------------
if [ $prepare = 1 ]; then
  build=${build:-build/dev} kit=${kit:-build/gpu-kit}
  if [ ! -x "$build/tools/vkdml" ] || [ ! -x "$build/tests/vkdml_tests" ]; then
    [ "$build" = build/dev ] || { log "$build has no tools/vkdml or tests/vkdml_tests (build it with the dev preset)"; exit 1; }
    log "building (preset dev)"
    cmake --preset dev >/dev/null && cmake --build --preset dev || exit 1
  fi
  rm -rf "$kit" && mkdir -p "$kit/bin" "$kit/lib" "$kit/debs" || exit 1
  strip -o "$kit/bin/vkdml" "$build/tools/vkdml" && strip -o "$kit/bin/vkdml_tests" "$build/tests/vkdml_tests" || exit 1
  for lib in "$build"/src/libvkdml.so*; do
    if [ -L "$lib" ]; then cp -P "$lib" "$kit/lib/"; else strip -o "$kit/lib/$(basename "$lib")" "$lib" || exit 1; fi
  done
  if ! (cd "$kit/debs" && apt-get download "${debs[@]}" >/dev/null 2>&1); then
    log "apt-get download failed; updating the package lists once"
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq && (cd "$kit/debs" && apt-get download "${debs[@]}" >/dev/null) ||
      { log "could not download ${debs[*]}"; exit 1; }
  fi
  if [ -n "$baseline" ]; then
    mkdir -p "$kit/baseline/bin" "$kit/baseline/lib" && strip -o "$kit/baseline/bin/vkdml" "$(baseline_tool "$baseline")" || exit 1
    for lib in "$(baseline_lib "$baseline")"/libvkdml.so*; do
      if [ -L "$lib" ]; then cp -P "$lib" "$kit/baseline/lib/"; else strip -o "$kit/baseline/lib/$(basename "$lib")" "$lib" || exit 1; fi
    done
    # The baseline's commit, from its source folder (CMakeCache.txt names it).
    src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$baseline/CMakeCache.txt" 2>/dev/null)
    (git -C "${src:-/nonexistent}" rev-parse --short HEAD 2>/dev/null || echo unknown) >"$kit/baseline/commit.txt"
  fi
  { echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)"; date -u +"made %Y-%m-%dT%H:%M:%SZ"
    [ -n "$baseline" ] && echo "baseline $(cat "$kit/baseline/commit.txt")"
    ls "$kit/debs"; } >"$kit/manifest.txt"
  log "kit ready: $kit ($(du -sh "$kit" | cut -f1)); on the GPU machine: tools/gpu_check.sh --kit $kit"
  exit 0
fi

# ---- start-up: programs, and what the machine lacks ----------------------------------------------------
if [ -n "$kit" ]; then
  tool=$kit/bin/vkdml tests_program=$kit/bin/vkdml_tests
  [ -x "$tool" ] && [ -x "$tests_program" ] || { log "$kit is not a kit (run tools/gpu_check.sh --prepare)"; exit 1; }
  [ -z "$baseline" ] && [ -x "$kit/baseline/bin/vkdml" ] && baseline=$kit/baseline
  export LD_LIBRARY_PATH="$(realpath "$kit/lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
  build=${build:-build/dev}
  tool=$build/tools/vkdml tests_program=$build/tests/vkdml_tests
  if [ ! -x "$tool" ] || { [ $run_tests = 1 ] && [ ! -x "$tests_program" ]; }; then
    [ "$build" = build/dev ] || { log "$build has no tools/vkdml or tests/vkdml_tests (build it with the dev preset)"; exit 1; }
    log "building (preset dev)"
    cmake --preset dev >/dev/null && cmake --build --preset dev || exit 1
  fi
fi
tool=$(realpath "$tool") tests_program=$(realpath "$tests_program")
mkdir -p "$out" "$work" || exit 1
out=$(realpath "$out") work=$(realpath "$work")
# Nothing of an earlier run into this one's report or logs.
rm -f "$out"/gpu_check.md "$out"/gpu_check.json "$out"/test-failures.txt "$out"/golden.txt "$out"/*-bench.json \
  "$out"/logs.tar.gz "$out"/bench.txt
rm -rf "$work"/shards "$work"/stress.log "$work"/golden-* "$work"/bench.txt "$work"/ab-*.json "$work"/tune-*.json*
python=$(command -v python3 || true)
[ -n "$python" ] || { log "python3 is needed for the report"; exit 1; }

# The kit's .debs: a library the machine lacks (or every one with VKDML_GPU_CHECK_UNPACK=all), and the
# validation layer always, go into a private root that comes first on the library path.
if [ -n "$kit" ] && compgen -G "$kit/debs/*.deb" >/dev/null; then
  command -v dpkg-deb >/dev/null || { log "dpkg-deb is needed to unpack the kit's .debs"; exit 1; }
  root=${TMPDIR:-/tmp}/vkdml-gpu-root
  rm -rf "$root" && mkdir -p "$root"
  # The libraries the machine has (ldconfig is in /sbin, off a user's PATH), read once.
  known=$( (ldconfig -p || /sbin/ldconfig -p || /usr/sbin/ldconfig -p) 2>/dev/null | awk '{ print $1 }')
  unpacked=()
  for deb in "$kit"/debs/*.deb; do
    name=$(basename "$deb" | cut -d_ -f1)
    needed=1
    if [ "$name" != vulkan-validationlayers ] && [ "${VKDML_GPU_CHECK_UNPACK:-}" != all ]; then
      needed=0
      for lib in $(dpkg-deb -c "$deb" | awk '{ n = split($6, p, "/"); print p[n] }' | grep -E '\.so\.[0-9]+$'); do
        grep -qxF "$lib" <<<"$known" || needed=1
      done
    fi
    if [ $needed = 1 ]; then
      dpkg-deb -x "$deb" "$root" || { log "could not unpack $deb"; exit 1; }
      unpacked+=("$name")
    fi
  done
  export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH"
  export VK_LAYER_PATH="$root/usr/share/vulkan/explicit_layer.d"
  log "unpacked into $root: ${unpacked[*]:-nothing}"
fi
# NVIDIA's container runtime puts its ICD under /usr/local/nvidia; the loader looks there through
# XDG_DATA_DIRS.
if [ -d /usr/local/nvidia/share/vulkan/icd.d ]; then
  export XDG_DATA_DIRS="${XDG_DATA_DIRS:-/usr/local/share:/usr/share}:/usr/local/nvidia/share"
fi

# The sweep's tunings, checked before anything runs (a mistake in the file costs no GPU time): each tuning
# against the GPU rows (`vkdml plan --tune`), each case against the bench's.
tunings=() tune_cases=()
if [ -n "$tune_file" ]; then
  [ -r "$tune_file" ] || { log "--tune: cannot read $tune_file"; exit 2; }
  known_cases=" $("$tool" bench --case '?' 2>&1 | sed -n 's/.*the cases are: //p' | tr -d ',') "
  [ "$known_cases" != "  " ] || { log "--tune: $tool bench did not list its cases"; exit 1; }
  current=() n=0
  while IFS= read -r text || [ -n "$text" ]; do
    n=$((n + 1))
    text=${text%%#*}
    read -r -a words <<<"$text"
    [ ${#words[@]} -eq 0 ] && continue
    for c in "${words[@]:1}"; do
      [[ "$known_cases" == *" $c "* ]] || { log "--tune: $tune_file:$n: unknown case '$c'"; exit 2; }
    done
    if [ "${words[0]}" = cases ]; then current=("${words[@]:1}"); continue; fi
    why=$("$tool" plan --op cumsum --shape 8 --axis 0 --tune "${words[0]}" 2>&1 >/dev/null) ||
      { log "--tune: $tune_file:$n: ${why#vkdml: error: }"; exit 2; }
    line_cases=("${words[@]:1}")
    [ ${#line_cases[@]} -eq 0 ] && line_cases=("${current[@]}")
    [ ${#line_cases[@]} -gt 0 ] || { log "--tune: $tune_file:$n: no cases (name them, or a 'cases' line before)"; exit 2; }
    tunings+=("${words[0]}") tune_cases+=("${line_cases[*]}")
  done <"$tune_file"
  [ ${#tunings[@]} -gt 0 ] || { log "--tune: $tune_file has no tuning"; exit 2; }
fi

status=0
"$tool" info >"$out/info.txt" 2>&1 || { cat "$out/info.txt" >&2; log "vkdml found no usable Vulkan device"; exit 1; }
head -n 3 "$out/info.txt" >&2
report_args=()

# ---- tests: every test case of the filter, in shards over the cores, both kernel families at once -------
if [ $run_tests = 1 ]; then
  jobs=${jobs:-$(nproc)}
  rm -rf "$work/shards" && mkdir -p "$work/shards"
  # The chained scan's stress test first, alone on the device, where the timing races it is after happen.
  stress_rc=0
  if [ "$stress" != none ]; then
    log "stress: the chained scan at spin limits 1 to 4 ($stress form), ${stress_timeout} s at most"
    start=$SECONDS
    VKDML_STRESS=$stress timeout -k 2 "$stress_timeout" "$tests_program" "[stress]" --durations yes \
      >"$work/stress.log" 2>&1 || stress_rc=$?
    case $stress_rc in
      0) result=passed ;;
      124 | 137) result="timed out after ${stress_timeout} s" ;;
      *) result="failed (exit $stress_rc)" ;;
    esac
    log "stress: $result in $((SECONDS - start)) s"
    [ $stress_rc -eq 0 ] || status=1
    report_args+=(--test "chained scan stress, $stress=$result")
  fi
  # The determinism corpus (tests/kernels/test_golden.cpp) with each kernel family: every case whose bits
  # differ from the committed hashes, in golden.txt (a covered case that differs fails the check).
  # Both families at once, each in a process of its own.
  if [ $golden = 1 ]; then
    : >"$out/golden.txt"
    start=$SECONDS
    for family in cooperative serial; do
      (VKDML_TEST_KERNELS=$family timeout -k 2 "$shard_timeout" "$tests_program" "[golden]~[families]" \
        >"$work/golden-$family.log" 2>&1; echo $? >"$work/golden-$family.rc") &
    done
    wait
    for family in cooperative serial; do
      golden_rc=$(cat "$work/golden-$family.rc" 2>/dev/null || echo 1)  # no status: the job did not finish
      { echo "== $family kernels (exit $golden_rc)"; grep -E '^ *golden|mismatch' "$work/golden-$family.log"; } >>"$out/golden.txt"
      summary=$(grep -E "^golden: this run's device" "$work/golden-$family.log" | sed "s/^golden: this run's device: //")
      [ "$golden_rc" -eq 0 ] && result="passed: ${summary:-no summary}" || result="FAILED (exit $golden_rc): ${summary:-see golden.txt}"
      log "golden corpus, $family kernels: $result in $((SECONDS - start)) s"
      [ "$golden_rc" -eq 0 ] || status=1
      report_args+=(--test "determinism corpus, $family kernels=$result")
    done
  fi
  # The corpus's own run above is left out of the shards.
  "$tests_program" "$tests" --list-test-names-only 2>/dev/null | grep -v '^$' >"$work/names.txt"
  if [ $golden = 1 ]; then
    "$tests_program" "[golden]~[families]" --list-test-names-only 2>/dev/null | grep -v '^$' >"$work/golden-names.txt"
    grep -vxF -f "$work/golden-names.txt" "$work/names.txt" >"$work/names-left.txt"
    mv "$work/names-left.txt" "$work/names.txt"
  fi
  count=$(wc -l <"$work/names.txt")
  [ "$count" -gt 0 ] || { log "no test case matches $tests$([ $golden = 1 ] && echo " beside the corpus's")"; exit 1; }
  # One shard per test case and family, the long ones first (the sweeps, block and window tests, the corpus
  # in windows, the tool's per-type tests: minutes each on a GPU under the validation layer), so each has the
  # whole shard limit and the cores stay busy to the end. Catch2 reads the name from a file (-f), commas
  # escaped.
  long='sweep|blocks|windows|golden|cli:|SPEC §6|canonical|every type'
  { grep -E "$long" "$work/names.txt"; grep -vE "$long" "$work/names.txt"; } |
    awk -v dir="$work/shards" '{ gsub(/,/, "\\,")
      for (f = 0; f < 2; ++f) {
        file = dir "/" (f ? "serial" : "cooperative") "-" sprintf("%03d", NR - 1) ".names"
        print > file; close(file)
      } }'
  per_family=$count
  log "tests: $count test cases of $tests x 2 kernel families, one shard each, $jobs at a time, ${shard_timeout} s each and ${tests_budget} s in all at most"
  start=$SECONDS
  deadline=$(( $(date +%s) + tests_budget ))
  export tests_program shard_timeout tool deadline
  # The two families' shards alternate, so both run at once and a spent budget skips some of each.
  for ((i = 0; i < per_family; ++i)); do
    printf '%s\0' "$work/shards/cooperative-$(printf %03d $i).names" "$work/shards/serial-$(printf %03d $i).names"
  done | xargs -0 -P "$jobs" -n 1 bash -c '
    shard=${1%.names} family=$(basename "$1" | cut -d- -f1)
    left=$(( deadline - $(date +%s) - 2 ))
    if [ "$left" -lt 8 ]; then echo skipped >"$shard.rc"; exit 0; fi
    VKDML_TEST_KERNELS=$family VKDML_TOOL=$tool timeout -k 2 "$(( left < shard_timeout ? left : shard_timeout ))" \
      "$tests_program" -f "$1" --durations yes >"$shard.log" 2>&1
    echo $? >"$shard.rc"' _
  log "tests took $((SECONDS - start)) s"
  for family in cooperative serial; do
    passed=0 failed=0 timed_out=0 skipped=0
    for rc in "$work/shards/$family"-*.rc; do
      case $(cat "$rc") in
        0) passed=$((passed + 1)) ;;
        124 | 137) timed_out=$((timed_out + 1)) ;;
        skipped) skipped=$((skipped + 1)) ;;
        *) failed=$((failed + 1)) ;;
      esac
    done
    result="$passed of $((passed + failed + timed_out + skipped)) shards passed"
    [ $failed -gt 0 ] && result+=", $failed failed"
    [ $timed_out -gt 0 ] && result+=", $timed_out timed out"
    [ $skipped -gt 0 ] && result+=", $skipped not run (the ${tests_budget} s budget was spent)"
    [ $((failed + timed_out + skipped)) -gt 0 ] && status=1
    log "$family kernels: $result"
    report_args+=(--test "$family kernels, $tests=$result")
  done
  # The failing shards' whole Catch2 output, in one file; the report lists their failing cases.
  : >"$out/test-failures.txt"
  for rc in "$work/shards"/*.rc; do
    case $(cat "$rc") in 0 | skipped) continue ;; esac
    shard=${rc%.rc}
    { echo "===== shard $(basename "$shard") (exit $(cat "$rc")), test cases:"; sed 's/^/  /' "$shard.names"
      cat "$shard.log"; echo; } >>"$out/test-failures.txt"
  done
  if [ $stress_rc -ne 0 ]; then
    { echo "===== shard stress (exit $stress_rc), test cases:"; echo "  [stress] (VKDML_STRESS=$stress)"
      cat "$work/stress.log"; echo; } >>"$out/test-failures.txt"
  fi
  report_args+=(--failures "$out/test-failures.txt")
fi

# ---- bench, with the time of every pass; then the same cases in PyTorch -------------------------------
if [ $run_bench = 1 ]; then
  bench_args=(bench --suite "$suite" "${cases[@]}" --passes --json "$out/vkdml-bench.json")
  [ -n "$repeat" ] && bench_args+=(--repeat "$repeat")
  log "vkdml ${bench_args[*]}"
  if ! "$tool" "${bench_args[@]}" >"$work/bench.txt" 2>&1; then
    cat "$work/bench.txt" >&2
    log "vkdml bench failed"
    exit 1
  fi
  # The A/B against the baseline build, in this run: old, new, old, new (each process loads its own library).
  if [ -n "$baseline" ]; then
    old_tool=$(realpath "$(baseline_tool "$baseline")") old_lib=$(realpath "$(baseline_lib "$baseline")")
    old_name=$(cat "$baseline/commit.txt" 2>/dev/null || echo "$baseline")
    ab_args=(bench --suite "$suite" "${cases[@]}")
    [ -n "$repeat" ] && ab_args+=(--repeat "$repeat")
    log "A/B against $old_name: vkdml ${ab_args[*]}, old and new twice each"
    ab_ok=1
    for i in 1 2; do
      LD_LIBRARY_PATH="$old_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$old_tool" "${ab_args[@]}" --json "$work/ab-old-$i.json" \
        >>"$work/bench.txt" 2>&1 || ab_ok=0
      "$tool" "${ab_args[@]}" --json "$work/ab-new-$i.json" >>"$work/bench.txt" 2>&1 || ab_ok=0
    done
    if [ $ab_ok = 1 ]; then
      report_args+=(--baseline "$old_name" --ab-old "$work/ab-old-1.json" --ab-old "$work/ab-old-2.json"
        --ab-new "$work/ab-new-1.json" --ab-new "$work/ab-new-2.json")
    else
      log "the A/B failed (see bench.txt in logs.tar.gz)"
      status=1
    fi
  fi
  torch_args=(--suite "$suite" "${cases[@]}" --json "$out/torch-bench.json")
  [ -n "$repeat" ] && torch_args+=(--repeat "$repeat")
  if why=$("$python" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else "torch has no CUDA device")' 2>&1); then
    log "tools/bench_torch.py ${torch_args[*]}"
    if "$python" tools/bench_torch.py "${torch_args[@]}" >>"$work/bench.txt" 2>&1; then
      report_args+=(--torch "$out/torch-bench.json")
    else
      report_args+=(--torch-skipped "tools/bench_torch.py failed (see bench.txt in logs.tar.gz)")
    fi
  else
    why=$(printf '%s\n' "$why" | tail -n 1)
    log "PyTorch step skipped: ${why:-torch cannot be imported}"
    report_args+=(--torch-skipped "${why:-torch cannot be imported}")
  fi
else
  report_args+=(--torch-skipped "the bench was left out (--no-bench)")
fi

# ---- the sweep of tunings: the untuned build on every case of the sweep, then each tuning on its own, twice --
if [ ${#tunings[@]} -gt 0 ]; then
  all_cases=$(printf '%s\n' ${tune_cases[@]} | awk '!seen[$0]++' | tr '\n' ' ')
  log "tuning sweep: ${#tunings[@]} tunings of $tune_file over $all_cases(${tune_budget} s at most)"
  tune_deadline=$(( $(date +%s) + tune_budget ))
  declare -A tune_ran=() tune_failed=()
  # One bench of the given cases with VKDML_TOOL_TUNE=$1 (empty: untuned) into $2, for at most 120 s: 0 when
  # it ran and every case's check passed, 1 when the budget is spent, 2 when it failed (an error, a wrong
  # answer, or 120 s with budget left: its JSON, if any, is kept as $2.failed for the logs).
  tune_bench() {
    local left=$(( tune_deadline - $(date +%s) )) knobs=$1 json=$2 args=(bench --suite "$suite") c limit why=""
    shift 2
    [ $left -ge 10 ] || return 1
    limit=$(( left < 120 ? left : 120 ))
    for c in "$@"; do args+=(--case "$c"); done
    [ -n "$repeat" ] && args+=(--repeat "$repeat")
    echo "== VKDML_TOOL_TUNE=$knobs vkdml ${args[*]}" >>"$work/bench.txt"
    VKDML_TOOL_TUNE=$knobs timeout -k 2 "$limit" "$tool" "${args[@]}" --json "$json" >>"$work/bench.txt" 2>&1
    case $? in
      0) why=$("$python" -c 'import json, sys
bad = [r["case"] for r in json.load(open(sys.argv[1]))["results"]
       if not r.get("skipped") and (r.get("error") or r.get("check") != "ok")]
print(", ".join(bad))' "$json" 2>&1) || why="its JSON could not be read: $why"
        [ -z "$why" ] && return 0
        why="wrong answers or errors in $why" ;;
      124 | 137) [ $limit -lt $left ] || { rm -f "$json"; return 1; }
        why="it ran past $limit s" ;;
      *) why="it failed" ;;
    esac
    [ -f "$json" ] && mv "$json" "$json.failed"
    log "the bench with VKDML_TOOL_TUNE='$knobs': $why (see bench.txt in logs.tar.gz)"
    status=1
    return 2
  }
  for round in 1 2; do
    tune_bench "" "$work/tune-default-$round.json" $all_cases
    [ $? = 1 ] && break
    for i in "${!tunings[@]}"; do
      tune_bench "${tunings[$i]}" "$work/tune-$i-$round.json" ${tune_cases[$i]}
      case $? in 0) tune_ran[$i]=1 ;; 1) break 2 ;; 2) tune_failed[$i]=1 ;; esac
    done
  done
  for i in "${!tunings[@]}"; do
    for f in "$work/tune-$i-"*.json; do [ -f "$f" ] && report_args+=(--tune "$f"); done
    if [ -n "${tune_failed[$i]:-}" ]; then report_args+=(--tune-failed "${tunings[$i]}")
    elif [ -z "${tune_ran[$i]:-}" ]; then report_args+=(--tune-skipped "${tunings[$i]}"); fi
  done
  for f in "$work"/tune-default-*.json; do [ -f "$f" ] && report_args+=(--tune-default "$f"); done
fi

if [ $run_bench = 0 ]; then
  cp "$work/tune-default-1.json" "$out/vkdml-bench.json" 2>/dev/null ||
    { log "--no-bench: the sweep's untuned bench did not run, so there is no report"; exit 1; }
fi
"$python" tools/gpu_report.py --vkdml "$out/vkdml-bench.json" "${report_args[@]}" \
  --json "$out/gpu_check.json" --markdown "$out/gpu_check.md" || exit 1
cat "$out/gpu_check.md"
(cd "$work" && tar -czf "$out/logs.tar.gz" --ignore-failed-read bench.txt $(ls stress.log golden-*.log ab-*.json tune-*.json* 2>/dev/null) \
  $([ -d shards ] && echo shards)) || log "could not write logs.tar.gz"
log "report in $out ($(ls "$out" | wc -l) files)"
exit $status
