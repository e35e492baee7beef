#!/usr/bin/env bash
# The backward's grid rule (a block a row where y, dy and dx together are HSM_BLOCK_A_ROW_MIN_BYTES or
# more, where y alone had to be) against the library before, side by side in one run (OLD_BENCH with
# OLD_LIBDIR first on the library path, NEW_BENCH), three rounds in rotating order: the rows whose
# grid changes (fp32 4096 x 1024-2000 and 2048 x 2048, bf16 4096 x 2048-3072, softmax, log-softmax,
# an fp32 dx) and rows whose grid does not (8192 rows, fp32 4096 x 4096, bf16 4096 x 1024).
# Usage: bench/ab-bwd-grid.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
cases=(
  "--dtype fp32 --shape 4096x1024 --shape 4096x1536 --shape 4096x2000 --shape 2048x2048 --shape 8192x1024"
  "--dtype fp32 --algo log --shape 4096x1024 --shape 4096x1536"
  "--dtype bf16 --shape 4096x1024 --shape 4096x2048 --shape 4096x3072 --shape 8192x2048"
  "--dtype bf16 --algo log --shape 4096x2048"
  "--dtype fp32 --y-dtype bf16 --dy-dtype bf16 --shape 4096x2048"
  "--dtype fp32 --shape 4096x4096"
)
ab_cases 3 "--op bwd" "${cases[@]}" > "$out/ab-bwd-grid.md" 2>&1
