#!/usr/bin/env bash
# Tuning sweep: the same shapes under each candidate kernel (hipsoftmax_set_kernel), to choose the
# plan's thresholds from measurements. Usage: bench/sweep-kernels.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:?build dir}
out=${2:?output dir}
bench=$(ls "$build"/bench/hipsoftmax-bench* | head -n 1)
mkdir -p "$out"
for dt in f32 bf16; do
  name=$([ $dt = f32 ] && echo fp32 || echo bf16)
  mid=(--shape 4096x512 --shape 4096x1024 --shape 4096x2048 --shape 4096x4096 --shape 4096x8192 --shape 4096x16384 --shape 4096x32768)
  long=(--shape 4096x32768 --shape 4096x65536 --shape 4096x131072 --shape 4096x262144)
  few=(--shape 4x8388608 --shape 32x1048576)
  "$bench" --dtype $name "${mid[@]}" "${long[@]}" "${few[@]}" --reps 20 | grep -E '^\|' > "$out/$dt-auto.md"
  for k in row_${dt}_v8 row_${dt}_v16 row_${dt}_v32; do
    "$bench" --dtype $name --kernel hsm_$k "${mid[@]}" --reps 20 | grep -E '^\| [0-9]' > "$out/$dt-$k.md" || true
  done
  for k in split_${dt}_v split_${dt}_vw online_${dt}_v; do
    "$bench" --dtype $name --kernel hsm_$k "${long[@]}" "${few[@]}" --reps 20 | grep -E '^\| [0-9]' > "$out/$dt-$k.md" || true
  done
done
for f in "$out"/*.md; do echo "== $(basename "$f" .md)"; cut -d'|' -f2,3,5,6,7,8,9,10 "$f" | grep -v -- "---"; done
