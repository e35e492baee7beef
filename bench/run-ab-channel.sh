#!/usr/bin/env bash
# On a GPU machine: build the library at OLD_REV (a revision or a folder of its source: bench/ab-build.sh;
# library and bench alone) and the working tree (sm_90 preset, tests included),
# run the CHANNEL GPU tests on the new build, the A/B of
# bench/ab-channel.sh (HSM_AB_KERNELS forced too), and compute-sanitizer's CHANNEL tests of
# HSM_SANITIZE_RE (a ctest regex; none if empty), then memcheck and racecheck on each kernel of
# HSM_SANITIZE_KERNELS forced alone over the quick shapes, each log under OUT_DIR.
# With HSM_ANCHORS=1, bench/compare_channel.py (torch, torch.compile, cuDNN) on the new library first;
# with HSM_NCU=1, bench/ncu-channel.sh on the new library after the A/B.
# Usage: [HSM_AB_KERNELS=...] [HSM_SANITIZE_RE=...] [HSM_SANITIZE_KERNELS=...] [HSM_ANCHORS=1] [HSM_NCU=1]
#        bench/run-ab-channel.sh OLD_REV OUT_DIR
set -uo pipefail
rev=${1:?old revision} out=${2:?output dir}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
# shellcheck source=bench/ab-build.sh
. "$root/bench/ab-build.sh"
grep -A2 "_w[0-9]*_fwd'" "$root/build/sm_90/src/nvidia/CMakeFiles/hipsoftmax_nvidia.dir/__/__/hip/softmax_channel.hip.o.ptxas" \
  | grep -E "Compiling|spill|Used" > "$out/word-registers.txt"
(cd "$root/build/sm_90" && ctest -L channel -LE sanitizer -j4 --output-on-failure) > "$out/ctest-channel.log" 2>&1
echo "ctest -L channel: exit $? ($(grep 'tests passed' "$out/ctest-channel.log"))"
if [ "${HSM_ANCHORS:-0}" = 1 ]; then
  timeout 240 python3 "$root/bench/compare_channel.py" "$root/build/sm_90/nvidia/libhipsoftmax_nvidia.so" "$out" \
    > "$out/compare-channel.log" 2>&1
  echo "compare_channel.py: exit $?"
fi
"$root/bench/ab-channel.sh" "$old/build/sm_90/bench/hipsoftmax-bench-nvidia" "$old/build/sm_90/nvidia" \
  "$root/build/sm_90/bench/hipsoftmax-bench-nvidia" "$out"
echo "ab-channel: exit $?"
if [ "${HSM_NCU:-0}" = 1 ]; then
  "$root/bench/ncu-channel.sh" "$root/build/sm_90" "$out" > "$out/ncu-channel.log" 2>&1
  echo "ncu-channel: exit $?"
fi
if [ -n "${HSM_SANITIZE_RE:-}" ]; then
  (cd "$root/build/sm_90" && ctest -L sanitizer -R "$HSM_SANITIZE_RE" -j4 --output-on-failure) \
    > "$out/sanitizer.log" 2>&1
  echo "sanitizer: exit $? ($(grep 'tests passed' "$out/sanitizer.log"))"
fi
for k in ${HSM_SANITIZE_KERNELS:-}; do
  dt=f32 dir=fwd
  case $k in *bf16*) dt=bf16 ;; *f16*) dt=f16 ;; esac
  case $k in *_bwd) dir=bwd ;; esac
  for tool in memcheck racecheck; do
    echo "== $tool $k"
    HSM_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 1 \
      "$root/build/sm_90/tests/kernel/test_kernel_channel_nvidia" "$k" $dt $dir 2>&1 | tail -n 3
    echo "exit ${PIPESTATUS[0]}"
  done
done > "$out/sanitizer-kernels.log" 2>&1
[ -n "${HSM_SANITIZE_KERNELS:-}" ] && grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|cases" "$out/sanitizer-kernels.log"
