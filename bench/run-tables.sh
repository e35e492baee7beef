#!/usr/bin/env bash
# Runs the benchmark tables kept in bench/results/: fp32 and bf16 at M=4096 (N=128..262144), the
# short rows at M=1024, the few-long-rows shapes, rows longer than the GPU holds on chip (to 2^27
# columns), and padded rows that start off their 128-byte line. Usage: bench/run-tables.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:?build dir}
out=${2:?output dir}
bench=$(ls "$build"/bench/hipsoftmax-bench* | head -n 1)
mkdir -p "$out"
long=()
for n in 2048 4096 8192 16384 32768 65536 131072 262144; do long+=(--shape 4096x$n); done
short=()
for n in 128 256 512 1024; do short+=(--shape 4096x$n --shape 1024x$n); done
"$bench" --dtype fp32 "${short[@]}" "${long[@]}" --shape 4x8388608 --shape 32x1048576 --csv "$out/fp32.csv" | tee "$out/fp32.md"
"$bench" --dtype bf16 "${short[@]}" "${long[@]}" --csv "$out/bf16.csv" | tee "$out/bf16.md"
"$bench" --dtype fp16 --shape 4096x4096 --shape 4096x16384 --shape 4096x65536 --csv "$out/fp16.csv" | tee "$out/fp16.md"
huge=(--shape 1x134217728 --shape 2x20000000 --shape 8x16777216)
"$bench" --dtype fp32 "${huge[@]}" --reps 10 --csv "$out/huge-fp32.csv" | tee "$out/huge-fp32.md"
"$bench" --dtype bf16 "${huge[@]}" --reps 10 --csv "$out/huge-bf16.csv" | tee "$out/huge-bf16.md"
padded=(--shape 4096x16384 --shape 4096x65536 --shape 4096x131072 --shape 4096x262144 --shape 32x1048576)
"$bench" --dtype fp32 --pad 4 "${padded[@]}" --csv "$out/pad-fp32.csv" | tee "$out/pad-fp32.md"
"$bench" --dtype bf16 --pad 8 "${padded[@]}" --csv "$out/pad-bf16.csv" | tee "$out/pad-bf16.md"
