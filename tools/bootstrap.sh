#!/usr/bin/env bash
# Sets up vkdml on a fresh Debian 12 machine: installs the Debian packages it needs (only those
# missing), configures with the `dev` preset and builds. `bootstrap.sh test` then runs the whole
# test suite (CTest) as well: the `dev` build's tests, then the same suite built with AddressSanitizer
# (LeakSanitizer) + UndefinedBehaviorSanitizer (preset asan), the concurrency test built with
# ThreadSanitizer (preset tsan), and each libFuzzer target for VKDML_FUZZ_SECONDS (default 60; preset
# fuzz, clang).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libvulkan-dev libvulkan-volk-dev glslang-tools spirv-tools catch2
          mesa-vulkan-drivers vulkan-validationlayers)
[ "${1:-}" = "test" ] && packages+=(clang-14 libclang-rt-14-dev)  # libFuzzer and clang's sanitizers
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
cmake --build --preset dev
if [ "${1:-}" = "test" ]; then
  ctest --preset dev
  for preset in asan tsan fuzz; do
    echo "bootstrap: preset $preset" >&2
    cmake --preset "$preset" -DVKDML_FUZZ_SECONDS="${VKDML_FUZZ_SECONDS:-60}" >/dev/null
    cmake --build --preset "$preset"
    ctest --preset "$preset"
  done
fi
