#!/usr/bin/env bash
# ROW's fp32 _shift twins (hsm_row_body's S: y written in 16-byte packs where its rows lie at another
# offset from 16 bytes than x's) and one mask-type dispatch for the forward's loads (softmax_ops.h's
# hsm_with_mask_type), against the library before, side by side in one run (OLD_BENCH with
# OLD_LIBDIR first on the library path, NEW_BENCH), three rounds in rotating order:
#   ab-row-shift-f32.md: the plan's kernels on fp32 rows whose x stride is cols + 1 with y dense (the
#     twins where the plan gives them), the same rows dense (controls), and the forward with masks on
#     every family that loads one (the dispatch), with the plain forward as a control;
#   ab-row-shift-f32-forced.md: the new library alone, fp32 peeled kernels against their _shift
#     twins, both forced, on x stride cols + 1 with y dense (and once x dense, y stride cols + 1),
#     132 to 16384 rows of 2001 to 30001 columns: which rows the plan should give the twins.
# Usage: bench/ab-row-shift-f32.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR [ab|forced] (default: both)
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
cases=(
  "--dtype fp32 --x-stride 12345 --shape 4096x12344"
  "--dtype fp32 --x-stride 12346 --shape 4096x12345"
  "--dtype fp32 --x-stride 12346 --shape 128x12345 --shape 1056x12345"
  "--dtype fp32 --x-stride 5002 --shape 8192x5001"
  "--dtype fp32 --x-stride 30002 --shape 4096x30001"
  "--dtype fp32 --shape 4096x12344 --shape 4096x12345"
  "--dtype bf16 --scale 0.125 --mask add --heads 16 --queries 1024 --mask-batches 8 --mask-rows 1024 --shape 131072x1024"
  "--dtype bf16 --scale 0.125 --mask bool --family row --shape 4096x16384"
  "--dtype fp32 --scale 0.125 --mask add --family row --shape 4096x8192"
  "--dtype bf16 --scale 0.125 --mask add --family warp --shape 65536x512"
  "--dtype bf16 --scale 0.125 --mask add --family online --shape 4096x65536"
  "--dtype bf16 --scale 0.125 --mask add --mask-dtype fp32 --family split --shape 64x131072"
  "--dtype bf16 --scale 0.125 --shape 4096x16384"
  "--dtype bf16 --shape 4096x16384"
)
part=${5:-both}
[ "$part" = forced ] || ab_cases 3 "" "${cases[@]}" > "$out/ab-row-shift-f32.md" 2>&1
[ "$part" = ab ] && exit 0
forced() { # rounds, then groups "C hipsoftmax-bench options": hsm_row_f32_v<C>_peel and _shift forced
  local rounds=$1 round g c rest k
  shift
  for round in $(seq 1 "$rounds"); do
    for g in "$@"; do
      read -r c rest <<< "$g"
      for k in peel shift; do
        [ $((round % 2)) = 0 ] && k=$([ $k = peel ] && echo shift || echo peel)
        echo "## round $round $k v$c $rest"
        # shellcheck disable=SC2086  # the options, split on purpose
        "$new" --kernel "hsm_row_f32_v${c}_$k" $rest
      done
    done
  done
}
# C = 32 from 160 threads a block (5001 columns) to 960 (30001); x's rows at other offsets than y's
# either way (x stride cols + 1 with y dense, and x dense with y stride cols + 1).
forced 3 "32 --dtype fp32 --x-stride 12346 --shape 132x12345 --shape 528x12345 --shape 1056x12345 --shape 4096x12345 --shape 16384x12345" \
  "32 --dtype fp32 --y-stride 12346 --shape 4096x12345" \
  "32 --dtype fp32 --x-stride 5002 --shape 8192x5001" \
  "32 --dtype fp32 --x-stride 6002 --shape 8192x6001" \
  "32 --dtype fp32 --x-stride 8002 --shape 4096x8001 --shape 8192x8001" \
  "32 --dtype fp32 --x-stride 10002 --shape 4096x10001" \
  "32 --dtype fp32 --x-stride 30002 --shape 132x30001 --shape 1056x30001 --shape 4096x30001" \
  "20 --dtype fp32 --x-stride 5002 --shape 132x5001 --shape 1056x5001 --shape 4096x5001 --shape 16384x5001" \
  "24 --dtype fp32 --x-stride 12346 --shape 4096x12345" \
  "28 --dtype fp32 --x-stride 12346 --shape 4096x12345" \
  "16 --dtype fp32 --x-stride 2002 --shape 1056x2001 --shape 4096x2001 --shape 16384x2001" > "$out/ab-row-shift-f32-forced.md" 2>&1
