#!/usr/bin/env bash
# ONLINE's backward loading a row's last tile while its kept tiles are copied, against the library before,
# side by side in one run (OLD_BENCH with OLD_LIBDIR first on the library path, NEW_BENCH), three
# rounds in rotating order: rows whose last tile is part full (16-bit 50256, fp32 24600), full,
# or kept in shared memory with the others (fp32 20480, forced bf16 32768), softmax and log-softmax.
# Usage: bench/ab-online-last-tile.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
cases=(
  "--dtype bf16 --shape 4096x50256 --shape 4096x50257 --shape 4096x49200 --shape 4096x65536"
  "--dtype fp16 --shape 4096x50256 --shape 4096x40000"
  "--dtype bf16 --algo log --shape 4096x50256 --shape 4096x65536"
  "--dtype fp32 --family online --shape 4096x24600 --shape 4096x20480 --shape 4096x32768 --shape 4096x50256"
  "--dtype fp32 --algo log --shape 4096x50256 --shape 4096x65536"
  "--dtype bf16 --family online --shape 4096x32768 --shape 4096x16384"
  "--dtype fp32 --dy-dtype bf16 --shape 4096x32768"
)
ab_cases 3 "--op bwd" "${cases[@]}" > "$out/ab-online-last-tile.md" 2>&1
