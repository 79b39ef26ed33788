#!/usr/bin/env bash
# The test stages of `tools/bootstrap.sh test` (see there), after the dev build; with arguments, only
# the stages named. Each stage prints its name and its time in seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

stage_dev() {
  ctest --preset dev
}

# The README's install path, then the examples as a project of their own against the installed package,
# the installed tool on the README's example and the installed Python package.
stage_release() {
  local prefix=build/release-prefix
  cmake --preset release -DVKDML_BUILD_TESTS=OFF >/dev/null
  cmake --build --preset release
  rm -rf "$prefix" build/release-examples
  cmake --install build/release --prefix "$prefix" >/dev/null
  # A release build carries no test bench (vkdml/testing.hpp): no symbol of it, and no header.
  local symbols
  symbols=$(nm -C build/release/src/libvkdml.so) || { echo "release: nm could not read libvkdml.so" >&2; return 1; }
  if grep -E 'fail_vulkan_call|clear_vulkan_faults|FaultInjector|testing::create_device|testing::pipeline_count' <<<"$symbols"; then
    echo "release: libvkdml has the test bench's symbols above; VKDML_TESTING_HOOKS must be OFF" >&2
    return 1
  fi
  [ ! -e "$prefix/include/vkdml/testing.hpp" ] || { echo "release: testing.hpp was installed" >&2; return 1; }
  # The README's list of the installed headers (its line "That installs `include/vkdml/` (...;") is the list.
  local listed installed
  listed=$(grep -o '^That installs `include/vkdml/` ([^;]*;' README.md | grep -o '`[a-z_]*\.hp*`' | tr -d '`' | sort | xargs)
  installed=$(cd "$prefix/include/vkdml" && ls | sort | xargs)
  if [ -z "$listed" ] || [ "$listed" != "$installed" ]; then
    echo "release: README.md lists the installed headers as '$listed'; the install has '$installed'" >&2
    return 1
  fi
  cmake -S examples -B build/release-examples -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PWD/$prefix" >/dev/null
  cmake --build build/release-examples -j2
  build/release-examples/host_cumsum
  build/release-examples/quick_start
  build/release-examples/app_owned_device
  "$prefix/bin/vkdml" cumsum --axis 3 examples/spec_input.npy build/release-examples/cumsum.npy
  local shown expected
  shown=$("$prefix/bin/vkdml" show build/release-examples/cumsum.npy)
  expected=$'FLOAT32 [1,1,3,4]\n[[[[2, 3, 6, 11],\n   [3, 11, 18, 21],\n   [9, 15, 17, 21]]]]'
  if [ "$shown" != "$expected" ]; then
    printf 'release: the installed tool printed\n%s\nexpected\n%s\n' "$shown" "$expected" >&2
    return 1
  fi
  # The README's C++ quick start commands, as written, from the repository root, with a scratch HOME.
  local home block
  home=$(mktemp -d)
  block=$(awk '/^## Quick start \(C\+\+\)/{q=1} q && /^```sh$/{f=1; next} f && /^```$/{exit} f' README.md)
  [ -n "$block" ] || { echo "release: no sh block under the README's C++ quick start" >&2; return 1; }
  (HOME="$home" bash -euo pipefail -c "$block")
  rm -rf "$home"
  /usr/bin/python3 tools/numpy_check.py --cases 100 -- "$prefix/bin/vkdml"
  # The installed Python package, imported from outside the source and build trees.
  local site="$PWD/$prefix/lib/$(/usr/bin/python3 -c 'import sys; print("python%d.%d" % sys.version_info[:2])')/dist-packages"
  (cd /tmp && PYTHONPATH="$site" /usr/bin/python3 -c '
import sys, numpy as np, vkdml
assert vkdml.__file__.startswith(sys.argv[1]), vkdml.__file__
assert vkdml.cumsum(np.arange(5, dtype=np.float32), 0).tolist() == [0, 1, 3, 6, 10]
print("release: the installed Python package at", vkdml.__file__)' "$site")
  release_wheel
  # (clang-14 builds the library, the tool and the examples in the fuzz stage, with -Werror: a separate
  # clang Release build here repeated that compile, about 2 minutes.)
}

# The pip path (pyproject.toml, setup.py): a wheel built with Debian's pip, setuptools and wheel (CMake
# in build/pip, the library linked in statically), installed into a fresh venv that sees Debian's numpy;
# the Python quick start run from an empty folder, its printed result compared; then `pip uninstall`,
# after which vkdml no longer imports. --no-index: nothing is ever downloaded.
release_wheel() {
  local start=$SECONDS root=$PWD venv=$PWD/build/release-venv wheels=$PWD/build/release-wheel wheel so shown
  local expected='[ 0.  1.  3.  6. 10.]' away
  rm -rf "$venv" "$wheels"
  away=$(mktemp -d)  # an empty folder, outside the source and build trees, to run Python from
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/pip" wheel -q --no-index --no-build-isolation --no-deps -w "$wheels" .
  wheel=$(echo "$wheels"/vkdml-*.whl)
  [ -f "$wheel" ] || { echo "release: pip wheel made no vkdml-*.whl in $wheels" >&2; return 1; }
  "$venv/bin/pip" install -q --no-index "$wheel"
  shown=$(cd "$away" && "$venv/bin/python" -c \
    "import vkdml, numpy as np; print(vkdml.cumsum(np.arange(5, dtype=np.float32), 0))")
  if [ "$shown" != "$expected" ]; then
    printf 'release: the quick start on the wheel printed\n%s\nexpected\n%s\n' "$shown" "$expected" >&2
    return 1
  fi
  (cd "$away" && "$venv/bin/python" "$root/examples/quick_start.py" >/dev/null)
  # Self-contained: the extension needs no libvkdml.so (and volk opens libvulkan.so.1 at run time).
  so=$(echo "$venv"/lib/python3*/site-packages/vkdml/_native.*.so)
  [ -f "$so" ] || { echo "release: the wheel installed no vkdml/_native.*.so into $venv" >&2; return 1; }
  if readelf -d "$so" | grep -E 'NEEDED.*(libvkdml|libvulkan)'; then
    echo "release: $so needs the libraries above; vkdml should be linked in statically" >&2
    return 1
  fi
  "$venv/bin/pip" uninstall -q -y vkdml
  if (cd "$away" && "$venv/bin/python" -c 'import vkdml' 2>/dev/null); then
    echo "release: vkdml still imports after pip uninstall" >&2
    return 1
  fi
  rm -rf "$away"
  echo "release: $(basename "$wheel") built, installed, run and uninstalled in $((SECONDS - start)) s"
  # The README's Python quick start commands, as written, from the repository root, with a scratch HOME
  # (its venv goes there; the CMake build in build/pip is the wheel's, so this takes seconds).
  local home block
  home=$(mktemp -d)
  block=$(awk '/^## Quick start \(Python\)/{q=1} q && /^```sh$/{f=1; next} f && /^```$/{exit} f' README.md)
  [ -n "$block" ] || { echo "release: no sh block under the README's Python quick start" >&2; return 1; }
  shown=$(HOME="$home" bash -euo pipefail -c "$block" | tail -n 1)
  if [ "$shown" != "$expected" ]; then
    printf "release: the README's Python quick start printed\n%s\nexpected\n%s\n" "$shown" "$expected" >&2
    return 1
  fi
  rm -rf "$home"
}

# Windows: the MinGW-w64 cross build with the preset `windows` (the toolchain file, Release, -Werror,
# tests on), run under Wine (winevulkan on the host's lavapipe, which needs an X display: Xvfb): its
# vkdml.exe info, then the tool checked against NumPy, then its tests. No device under Wine is a failure,
# never a skip. (A second build as a user makes it, tests off and no -Werror, took about 150 s: the
# same toolchain file and sources; the release stage builds with tests and hooks off on Linux.)
stage_windows() {
  cmake --preset windows >/dev/null
  cmake --build --preset windows
  export WINEPREFIX="$PWD/build/windows/wineprefix" WINEDEBUG=-all
  local wine=/usr/lib/wine/wine64
  # numpy_check on vkdml.exe: 20 random cases (each a Wine process), its files and command line against
  # NumPy; the release stage runs 100 on the Linux tool, and gpu-sg8-cli every command under Wine.
  xvfb-run -a -s "-screen 0 640x480x24" bash -c '
    set -euo pipefail
    wine=$1 bin=$2
    if ! "$wine" "$bin/vkdml.exe" info >build/windows/info.txt 2>&1; then
      echo "windows: Wine could not create a Vulkan device (winevulkan on lavapipe):" >&2
      cat build/windows/info.txt >&2
      exit 1
    fi
    head -n 3 build/windows/info.txt
    /usr/bin/python3 tools/numpy_check.py --cases 20 -- "$wine" "$bin/vkdml.exe"
    ctest --preset windows' _ "$wine" build/windows/bin
}

stage_sanitizer() {
  cmake --preset "$1" -DVKDML_FUZZ_SECONDS="${VKDML_FUZZ_SECONDS:-60}" >/dev/null
  cmake --build --preset "$1"
  ctest --preset "$1"
}

stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(dev release windows asan tsan fuzz)
for stage in "${stages[@]}"; do
  echo "ci: stage $stage" >&2
  start=$SECONDS
  case "$stage" in
    dev | release | windows) "stage_$stage" ;;
    asan | tsan | fuzz) stage_sanitizer "$stage" ;;
    *) echo "ci: unknown stage '$stage' (dev release windows asan tsan fuzz)" >&2; exit 2 ;;
  esac
  echo "ci: stage $stage passed in $((SECONDS - start)) s" >&2
done
