#!/bin/sh
# arch.reader.library_ptxas.nvidia: the library's own NVIDIA kernels, read by arch/ from its kernel
# objects, against ptxas -v's report of the same compile (<object>.ptxas, written by
# cmake/ptxas-report.cmake). Every kernel object needs its report, and every report a block for
# each SASS target; reader_cubin --library then compares each (object, report) pair kernel by kernel.
# Usage: library-ptxas.sh READER TARGET[,TARGET...] OBJECT...
set -eu
reader=$1 targets=$2
shift 2
# CTest passes the object list as one ;-separated argument: split on ';' only (paths may hold blanks).
set -f
old_ifs=$IFS
IFS=';'
# shellcheck disable=SC2048,SC2086
set -- $*
IFS=$old_ifs
n=0
for obj in "$@"; do
    case "$obj" in *.hip.o) ;; *) continue ;; esac
    [ -f "$obj.ptxas" ] || { echo "$obj: no ptxas report beside it ($obj.ptxas)" >&2; exit 1; }
    for t in $(echo "$targets" | tr ',' ' '); do
        grep -q "for '$t'" "$obj.ptxas" || { echo "$obj.ptxas: no kernel compiled for $t" >&2; exit 1; }
    done
    set -- "$@" "$obj" "$obj.ptxas"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no kernel objects among the arguments" >&2; exit 1; }
# The pairs follow the original arguments: drop those.
shift $(($# - 2 * n))
"$reader" --library "$@"
echo "kernel objects compared with ptxas -v: $n"
