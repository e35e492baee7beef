#!/usr/bin/env bash
# The plain forward of two libraries side by side in one run: the bench and library before a change
# (OLD_BENCH, with OLD_LIBDIR first on the library path) and after it (NEW_BENCH), two rounds, the
# second in the reverse order, fp32, bf16 and fp16 at M = 4096 from 256 to 256K columns and decode
# rows (few, long: SPLIT). Usage: bench/ab-forward.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
shapes=()
for n in 256 1024 4096 8192 16384 32768 65536 131072 262144; do shapes+=(--shape "4096x$n"); done
shapes+=(--shape 64x128256 --shape 8x262144)
for round in 1 2; do
  for dt in fp32 bf16 fp16; do
    for which in $(ab_order $round); do
      echo "## round $round $which $dt fwd"
      ab_one "$which" --dtype "$dt" "${shapes[@]}"
    done
  done
done > "$out/ab-forward.md" 2>&1
