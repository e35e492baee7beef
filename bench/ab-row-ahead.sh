#!/usr/bin/env bash
# ROW's plain forward asking L2 for a later row (plan.c's HSM_ROW_AHEAD_DIV) against the library
# before, side by side in one run (OLD_BENCH with OLD_LIBDIR first on the library path, NEW_BENCH),
# three rounds in rotating order: the plain forward and log-softmax of 4096 rows from 1K to 64K
# columns in each dtype, odd rows and rows whose x and y lie at different offsets, and controls the
# change does not reach (WARP's short rows, the backward, the forward with a mask).
# Usage: bench/ab-row-ahead.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
cases=(
  "--dtype bf16 --shape 4096x1024 --shape 4096x2048 --shape 4096x4096 --shape 4096x8192 --shape 4096x16384"
  "--dtype bf16 --shape 4096x32768 --shape 4096x50256 --shape 4096x50257 --shape 4096x65536"
  "--dtype bf16 --x-stride 50258 --shape 4096x50257"
  "--dtype fp16 --shape 4096x4096 --shape 4096x32768 --shape 4096x32771 --shape 4096x50256"
  "--dtype fp32 --shape 4096x1024 --shape 4096x4096 --shape 4096x12344 --shape 4096x12345 --shape 4096x16384"
  "--dtype fp32 --shape 4096x32768 --shape 4096x781 --shape 1823x781 --shape 8192x2048"
  "--dtype bf16 --algo log --shape 4096x1024 --shape 4096x16384 --shape 4096x50256 --shape 4096x65536"
  "--dtype fp32 --algo log --shape 4096x1024 --shape 4096x16384"
  "--dtype fp32 --shape 16384x128"
  "--op bwd --dtype bf16 --shape 4096x16384"
  "--dtype bf16 --scale 0.125 --mask add --heads 16 --queries 1024 --mask-batches 8 --mask-rows 1024 --shape 131072x1024"
)
ab_cases 3 "" "${cases[@]}" > "$out/ab-row-ahead.md" 2>&1
