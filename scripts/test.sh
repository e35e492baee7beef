#!/usr/bin/env bash
# The test suite. On a machine with a supported GPU: build for it and run every test (GPU tests
# included). Without one: install what is needed, build every target (compile and link), and run
# the CPU tests under ASan and UBSan; the GPU tests report SKIPPED.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
preset=$(scripts/gpu-preset.sh)
if [ -z "$preset" ]; then
  preset=all-targets
  scripts/install-deps.sh
fi
echo "preset: $preset"
cmake --workflow --preset "$preset"
