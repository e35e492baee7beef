#!/usr/bin/env bash
# The forward with a mask where the raw pack was kept in shared memory (hsm_fwd_conv: ONLINE's tiles,
# SPLIT's staged columns) combining the mask through hsm_masked, per mask type, against the library
# before (one loop choosing bool or additive per element), side by side in one run (OLD_BENCH with
# OLD_LIBDIR first on the library path, NEW_BENCH), three rounds in rotating order: additive masks of
# each dtype and a bool mask on ONLINE and SPLIT, the scale alone on both (the same code, no mask),
# and the plain forward as a control; then the scale alone on the auto plan's long rows.
# Usage: bench/ab-conv-mask.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
cases=(
  "--dtype bf16 --scale 0.125 --mask add --family online --shape 4096x16384 --shape 4096x65536"
  "--dtype bf16 --scale 0.125 --mask bool --family online --shape 4096x65536"
  "--dtype fp32 --scale 0.125 --mask add --family online --shape 4096x32768"
  "--dtype bf16 --scale 0.125 --mask add --mask-dtype fp32 --family online --shape 4096x65536"
  "--dtype bf16 --scale 0.125 --family online --shape 4096x65536"
  "--dtype bf16 --scale 0.125 --mask add --family split --shape 64x131072 --shape 4096x65536"
  "--dtype fp32 --scale 0.125 --mask bool --family split --shape 64x131072"
  "--dtype bf16 --scale 0.125 --mask add --shape 4096x262144 --shape 64x262144"
  "--dtype bf16 --shape 4096x16384"
)
ab_cases 3 "" "${cases[@]}" > "$out/ab-conv-mask.md" 2>&1
# The same code with no mask (the scale alone) on the rows the auto plan gives SPLIT, and ONLINE's
# kernel forced, two rounds of 20 launches (h200-2026-11-29-conv-mask-auto-raw.md).
ab_cases 2 "--reps 20" \
  "--dtype bf16 --scale 0.125 --shape 4096x131072 --shape 4096x262144 --shape 1024x1048576" \
  "--dtype fp32 --scale 0.125 --shape 4096x65536 --shape 4096x131072" \
  "--dtype bf16 --scale 0.125 --family online --shape 4096x65536" > "$out/ab-conv-mask-auto.md" 2>&1
