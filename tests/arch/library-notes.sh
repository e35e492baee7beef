#!/bin/sh
# arch.reader.library_notes.amd: the library's own AMD code objects, read by arch/, against
# llvm-readelf --notes. Takes the library's object files, unbundles each kernel source's .hip_fatbin
# per target and hands (code object, notes) pairs to reader_amdgpu --library.
# Usage: library-notes.sh READER OBJCOPY BUNDLER READELF TARGET[,TARGET...] OBJECT...
set -eu
reader=$1 objcopy=$2 bundler=$3 readelf=$4 targets=$5
shift 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# CTest passes the object list as one ;-separated argument: split on ';' only (paths may hold blanks).
set -f
old_ifs=$IFS
IFS=';'
# shellcheck disable=SC2048,SC2086
set -- $*
IFS=$old_ifs
pairs=""
for obj in "$@"; do
    case "$obj" in *.hip.o) ;; *) continue ;; esac
    base=$(basename "$obj" .hip.o)
    "$objcopy" --dump-section .hip_fatbin="$tmp/$base.bundle" "$obj" "$tmp/$base.copy"
    for t in $(echo "$targets" | tr ',' ' '); do
        "$bundler" --unbundle --type=o --input="$tmp/$base.bundle" \
            --targets="hipv4-amdgcn-amd-amdhsa--$t" --output="$tmp/$base.$t.co"
        "$readelf" --notes "$tmp/$base.$t.co" > "$tmp/$base.$t.notes"
        pairs="$pairs $tmp/$base.$t.co $tmp/$base.$t.notes"
    done
done
[ -n "$pairs" ] || { echo "no kernel objects among the arguments" >&2; exit 1; }
# mktemp's folder has no blanks, so the list splits into exactly its paths.
set +f
# shellcheck disable=SC2086
"$reader" --library $pairs
echo "checked:$pairs" | tr ' ' '\n' | grep -c '\.co$' | sed 's/^/code objects compared with llvm-readelf: /'

