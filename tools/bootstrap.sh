#!/usr/bin/env bash
# Sets up vkdml on a fresh Debian 12 machine: installs the Debian packages it needs (only those
# missing), configures with the `dev` preset and builds the library, the tool and the Python module
# (target vkdml_programs). `bootstrap.sh test` builds everything (tests too) and then runs the whole
# test suite as well (tools/ci_stages.sh, one stage after the other; any failure stops it):
#   dev      the `dev` build's CTest suite (lavapipe, the validation layer on)
#   release  the README's install path: release preset, install, the examples built against the
#            installed package, the installed tool run; the Python wheel (pip) built, installed into a
#            venv, run and uninstalled; and a plain clang-14 Release build
#   windows  the MinGW-w64 cross build (preset windows), its tests run under Wine on lavapipe
#   asan     the suite built with AddressSanitizer (LeakSanitizer) + UndefinedBehaviorSanitizer
#   tsan     the concurrency test built with ThreadSanitizer
#   fuzz     each libFuzzer target for VKDML_FUZZ_SECONDS (default 60; clang)
# `bootstrap.sh test STAGE...` runs only those stages.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libvulkan-dev libvulkan-volk-dev glslang-tools spirv-tools catch2
          libcli11-dev nlohmann-json3-dev mesa-vulkan-drivers vulkan-validationlayers
          pybind11-dev python3-dev python3-numpy libdlpack-dev   # the Python module (python/)
          python3-venv python3-pip python3-setuptools python3-wheel)  # its pip install (setup.py)
if [ "${1:-}" = "test" ]; then
  packages+=(clang-14 libclang-rt-14-dev)                      # libFuzzer, clang's sanitizers, clang build
  packages+=(python3-pytest)                                   # the Python module's tests
  packages+=(g++-mingw-w64-x86-64-posix wine64 xvfb xauth)     # the windows stage
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "bootstrap: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake --preset dev >/dev/null
if [ "${1:-}" = "test" ]; then
  cmake --build --preset dev
  shift
  bash tools/ci_stages.sh "$@"
else
  cmake --build --preset dev --target vkdml_programs  # the library, tool and Python module only
fi
