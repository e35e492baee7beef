#!/usr/bin/env bash
# Issue 14's weak shapes beside their aligned neighbours, one table: rows whose length is a multiple
# of no vector width (4096x12345 fp32, 4096x50257 bf16, 4096x781 fp32) next to the neighbour that is
# (12344, 50256, 784); the tutorial's 1823x781; short rows (16384x128); few long rows (64x128256 bf16,
# 8x262144 fp32); the bf16 M=4096 ladder; 4096x12344 fp32 with x rows padded to 12345 and y dense
# (every x row off 16 bytes, the same data as the dense neighbour); odd rows whose x and y lie at
# different offsets from 16 bytes (x stride cols + 1, y dense); odd rows of the other dtypes and
# lengths beside their neighbours (bf16 4097, fp16 32771, fp32 1023); odd short rows (WARP: fp16 77
# columns, CLIP's sequence; 127) and odd few long rows (bf16 64 x 50257, decoding GPT-2; fp32
# 128 x 12345: SPLIT's on 16 bytes).
#
# Each line: the plan's family and kernel, the median time, GB/s (bytes the op must move / time), and
# that as a share of the device-to-device copy of 1 GiB (copy_peak) and of a copy moving as many
# bytes with the same buffer rotation (copy_same), both measured by hipsoftmax-bench in the same
# process; for a weak shape, its GB/s over its neighbour's.
# bench/compare.py takes no shapes (its list is fixed), so the other libraries are not run here.
#
# Usage: bench/run-weak.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR: build/sm_90 of this checkout)
# Writes OUT_DIR/weak.md (the table, also on stdout), OUT_DIR/weak.csv (every bench column, one line
# a shape, labelled) and OUT_DIR/raw/ (each bench run's own output).
set -euo pipefail
out=${1:?usage: bench/run-weak.sh OUT_DIR [BUILD_DIR]}
build=${2:-$(cd "$(dirname "$0")/.." && pwd)/build/sm_90}
benches=("$build"/bench/hipsoftmax-bench*)
bench=${benches[0]}
if [[ ! -x "$bench" ]]; then
    echo "no hipsoftmax-bench under $build/bench: build it first (cmake --build --preset sm_90)" >&2
    exit 1
fi
mkdir -p "$out/raw"

# label | dtype | rows | cols | extra bench options | the label of its aligned neighbour (or -)
cases=(
    "fp32-4096x12345|fp32|4096|12345||fp32-4096x12344"
    "fp32-4096x12344|fp32|4096|12344||-"
    "bf16-4096x50257|bf16|4096|50257||bf16-4096x50256"
    "bf16-4096x50256|bf16|4096|50256||-"
    "fp32-4096x781|fp32|4096|781||fp32-4096x784"
    "fp32-4096x784|fp32|4096|784||-"
    "fp32-1823x781|fp32|1823|781||-"
    "fp32-16384x128|fp32|16384|128||-"
    "bf16-64x128256|bf16|64|128256||-"
    "fp32-8x262144|fp32|8|262144||-"
    "bf16-4096x4096|bf16|4096|4096||-"
    "bf16-4096x16384|bf16|4096|16384||-"
    "bf16-4096x65536|bf16|4096|65536||-"
    "bf16-4096x262144|bf16|4096|262144||-"
    "fp32-4096x12344-xs12345|fp32|4096|12344|--x-stride 12345 --y-stride 12344|fp32-4096x12344"
    "fp32-4096x12345-xs12346|fp32|4096|12345|--x-stride 12346 --y-stride 12345|fp32-4096x12344"
    "bf16-4096x50257-xs50258|bf16|4096|50257|--x-stride 50258 --y-stride 50257|bf16-4096x50256"
    "bf16-4096x4097|bf16|4096|4097||bf16-4096x4104"
    "bf16-4096x4104|bf16|4096|4104||-"
    "fp16-4096x32771|fp16|4096|32771||fp16-4096x32768"
    "fp16-4096x32768|fp16|4096|32768||-"
    "fp32-4096x1023|fp32|4096|1023||fp32-4096x1024"
    "fp32-4096x1024|fp32|4096|1024||-"
    "fp16-65536x77|fp16|65536|77||fp16-65536x80"
    "fp16-65536x80|fp16|65536|80||-"
    "bf16-16384x127|bf16|16384|127||bf16-16384x128"
    "bf16-16384x128|bf16|16384|128||-"
    "fp32-16384x127|fp32|16384|127||fp32-16384x128"
    "bf16-64x50257|bf16|64|50257||bf16-64x50256"
    "bf16-64x50256|bf16|64|50256||-"
    "fp32-128x12345|fp32|128|12345||fp32-128x12344"
    "fp32-128x12344|fp32|128|12344||-"
)

csv="$out/weak.csv"
header_done=0
for c in "${cases[@]}"; do
    IFS='|' read -r label dtype rows cols extra _ <<<"$c"
    # shellcheck disable=SC2086 # extra holds separate options
    if ! "$bench" --dtype "$dtype" --shape "${rows}x${cols}" $extra --csv "$out/raw/$label.csv" >"$out/raw/$label.md" 2>&1; then
        echo "$label: hipsoftmax-bench failed (see $out/raw/$label.md)" >&2
        continue
    fi
    if [[ $(wc -l <"$out/raw/$label.csv") -lt 2 ]]; then # the bench writes no CSV line for a shape it cannot plan
        echo "$label: no result (see $out/raw/$label.md)" >&2
        continue
    fi
    if [[ $header_done == 0 ]]; then
        echo "label,$(head -n 1 "$out/raw/$label.csv")" >"$csv"
        header_done=1
    fi
    echo "$label,$(sed -n 2p "$out/raw/$label.csv")" >>"$csv"
done

if [[ $header_done == 0 ]]; then
    echo "no shape gave a result" >&2
    exit 1
fi

# The CSV's column `name` of the line labelled `label` (empty when that shape has no result).
field() {
    awk -F, -v l="$2" -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } $1 == l { print $col[n] }' "$csv"
}

# The table, from the CSV's columns by name.
{
    device=$(awk -F, 'NR == 2 { print $2 }' "$csv")
    echo "hipsoftmax-bench, forward softmax, $device; GB/s = bytes moved at least / median time;"
    echo "copy_peak: hipMemcpy D2D of 1 GiB; copy_same: a D2D copy of the op's bytes, same rotation"
    echo
    echo "| shape | dtype | x stride | family | kernel | grid x block | us | GB/s | % of copy_peak | % of copy_same | vs aligned |"
    echo "|---|---|---:|---|---|---|---:|---:|---:|---:|---:|"
    for c in "${cases[@]}"; do
        IFS='|' read -r label _ _ _ _ neighbour <<<"$c"
        if [[ -z "$(field gbs "$label")" ]]; then
            echo "| $label | | | | (no result) | | | | | | |"
            continue
        fi
        vs="-"
        if [[ "$neighbour" != "-" && -n "$(field gbs "$neighbour")" ]]; then
            vs=$(awk -v a="$(field gbs "$label")" -v b="$(field gbs "$neighbour")" 'BEGIN { printf "%.3f", a / b }')
        fi
        awk -F, -v l="$label" -v vs="$vs" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            $1 == l { geo = $col["grid"] "x" $col["block"]
              if ($col["blocks_per_row"] > 1) geo = geo " (" $col["blocks_per_row"] "/row)"
              printf "| %sx%s | %s | %s | %s | %s | %s | %s | %s | %.1f | %.1f | %s |\n",
                  $col["rows"], $col["cols"], $col["dtype"], $col["row_stride"], $col["family"], $col["kernel"], geo,
                  $col["us"], $col["gbs"], 100 * $col["share_peak"], 100 * $col["share_same"], vs }' "$csv"
    done
} | tee "$out/weak.md"
