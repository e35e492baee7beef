#!/usr/bin/env bash
# WARP's packed forward (hsm_warp_<dt>_p32_fwd, _p64_fwd: one row a warp, 16-bit rows held as stored)
# against the kernels the plan gave the same rows before it, one library, one process a case: causal
# attention rows (scale 1/8, [B,H,S,S] scores: bf16 8x16x1024^2, fp16 4x32x2048^2), the same rows
# at scale alone and plain, and log-softmax at M=4096 and on the attention rows. Two rounds, the second
# in reverse order (short launches run slower in whichever case goes first).
# Usage: bench/run-causal-warp.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:?build dir}
out=${2:?output dir}
bench=$(ls "$build"/bench/hipsoftmax-bench* | head -n 1)
mkdir -p "$out"
cases=(
  "causal-bf16|--dtype bf16 --scale 0.125 --mask causal --queries 1024 --shape 131072x1024"
  "causal-bf16-row|--dtype bf16 --scale 0.125 --mask causal --queries 1024 --shape 131072x1024 --kernel hsm_row_bf16_v32_fwd"
  "scale-bf16|--dtype bf16 --scale 0.125 --shape 131072x1024"
  "scale-bf16-warp|--dtype bf16 --scale 0.125 --shape 131072x1024 --kernel hsm_warp_bf16_p32_fwd"
  "plain-bf16|--dtype bf16 --shape 131072x1024"
  "log-bf16|--dtype bf16 --algo log --shape 4096x1024 --shape 131072x1024"
  "log-bf16-warp|--dtype bf16 --algo log --shape 4096x1024 --shape 131072x1024 --kernel hsm_warp_bf16_p32_fwd"
  "causal-f16|--dtype fp16 --scale 0.125 --mask causal --queries 2048 --shape 262144x2048"
  "causal-f16-row|--dtype fp16 --scale 0.125 --mask causal --queries 2048 --shape 262144x2048 --kernel hsm_row_f16_p64_fwd"
  "scale-f16|--dtype fp16 --scale 0.125 --shape 262144x2048"
  "scale-f16-warp|--dtype fp16 --scale 0.125 --shape 262144x2048 --kernel hsm_warp_f16_p64_fwd"
  "plain-f16|--dtype fp16 --shape 262144x2048"
  "log-f16|--dtype fp16 --algo log --shape 4096x2048"
  "log-f16-warp|--dtype fp16 --algo log --shape 4096x2048 --kernel hsm_warp_f16_p64_fwd"
)
for round in 1 2; do
  order=("${cases[@]}")
  if [ "$round" = 2 ]; then
    order=()
    for ((i = ${#cases[@]} - 1; i >= 0; i--)); do order+=("${cases[$i]}"); done
  fi
  for c in "${order[@]}"; do
    echo "## round $round ${c%%|*}"
    # shellcheck disable=SC2086  # the case's options, split on purpose
    "$bench" ${c#*|}
  done
done | tee "$out/causal-warp.log"
