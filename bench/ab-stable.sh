#!/usr/bin/env bash
# The plain forward of two library versions timed by ONE binary (bench/ab_stable.c, stable API only),
# built against the older version's header and run with each library first on the library path: the
# newer library is offered under the older one's SONAME. Three rounds, alternating, fp32 and bf16.
# NVIDIA only (the binary links cudart).
# Usage: bench/ab-stable.sh OLD_INCLUDE_DIR OLD_LIBDIR NEW_LIBDIR OUT_DIR
set -euo pipefail
oldinc=${1:?old include dir} oldlib=${2:?old library dir} newlib=${3:?new library dir} out=${4:?output dir}
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out/newlib"
soname=$(cd "$oldlib" && ls libhipsoftmax*.so.0 | head -n 1)       # e.g. libhipsoftmax.so.0 (0.1)
newso=$(cd "$newlib" && ls libhipsoftmax*.so.0 | head -n 1)
ln -sf "$(cd "$newlib" && pwd)/$newso" "$out/newlib/$soname"
name=${soname#lib}; name=${name%.so.0}
cc -std=c11 -O2 -I "$oldinc" -I "$here/../hip" -D__HIP_PLATFORM_NVIDIA__ -I "$cuda/include" "$here/ab_stable.c" \
   -L "$oldlib" -l"$name" -L "$cuda/lib64" -lcudart -o "$out/ab-stable"
shapes=(4096x1024 4096x4096 4096x16384 4096x32768 4096x65536 4096x262144)
for round in 1 2 3; do
  for dt in fp32 bf16; do
    for v in old new; do
      if [ $v = old ]; then lib=$oldlib; else lib=$out/newlib; fi
      echo "## round $round, $v, $dt"
      LD_LIBRARY_PATH="$lib" "$out/ab-stable" $dt "${shapes[@]}"
    done
  done
done | tee "$out/ab-stable.md"
