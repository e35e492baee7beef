#!/usr/bin/env bash
# The plain log-softmax forward (issue 11: "at the speed of softmax forward, within 3%") of two
# libraries side by side in one run: the bench and library before a change (OLD_BENCH, with OLD_LIBDIR
# first on the library path) and after it (NEW_BENCH), two rounds, the second in the reverse order.
# Each round times the log-softmax and the softmax of the same shapes with each library: fp32, bf16
# and fp16 at M = 4096 from 64 to 131072 columns (WARP, ROW, SPLIT), WARP's rows on 65536 rows (8-128
# MB), rows off 16 bytes (4097, 12345, 50257, 781: the peeled kernels) and decode rows (SPLIT).
# Usage: bench/ab-log.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
shapes=()
for n in 64 128 256 512 1024 2048 4096 8192 16384 32768 65536 131072; do shapes+=(--shape "4096x$n"); done
shapes+=(--shape 65536x128 --shape 65536x512 --shape 4096x4097 --shape 4096x12345 --shape 4096x50257 --shape 1823x781 --shape 64x128256 --shape 8x262144)
for round in 1 2; do
  for dt in fp32 bf16 fp16; do
    for which in $(ab_order $round); do
      for algo in log softmax; do
        echo "## round $round $which $dt $algo"
        ab_one "$which" --dtype "$dt" --algo "$algo" "${shapes[@]}"
      done
    done
  done
done > "$out/ab-log.md" 2>&1
