#!/usr/bin/env bash
# The row backward of two libraries side by side in one run: the bench and library before a change
# (OLD_BENCH, with OLD_LIBDIR first on the library path) and after it (NEW_BENCH), two rounds, the
# second in the reverse order; softmax and log-softmax, fp32, bf16 and fp16, at M = 4096 from 1K to
# 64K columns (odd ones among them), few long rows, and bf16 y and dy with an fp32 dx.
# Usage: bench/ab-backward.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
shapes=()
for n in 1024 4096 16384 24576 32768 50256 50257 65536; do shapes+=(--shape "4096x$n"); done
shapes+=(--shape 1024x131072)
for round in 1 2; do
  for dt in fp32 bf16 fp16; do
    for algo in softmax log; do
      for which in $(ab_order $round); do
        echo "## round $round $which $dt $algo"
        ab_one "$which" --op bwd --dtype "$dt" --algo "$algo" "${shapes[@]}"
      done
    done
  done
  for which in $(ab_order $round); do
    echo "## round $round $which bf16-fp32 log"
    ab_one "$which" --op bwd --dtype fp32 --y-dtype bf16 --algo log "${shapes[@]}"
  done
done > "$out/ab-backward.md" 2>&1
