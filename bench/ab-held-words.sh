#!/usr/bin/env bash
# The backward's loads holding 16-bit packs as words (hsm_held) and SPLIT's fp32 staging copied
# asynchronously, against the library before them, side by side in one run: the bench and library
# before (OLD_BENCH, with OLD_LIBDIR first on the library path) and after (NEW_BENCH), three rounds in
# rotating order. Each family whose backward loads through hsm_bwd_chunk_load: ONLINE's 16-bit rows
# (4096 x 32K-64K, forced at 32K), SPLIT's fp32 and 16-bit rows (4096 x 64K-256K, few long rows),
# bf16 y and dy with an fp32 dx (ROW's words kernel at 8K, ONLINE at 16K), ROW's fp32-held kernel
# (bf16 y with an fp32 dy), WARP's short 16-bit rows, and fp32 y with a bf16 dy on ONLINE.
# Usage: bench/ab-held-words.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
cases=(
  "--dtype bf16 --shape 4096x65536 --shape 4096x50257"
  "--dtype bf16 --algo log --shape 4096x65536"
  "--dtype fp16 --shape 4096x65536"
  "--dtype bf16 --family online --shape 4096x32768"
  "--dtype fp32 --shape 4096x65536 --shape 4096x131072 --shape 4096x262144"
  "--dtype fp32 --algo log --shape 4096x65536 --shape 4096x131072"
  "--dtype fp32 --shape 8x262144 --shape 64x131072"
  "--dtype bf16 --shape 8x262144 --shape 64x131072 --shape 4096x131072"
  "--dtype fp32 --y-dtype bf16 --shape 4096x8192 --shape 4096x16384"
  "--dtype bf16 --dy-dtype fp32 --shape 4096x8192"
  "--dtype fp32 --dy-dtype bf16 --shape 4096x32768"
  "--dtype bf16 --shape 65536x512 --shape 65536x128"
  "--dtype bf16 --shape 4096x16384"
)
ab_cases 3 "--op bwd" "${cases[@]}" > "$out/ab-held-words.md" 2>&1
