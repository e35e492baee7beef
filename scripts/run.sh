#!/usr/bin/env bash
# The main job. On a machine with a supported GPU: build for it and print the benchmark tables
# (bench/run-tables.sh). Without one: build every target and print, per target, the kernels built
# and their occupancy (hipsoftmax-occupancy on each library); AMD targets are built, never run here.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
preset=$(scripts/gpu-preset.sh)
if [ -n "$preset" ]; then
  cmake --preset "$preset" && cmake --build --preset "$preset"
  bench/run-tables.sh "build/$preset" "build/$preset/bench-results"
  exit 0
fi
scripts/install-deps.sh
cmake --preset all-targets && cmake --build --preset all-targets
for lib in build/all-targets/amd/libhipsoftmax.so build/all-targets/nvidia/libhipsoftmax.so; do
  echo "== $lib"
  build/all-targets/arch/cli/hipsoftmax-occupancy --block 256 --rows 4096 "$lib"
done
