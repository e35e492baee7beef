#!/usr/bin/env bash
# WARP's packed forward on causal rows launched a block for every four rows (plan.c, plan_warp)
# against the library before (the resident grid), side by side in one run (OLD_BENCH with OLD_LIBDIR
# first on the library path, NEW_BENCH), three rounds in rotating order: causal attention rows of 1K
# and 2K columns in bf16 and fp16, smaller batches, a decoding offset, and the plain forward of the
# same shapes (unchanged; the ratio causal / plain is the issue's target).
# Usage: bench/ab-causal-grid.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
cases=(
  "--dtype bf16 --scale 0.125 --mask causal --queries 1024 --shape 131072x1024 --shape 32768x1024"
  "--dtype fp16 --scale 0.125 --mask causal --queries 2048 --shape 262144x2048 --shape 32768x2048"
  "--dtype bf16 --scale 0.125 --mask causal --queries 2048 --shape 131072x2048"
  "--dtype fp16 --scale 0.125 --mask causal --queries 1024 --causal-offset 512 --shape 131072x1024"
  "--dtype bf16 --shape 131072x1024"
  "--dtype fp16 --shape 262144x2048"
)
ab_cases 3 "" "${cases[@]}" > "$out/ab-causal-grid.md" 2>&1
