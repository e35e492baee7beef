#!/usr/bin/env bash
# Installs the Debian packages the AMD presets, the all-targets preset and the fuzzers need: clang-19
# (HIP compiler, libFuzzer, sanitizers), llvm-19 (llvm-as, llvm-readelf), the ROCm HIP runtime and
# device libraries, CMake and Ninja; g++ (nvcc's host compiler) and pkg-config (the consumer test).
# Idempotent: does nothing, quietly, when all are present.
# The NVIDIA presets need none of this, only the CUDA toolkit (nvcc), g++ and CMake.
set -euo pipefail
pkgs=(cmake ninja-build g++ pkgconf clang-19 lld-19 llvm-19 libclang-rt-19-dev libamdhip64-dev rocm-device-libs)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
