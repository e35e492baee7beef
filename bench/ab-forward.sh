#!/usr/bin/env bash
# The plain forward of two libraries side by side in one run: the bench and library before a change
# (OLD_BENCH, with OLD_LIBDIR first on the library path) and after it (NEW_BENCH), alternating, two
# rounds each, on the shapes the change could move. Usage: bench/ab-forward.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
set -euo pipefail
old=${1:?old bench} oldlib=${2:?old library dir} new=${3:?new bench} out=${4:?output dir}
mkdir -p "$out"
shapes=()
for n in 256 1024 4096 16384 32768 65536 262144; do shapes+=(--shape 4096x$n); done
for round in 1 2; do
  for dt in fp32 bf16; do
    LD_LIBRARY_PATH="$oldlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$old" --dtype $dt "${shapes[@]}" \
      | tee "$out/old-$dt-$round.md"
    "$new" --dtype $dt "${shapes[@]}" | tee "$out/new-$dt-$round.md"
  done
done
