#!/usr/bin/env bash
# The forward with a mask tensor reading a block's packs unpredicated where they all lie in the row
# (hsm_fwd_chunk_load_m) against the library before, side by side in one run (OLD_BENCH with
# OLD_LIBDIR first on the library path, NEW_BENCH), three rounds in rotating order: attention rows
# with [B,1,S,S] masks of each dtype and a bool mask, masks per row over ROW's, WARP's and SPLIT's
# rows, and controls the change does not reach (scale alone, causal, the plain forward).
# Usage: bench/ab-mask-whole.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
attn_bf16="--dtype bf16 --scale 0.125 --heads 16 --queries 1024 --mask-batches 8 --mask-rows 1024 --shape 131072x1024"
cases=(
  "$attn_bf16 --mask add"
  "$attn_bf16 --mask add --mask-dtype fp32"
  "$attn_bf16 --mask bool"
  "--dtype fp16 --scale 0.125 --mask add --heads 32 --queries 2048 --mask-batches 4 --mask-rows 2048 --shape 262144x2048"
  "--dtype fp32 --scale 0.125 --mask add --heads 16 --queries 1024 --mask-batches 4 --mask-rows 1024 --shape 65536x1024"
  "--dtype bf16 --scale 0.125 --mask add --shape 4096x1024 --shape 4096x4096 --shape 4096x16384"
  "--dtype fp32 --scale 0.125 --mask add --shape 4096x1024 --shape 4096x4096 --shape 4096x12288"
  "--dtype bf16 --scale 0.125 --mask add --shape 16384x256 --shape 1024x65536 --shape 8x262144"
  "--dtype fp32 --scale 0.125 --mask bool --shape 4096x2048 --shape 1024x65536"
  "$attn_bf16"
  "$attn_bf16 --mask causal"
  "--dtype bf16 --shape 131072x1024 --shape 4096x4096"
)
ab_cases 3 "" "${cases[@]}" > "$out/ab-mask-whole.md" 2>&1
