#!/usr/bin/env bash
# Sets up vkdml on a fresh Debian 12 machine: installs the Debian packages it needs (only those
# missing), configures with the `dev` preset and builds. `bootstrap.sh test` then runs the whole
# test suite (CTest) as well.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libvulkan-dev libvulkan-volk-dev glslang-tools spirv-tools catch2
          mesa-vulkan-drivers vulkan-validationlayers)
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
fi
