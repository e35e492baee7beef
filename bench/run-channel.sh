#!/usr/bin/env bash
# CHANNEL mode on a GPU machine, building nothing: the channel GPU tests (and their compute-sanitizer
# variants), the bench's CHANNEL shapes forward and backward, and bench/compare_channel.py against
# torch.softmax(x, 1), torch.compile and cuDNN, each writing its log into OUT_DIR.
# Usage: [CHANNEL_SKIP_TESTS=1] bench/run-channel.sh BUILD_DIR OUT_DIR   (BUILD_DIR: a configured and built GPU preset)
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# CHANNEL_SKIP_TESTS=1: the benchmarks alone (the tests already ran in this build's ctest).
if [ "${CHANNEL_SKIP_TESTS:-0}" != 1 ]; then
  (cd "$build" && ctest -L channel --output-on-failure) > "$out/ctest-channel.log" 2>&1
  echo "ctest -L channel: exit $? (log: $out/ctest-channel.log)"
fi
bench=$(ls "$build"/bench/hipsoftmax-bench* | head -n 1)
shapes=(--shape 16x150x16384 --shape 64x21x4096 --shape 256x1000x4 --shape 32x64x16384 --shape 8x50000x1024
        --shape 1024x21x3 --shape 4096x1000x1)
for dt in fp32 bf16; do
  "$bench" --dtype $dt "${shapes[@]}" --csv "$out/channel-fwd-$dt.csv" > "$out/channel-fwd-$dt.md" 2>&1
  "$bench" --op bwd --dtype $dt "${shapes[@]}" --csv "$out/channel-bwd-$dt.csv" > "$out/channel-bwd-$dt.md" 2>&1
done
lib=$(ls "$build"/*/libhipsoftmax_nvidia.so "$build"/*/libhipsoftmax_amd.so 2>/dev/null | head -n 1)
python3 "$here/compare_channel.py" "$lib" "$out" > "$out/compare-channel.log" 2>&1
echo "compare_channel.py: exit $? (log: $out/compare-channel.log)"
cat "$out"/channel-*.md "$out"/compare-channel-*.md 2>/dev/null
