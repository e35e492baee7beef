#!/usr/bin/env bash
# CHANNEL mode of two libraries side by side in one run: the bench and library before a change
# (OLD_BENCH, with OLD_LIBDIR first on the library path) and after it (NEW_BENCH), two rounds, the
# second in the reverse order, forward (softmax and log-softmax) and backward, fp32, fp16 and bf16, on
# the shapes of issue 13 and the bench's CHANNEL shapes; then each kernel named in HSM_AB_KERNELS
# forced on the new library over the same forward shapes of its dtype.
# Usage: [HSM_AB_KERNELS="name ..."] bench/ab-channel.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
shapes=(--shape 16x150x16384 --shape 32x64x16384 --shape 64x21x4096 --shape 64x150x1024 --shape 16x19x16384
        --shape 128x21x1024 --shape 2x150x4096 --shape 256x1000x4 --shape 1024x21x3 --shape 32x128x8192
        --shape 64x32x16384)
for round in 1 2; do
  for dt in fp32 bf16 fp16; do
    for op in fwd fwdlog bwd; do
      case $op in fwd) args=() ;; fwdlog) args=(--algo log) ;; bwd) args=(--op bwd) ;; esac
      for which in $(ab_order $round); do
        echo "## round $round $which $dt $op"
        ab_one "$which" --dtype "$dt" "${args[@]}" "${shapes[@]}"
      done
    done
  done
done > "$out/ab-channel.md" 2>&1
for k in ${HSM_AB_KERNELS:-}; do
  dt=fp32
  case $k in *bf16*) dt=bf16 ;; *f16*) dt=fp16 ;; esac
  echo "## forced $k"
  "$new" --dtype "$dt" --kernel "$k" "${shapes[@]}"
done > "$out/ab-channel-forced.md" 2>&1
