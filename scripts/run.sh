#!/usr/bin/env bash
# The main job. On a machine with a supported GPU: build for it and print the benchmark tables
# (bench/run-tables.sh). Without one: build every target and print, per target, the plan for the
# benchmark's shapes (hipsoftmax-plan-<vendor>: kernel, registers and shared memory/LDS from the code
# object, grid, programs by the tutorial formula and the exact model, what limits them). AMD targets
# are built and modelled, never run here. The per-kernel table at every block size the plan uses:
#   build/all-targets/bench/hipsoftmax-plan-nvidia --kernels (or -amd)
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
log=build/all-targets-run.log
mkdir -p build
echo "No supported GPU here: building every target (log: $log) and printing the plans."
if ! { cmake --preset all-targets && cmake --build --preset all-targets; } >"$log" 2>&1; then
  tail -n 40 "$log"
  exit 1
fi
for vendor in amd nvidia; do
  legend=
  [ "$vendor" = nvidia ] && legend=--no-legend # explained once, above
  build/all-targets/bench/hipsoftmax-plan-$vendor $legend
done
