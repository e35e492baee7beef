#!/usr/bin/env bash
# Benchmark tables of the softmax family (bench/results/): log-softmax and softmax forward, softmax
# and log-softmax backward at M=4096, N=1K..64K (fp32, bf16); scale + [B,1,S,S] additive mask over
# [B,H,S,S] scores, causal and plain at the same shapes (bf16 8x16x1024^2, fp16 4x32x2048^2); the
# common dtype pairs. Usage: bench/run-ops.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:?build dir}
out=${2:?output dir}
bench=$(ls "$build"/bench/hipsoftmax-bench* | head -n 1)
mkdir -p "$out"
shapes=()
for n in 1024 4096 16384 65536; do shapes+=(--shape 4096x$n); done
for dt in fp32 bf16; do
  "$bench" --dtype $dt "${shapes[@]}" --csv "$out/fwd-$dt.csv" | tee "$out/fwd-$dt.md"
  "$bench" --dtype $dt --algo log "${shapes[@]}" --csv "$out/log-$dt.csv" | tee "$out/log-$dt.md"
  "$bench" --op bwd --dtype $dt "${shapes[@]}" --csv "$out/bwd-$dt.csv" | tee "$out/bwd-$dt.md"
  "$bench" --op bwd --algo log --dtype $dt "${shapes[@]}" --csv "$out/logbwd-$dt.csv" | tee "$out/logbwd-$dt.md"
done
"$bench" --dtype bf16 --y-dtype fp32 "${shapes[@]}" --csv "$out/fwd-bf16-fp32.csv" | tee "$out/fwd-bf16-fp32.md"
"$bench" --dtype fp32 --y-dtype bf16 "${shapes[@]}" --csv "$out/fwd-fp32-bf16.csv" | tee "$out/fwd-fp32-bf16.md"
# Attention: rows = B*H*S, a [B,1,S,S] mask shared by the heads, scale 1/8.
attn() { # dtype B H S
  local dt=$1 b=$2 h=$3 s=$4 r=$(($2 * $3 * $4))
  "$bench" --dtype $dt --scale 0.125 --mask add --heads $h --queries $s --mask-batches $b --mask-rows $s \
    --shape ${r}x$s --csv "$out/mask-$dt.csv" | tee "$out/mask-$dt.md"
  "$bench" --dtype $dt --scale 0.125 --mask causal --queries $s --shape ${r}x$s --csv "$out/causal-$dt.csv" \
    | tee "$out/causal-$dt.md"
  "$bench" --dtype $dt --scale 0.125 --shape ${r}x$s --csv "$out/plain-attn-$dt.csv" | tee "$out/plain-attn-$dt.md"
}
attn bf16 8 16 1024
attn fp16 4 32 2048
