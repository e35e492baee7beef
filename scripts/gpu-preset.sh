#!/usr/bin/env bash
# Prints the preset for the GPU of this machine (sm_80, sm_90, gfx908, gfx90a, gfx942), or nothing
# when there is none this project builds for.
set -uo pipefail
if command -v nvidia-smi >/dev/null 2>&1; then
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
  case "$cc" in
    80|86|87|89) echo sm_80; exit 0 ;;   # sm_80 code runs on every 8.x GPU
    90) echo sm_90; exit 0 ;;
  esac
fi
if command -v rocminfo >/dev/null 2>&1; then
  gfx=$(rocminfo 2>/dev/null | grep -o -m1 -E 'gfx9(08|0a|42)')
  [ -n "$gfx" ] && { echo "$gfx"; exit 0; }
fi
exit 0
