#!/usr/bin/env bash
# Tuning sweep: the same shapes under each candidate family and kernel (hipsoftmax_set_family,
# hipsoftmax_set_kernel), to choose the plan's thresholds from measurements, and the shapes on both sides
# of each place where the plan changes family (no cliff). Usage: bench/sweep-kernels.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:?build dir}
out=${2:?output dir}
bench=$(ls "$build"/bench/hipsoftmax-bench* | head -n 1)
mkdir -p "$out"
for dt in f32 bf16; do
  name=$([ $dt = f32 ] && echo fp32 || echo bf16)
  mid=(--shape 4096x512 --shape 4096x1024 --shape 4096x2048 --shape 4096x4096 --shape 4096x8192 --shape 4096x16384 --shape 4096x32768)
  long=(--shape 4096x33792 --shape 4096x49152 --shape 4096x65536 --shape 4096x98304 --shape 4096x131072 --shape 4096x262144)
  few=(--shape 4x8388608 --shape 32x1048576)
  edges=(--shape 4096x512 --shape 4096x520 --shape 4096x32768 --shape 4096x32776 --shape 4096x21496 --shape 4096x21504
         --shape 4096x36864 --shape 4096x36872 --shape 4096x45048 --shape 4096x45056
         --shape 4096x81920 --shape 4096x90112
         --shape 4096x65536 --shape 4096x65544 --shape 4096x131072 --shape 4096x139264 --shape 4096x147456
         --shape 263x65536 --shape 264x65536)
  "$bench" --dtype $name "${mid[@]}" "${long[@]}" "${few[@]}" --reps 20 | grep -E '^\|' > "$out/$dt-auto.md"
  "$bench" --dtype $name "${edges[@]}" --reps 20 | grep -E '^\| [0-9]' > "$out/$dt-edges.md"
  rowk="row_${dt}_v8 row_${dt}_v16 row_${dt}_v32"
  [ $dt = f32 ] || { rowk="$rowk row_${dt}_p64"; mid+=(--shape 4096x65536); }
  # Between the powers of two: where the plan trades the largest chunk for more resident threads.
  between=(--shape 4096x1536 --shape 4096x3072 --shape 4096x12288 --shape 4096x16392 --shape 4096x20480
           --shape 4096x24576 --shape 4096x28672 --shape 4096x32776 --shape 4096x40960 --shape 4096x49152
           --shape 4096x57344)
  big=$([ $dt = f32 ] && echo row_f32_v32 || echo row_${dt}_p64)
  "$bench" --dtype $name "${between[@]}" --reps 20 | grep -E '^\| [0-9]' > "$out/$dt-between.md"
  "$bench" --dtype $name --kernel hsm_$big "${between[@]}" --reps 20 | grep -E '^\| [0-9]' > "$out/$dt-between-$big.md" || true
  for k in $rowk; do
    "$bench" --dtype $name --kernel hsm_$k "${mid[@]}" --reps 20 | grep -E '^\| [0-9]' > "$out/$dt-$k.md" || true
  done
  for f in online split; do
    "$bench" --dtype $name --family $f "${long[@]}" "${few[@]}" --reps 20 | grep -E '^\| [0-9]' > "$out/$dt-family-$f.md" || true
  done
  for k in split_${dt}_v split_${dt}_vw; do
    "$bench" --dtype $name --kernel hsm_$k "${long[@]}" "${few[@]}" --reps 20 | grep -E '^\| [0-9]' > "$out/$dt-$k.md" || true
  done
done
for f in "$out"/*.md; do echo "== $(basename "$f" .md)"; cut -d'|' -f2,3,5,6,7,8,9,10 "$f" | grep -v -- "---"; done
