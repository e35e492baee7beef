#!/usr/bin/env bash
# The 16-bit softmax backward on SPLIT from 160000 columns (plan.c's HSM_BWD16_SPLIT_MIN_COLS), where
# ONLINE had it, against the library before, side by side in one run (OLD_BENCH with OLD_LIBDIR first
# on the library path, NEW_BENCH), three rounds in rotating order: bf16 and fp16 rows from 131072
# columns (below the rule) to 262144, and the rows the rule leaves alone (log-softmax, an fp32 dx).
# Usage: bench/ab-bwd16-split.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
cases=(
  "--dtype bf16 --shape 4096x131072 --shape 4096x163840 --shape 4096x196608 --shape 4096x262144 --shape 2048x262144"
  "--dtype fp16 --shape 4096x163840 --shape 4096x262144"
  "--dtype bf16 --algo log --shape 4096x262144"
  "--dtype fp32 --y-dtype bf16 --shape 4096x262144"
)
ab_cases 3 "--op bwd" "${cases[@]}" > "$out/ab-bwd16-split.md" 2>&1
