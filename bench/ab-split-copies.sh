#!/usr/bin/env bash
# SPLIT's backward copying its staged columns asynchronously for every dtype pair whose packs are 16
# bytes (it did for fp32 y and dy alone; the others loaded them through registers two accesses at a
# time), against the library before, side by side in one run (OLD_BENCH with OLD_LIBDIR first on the
# library path, NEW_BENCH), three rounds in rotating order: SPLIT forced on 16-bit rows of 4096, the
# few-row problems the plan gives it, mixed dtypes, a peeled row, and fp32 and fp32-y-with-bf16-dy
# controls (the first copied before, the second copies neither time). Then each family forced on the
# new library over bf16 rows of 64K-256K, for the plan's choice between ONLINE and SPLIT.
# Usage: bench/ab-split-copies.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
cases=(
  "--dtype bf16 --family split --shape 4096x32768 --shape 4096x65536 --shape 4096x131072"
  "--dtype fp16 --family split --shape 4096x65536"
  "--dtype bf16 --shape 8x131072 --shape 64x131072 --shape 64x262144"
  "--dtype bf16 --algo log --family split --shape 4096x65536 --shape 64x131072"
  "--dtype bf16 --dy-dtype fp32 --family split --shape 4096x65536"
  "--dtype fp32 --y-dtype bf16 --dy-dtype bf16 --family split --shape 4096x65536"
  "--dtype bf16 --family split --shape 4096x50257"
  "--dtype fp32 --shape 4096x65536 --shape 64x131072"
  "--dtype fp32 --dy-dtype bf16 --family split --shape 4096x65536"
)
ab_cases 3 "--op bwd" "${cases[@]}" > "$out/ab-split-copies.md" 2>&1
for fam in online split; do
  for algo in softmax log; do
    "$new" --op bwd --dtype bf16 --algo "$algo" --family "$fam" --shape 4096x65536 --shape 4096x98304 \
      --shape 4096x131072 --shape 4096x262144 --shape 256x131072 --shape 512x131072 --shape 1024x131072
  done
done > "$out/split-copies-forced.md" 2>&1
