#!/usr/bin/env bash
# Prints the preset for the GPU of this machine, or nothing when there is none this project builds
# for (and says why on stderr). NVIDIA, by compute capability: 8.x -> sm_80, 9.0 -> sm_90, 10.x ->
# sm_100, 12.x -> sm_120 (a target's code runs on later minors of its major); 11.x and anything after
# 12.x -> the newest preset below it, whose embedded PTX the driver compiles for the GPU. AMD: gfx908,
# gfx90a, gfx942.
# Usage: scripts/gpu-preset.sh [COMPUTE_CAPABILITY]   (e.g. 10.3: what this machine would get)
set -uo pipefail
cd "$(dirname "$0")/.."
note() { echo "gpu-preset: $*" >&2; }

cc=${1:-}
if [ -z "$cc" ] && command -v nvidia-smi >/dev/null 2>&1; then
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' ')
fi
if [[ "$cc" =~ ^([0-9]+)\.([0-9]+)$ ]]; then
  major=${BASH_REMATCH[1]}
  minor=${BASH_REMATCH[2]}
  ptx=""
  case $major in
  8) preset=sm_80 ;;
  9) preset=sm_90 ;;
  10) preset=sm_100 ;;
  11) preset=sm_100 ptx=1 ;;
  12) preset=sm_120 ;;
  *)
    if [ "$major" -lt 8 ]; then
      note "NVIDIA compute capability $cc is older than 8.0: no preset builds for it"
      exit 0
    fi
    preset=sm_120 ptx=1
    ;;
  esac
  [ "$major" = 9 ] && [ "$minor" != 0 ] && ptx=1
  if [ -n "$ptx" ]; then
    note "compute capability $cc: no preset has code for it; $preset's PTX is compiled for it by the driver when the library loads"
  fi
  # A device handle needs the GPU's own entry in arch's tables (its occupancy model).
  if ! grep -q "ARCH_NV_ENTRY(\"sm_$major$minor\"" arch/arch_targets.c; then
    note "compute capability $cc (sm_$major$minor) has no entry in arch/arch_targets.c: the $preset build runs there," \
         "but hipsoftmax_create returns NOT_SUPPORTED until one is added"
  fi
  echo "$preset"
  exit 0
elif [ -n "$cc" ]; then
  note "unrecognised compute capability '$cc'"
  exit 0
fi
if command -v rocminfo >/dev/null 2>&1; then
  gfx=$(rocminfo 2>/dev/null | grep -o -m1 -E 'gfx9(08|0a|42)')
  [ -n "$gfx" ] && { echo "$gfx"; exit 0; }
  note "rocminfo lists no gfx908, gfx90a or gfx942 GPU"
fi
exit 0
