#!/usr/bin/env bash
# WARP's short rows, the plain forward of dense rows (issue 14), two libraries side by side in one run:
# the bench and library before a change (OLD_BENCH, with OLD_LIBDIR first on the library path) and
# after it (NEW_BENCH), two rounds, the second in the reverse order; odd row lengths beside their
# aligned neighbours (fp16 65536 x 77, CLIP's sequence, against 80; 127 against 128; 33 against 32;
# 509/511 against 512) and small problems. Then each of WARP's staged kernels (16-bit, _flat_w1 ..
# _w32) forced on the new library over the same shapes, aligned ones included: which C, and where
# the staging pays.
# Usage: bench/ab-warp.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
shapes16=(--shape 65536x77 --shape 65536x80 --shape 16384x127 --shape 16384x128 --shape 65536x33
          --shape 65536x32 --shape 4096x509 --shape 4096x512 --shape 262144x77 --shape 262144x80)
shapes32=(--shape 16384x127 --shape 16384x128 --shape 65536x77 --shape 65536x80 --shape 4096x511
          --shape 4096x512 --shape 8192x257 --shape 8192x256 --shape 65536x33 --shape 65536x32)
one() { # which (old|new), dtype, options...: the dtype's shapes
  local which=$1 dt=$2
  shift 2
  local s=("${shapes16[@]}")
  [ "$dt" = fp32 ] && s=("${shapes32[@]}")
  ab_one "$which" --dtype "$dt" "$@" "${s[@]}"
}
for round in 1 2; do
  for dt in fp16 bf16 fp32; do
    for which in $(ab_order $round); do
      echo "## round $round $which $dt"
      one "$which" "$dt"
    done
  done
done > "$out/ab-warp.md" 2>&1
for dt in fp16 bf16; do
  k=f16
  [ $dt = bf16 ] && k=bf16
  for c in w1 w2 w4 w8 w16 w32; do
    echo "## forced hsm_warp_${k}_flat_$c"
    one new $dt --kernel "hsm_warp_${k}_flat_$c"
  done
done > "$out/ab-warp-forced.md" 2>&1
