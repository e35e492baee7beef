#!/usr/bin/env bash
# On a GPU machine: build the library at OLD_REV (a revision or a folder of its source: bench/ab-build.sh;
# library and bench alone) and the working tree (sm_90 preset, tests included),
# run the WARP, unaligned and automatic-plan GPU tests
# of the plain forward on the new build (ctest regex HSM_TEST_RE overrides), compute-sanitizer's tests
# of HSM_SANITIZE_RE (a ctest regex; none if empty), and the A/B of bench/ab-warp.sh, each log under
# OUT_DIR. With HSM_NCU=1, Nsight Compute's memory and launch sections on fp16 65536 x 77 and x 80
# for the old and the new library.
# Usage: [HSM_TEST_RE=...] [HSM_SANITIZE_RE=...] [HSM_NCU=1] bench/run-ab-warp.sh OLD_REV OUT_DIR
set -uo pipefail
rev=${1:?old revision} out=${2:?output dir}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
# shellcheck source=bench/ab-build.sh
. "$root/bench/ab-build.sh"
grep -A2 "_flat_w[0-9]*'" "$root/build/sm_90/src/nvidia/CMakeFiles/hipsoftmax_nvidia.dir/__/__/hip/softmax_warp.hip.o.ptxas" \
  | grep -E "Compiling|spill|Used" > "$out/flat-registers.txt"
re=${HSM_TEST_RE:-'kernel\.(warp|auto|unaligned\.[a-z0-9]+\.fwd|warp_[a-z0-9]+_flat_w[0-9]+)\.|api\.'}
(cd "$root/build/sm_90" && ctest -R "$re" -LE sanitizer -j6 --output-on-failure) > "$out/ctest.log" 2>&1
echo "ctest -R '$re': exit $? ($(grep 'tests passed' "$out/ctest.log"))"
if [ -n "${HSM_SANITIZE_RE:-}" ]; then
  (cd "$root/build/sm_90" && ctest -L sanitizer -R "$HSM_SANITIZE_RE" -j6 --output-on-failure) \
    > "$out/sanitizer.log" 2>&1
  echo "sanitizer: exit $? ($(grep 'tests passed' "$out/sanitizer.log"))"
fi
"$root/bench/ab-warp.sh" "$old/build/sm_90/bench/hipsoftmax-bench-nvidia" "$old/build/sm_90/nvidia" \
  "$root/build/sm_90/bench/hipsoftmax-bench-nvidia" "$out"
echo "ab-warp: exit $?"
if [ "${HSM_NCU:-0}" = 1 ]; then
  for which in old new; do
    b="$root/build/sm_90/bench/hipsoftmax-bench-nvidia" lib=""
    [ $which = old ] && b="$old/build/sm_90/bench/hipsoftmax-bench-nvidia" lib="$old/build/sm_90/nvidia"
    for s in 65536x77 65536x80; do
      echo "== $which fp16 $s"
      LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ncu --kernel-name regex:hsm_ --launch-count 1 \
        --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
        "$b" --dtype fp16 --shape $s --reps 1 2>&1 | grep -E "hsm_|Duration|DRAM Throughput|Memory Throughput|Issue|Achieved Occupancy|Registers|Stall|Warp Cycles" | head -30
    done
  done > "$out/ncu.txt" 2>&1
  echo "ncu: exit $?"
fi
