#!/usr/bin/env bash
# ROW's packed 16-bit kernels (hsm_row_packed_body) counting a row's columns in 32 bits against the
# library before (64 bits), side by side in one run (OLD_BENCH with OLD_LIBDIR first on the library
# path, NEW_BENCH), three rounds in rotating order: the plain forward and log-softmax of the rows the
# packed kernels take (4K-64K columns, 16-bit), odd rows, rows whose x and y lie at different
# offsets (the _shift twins, and the peeled kernels where the rows are too few for a twin), and
# controls the change does not reach (fp32 rows, the forward with a mask, the backward).
# Usage: bench/ab-row-int32.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
cases=(
  "--dtype bf16 --shape 4096x4096 --shape 4096x16384 --shape 4096x32768 --shape 4096x32776 --shape 4096x50256"
  "--dtype bf16 --shape 4096x50257 --shape 4096x65536"
  "--dtype bf16 --x-stride 50258 --shape 4096x50257"
  "--dtype bf16 --x-stride 32772 --shape 4096x32771"
  "--dtype bf16 --x-stride 50258 --shape 512x50257"
  "--dtype fp16 --shape 4096x16384 --shape 4096x32771 --shape 4096x50256 --shape 4096x65536"
  "--dtype fp16 --x-stride 50258 --shape 4096x50257"
  "--dtype bf16 --algo log --shape 4096x16384 --shape 4096x50256 --shape 4096x50257 --shape 4096x65536"
  "--dtype fp32 --shape 4096x16384"
  "--op bwd --dtype bf16 --shape 4096x16384"
  "--dtype bf16 --scale 0.125 --mask add --heads 16 --queries 1024 --mask-batches 8 --mask-rows 1024 --shape 131072x1024"
)
ab_cases 3 "" "${cases[@]}" > "$out/ab-row-int32.md" 2>&1
