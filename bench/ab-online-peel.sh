#!/usr/bin/env bash
# ONLINE's peeled backward twins copying their kept tiles asynchronously, against the library before,
# side by side in one run (OLD_BENCH with OLD_LIBDIR first on the library path, NEW_BENCH), three
# rounds in rotating order: rows at odd lengths and offsets (the peeled twins' rows) beside their
# aligned neighbours (unchanged kernels, the control).
# Usage: bench/ab-online-peel.sh OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR
# shellcheck source=bench/ab-one.sh  # sets old, oldlib, new and out from the arguments
. "$(dirname "$0")/ab-one.sh"
cases=(
  "--dtype bf16 --shape 4096x50257 --shape 4096x65535 --shape 4096x65536"
  "--dtype fp16 --shape 4096x50257 --shape 4096x50256"
  "--dtype bf16 --algo log --shape 4096x50257 --shape 4096x65535"
  "--dtype bf16 --family online --shape 4096x20001 --shape 4096x32767"
  "--dtype fp32 --family online --shape 4096x20001 --shape 4096x32767 --shape 4096x32768"
  "--dtype fp32 --algo log --shape 4096x50257 --shape 4096x65535"
  "--dtype bf16 --shape 4096x40001 --shape 1024x131071"
)
ab_cases 3 "--op bwd" "${cases[@]}" > "$out/ab-online-peel.md" 2>&1
