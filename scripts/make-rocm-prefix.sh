#!/usr/bin/env bash
# Assembles a folder shaped like a ROCm installation (/opt/rocm) out of Debian's ROCm 5.2 packages
# and clang-19, as symbolic links: CI builds the rocm preset against it, since no real ROCm is
# installed there. Layout (what the rocm preset reads):
#   bin/ (hipconfig and friends, where Debian has them)   include/hip, include/hsa
#   lib/libamdhip64.so*   llvm/bin/clang, clang++, llvm-as (-> the -19 tools)
#   amdgcn/bitcode (ROCm before 6.2; later ones keep it in lib/llvm/lib/clang/<v>/lib/amdgcn/bitcode)
#   share/hip/version (clang reads the HIP version from it)
# Usage: scripts/make-rocm-prefix.sh PREFIX   (an empty or missing folder)
set -euo pipefail
prefix=${1:?prefix}
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
need() { [ -e "$1" ] || { echo "make-rocm-prefix: $1 missing (run scripts/install-deps.sh)" >&2; exit 1; }; }
need /usr/include/hip/hip_runtime_api.h
need "/usr/lib/$multiarch/amdgcn/bitcode/ocml.bc"
need "$(command -v clang++-19 || echo /usr/bin/clang++-19)"
mkdir -p "$prefix/bin" "$prefix/include" "$prefix/lib" "$prefix/llvm/bin" "$prefix/amdgcn" "$prefix/share/hip"
ln -sfn /usr/include/hip "$prefix/include/hip"
[ -d /usr/include/hsa ] && ln -sfn /usr/include/hsa "$prefix/include/hsa"
for f in /usr/lib/"$multiarch"/libamdhip64.so*; do
  ln -sfn "$f" "$prefix/lib/$(basename "$f")"
done
ln -sfn "/usr/lib/$multiarch/amdgcn/bitcode" "$prefix/amdgcn/bitcode"
for t in clang clang++ llvm-as; do
  ln -sfn "$(command -v $t-19)" "$prefix/llvm/bin/$t"
done
for t in hipconfig hipcc; do
  if command -v $t >/dev/null 2>&1; then ln -sfn "$(command -v $t)" "$prefix/bin/$t"; fi
done
[ -f /usr/share/hip/version ] && ln -sfn /usr/share/hip/version "$prefix/share/hip/version"
echo "make-rocm-prefix: $prefix"
