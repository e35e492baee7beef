#!/usr/bin/env bash
# Checks that a build holds code objects with kernels for each of its targets (HIPSOFTMAX_GPU_TARGETS
# of its CMake cache): AMD with LLVM's own tools (llvm-readelf --notes on each unbundled code object),
# NVIDIA with hipsoftmax-occupancy (no cuobjdump on machines without a GPU). Prints the kernel count
# per target.
# Usage: scripts/check-targets.sh BUILD_DIR
set -euo pipefail
build=${1:?build dir}
targets=$(sed -n 's/^HIPSOFTMAX_GPU_TARGETS:[A-Z]*=//p' "$build/CMakeCache.txt" | tr ';' ' ')
[ -n "$targets" ] || { echo "check-targets: $build was configured without GPU targets" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for t in $targets; do
  n=0
  case $t in
  gfx*)
    for obj in $(find "$build/src/amd" -name 'softmax_*.hip.o' | sort); do
      llvm-objcopy-19 --dump-section .hip_fatbin="$tmp/fatbin" "$obj" "$tmp/scratch.o"
      clang-offload-bundler-19 --unbundle --type=o --input="$tmp/fatbin" \
        --targets="hipv4-amdgcn-amd-amdhsa--$t" --output="$tmp/$t.co"
      k=$(llvm-readelf-19 --notes "$tmp/$t.co" | grep -c -E '\.name: +hsm_' || true)
      n=$((n + k))
    done
    echo "$t: $n kernels (llvm-readelf-19 --notes)"
    ;;
  sm_*)
    n=$("$build/arch/cli/hipsoftmax-occupancy" --json "$build/nvidia/libhipsoftmax_nvidia.so" |
        grep -c "\"target\":\"$t\"" || true)
    echo "$t: $n kernels (hipsoftmax-occupancy)"
    ;;
  esac
  [ "$n" -gt 0 ] || fail=1
done
exit $fail
