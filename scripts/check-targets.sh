#!/usr/bin/env bash
# Checks that a build of every target holds code objects with kernels for each one: AMD with LLVM's
# own tools (llvm-readelf --notes on each unbundled code object), NVIDIA with hipsoftmax-occupancy
# (no cuobjdump on machines without a GPU). Prints the kernel count per target.
# Usage: scripts/check-targets.sh BUILD_DIR
set -euo pipefail
build=${1:?build dir}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for t in gfx908 gfx90a gfx942; do
  n=0
  for obj in $(find "$build/src/amd" -name 'softmax_*.hip.o' | sort); do
    llvm-objcopy-19 --dump-section .hip_fatbin="$tmp/fatbin" "$obj" "$tmp/scratch.o"
    clang-offload-bundler-19 --unbundle --type=o --input="$tmp/fatbin" \
      --targets="hipv4-amdgcn-amd-amdhsa--$t" --output="$tmp/$t.co"
    k=$(llvm-readelf-19 --notes "$tmp/$t.co" | grep -c -E '\.name: +hsm_' || true)
    n=$((n + k))
  done
  echo "$t: $n kernels (llvm-readelf-19 --notes)"
  [ "$n" -gt 0 ] || fail=1
done
for t in sm_80 sm_90; do
  n=$("$build/arch/cli/hipsoftmax-occupancy" --json "$build/nvidia/libhipsoftmax.so" | grep -c "\"target\":\"$t" || true)
  echo "$t: $n kernels (hipsoftmax-occupancy)"
  [ "$n" -gt 0 ] || fail=1
done
exit $fail
