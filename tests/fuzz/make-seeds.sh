#!/bin/sh
# Regenerates the real code objects of the seed corpus (tests/fuzz/corpus/*/seed_*) from
# tests/fuzz/seeds/. Needs clang++-19, llvm-objcopy-19 and nvcc; run from any directory.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
c="$here/corpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$c/amdgpu" "$c/bundle" "$c/cubin" "$c/fatbin" "$c/image" "$c/msgpack"
hip="clang++-19 -x hip -O2 -nogpulib -nogpuinc"
$hip --offload-arch=gfx90a --offload-device-only --no-gpu-bundle-output "$here/seeds/seed.hip" -o "$c/amdgpu/seed_gfx90a.co"
$hip --offload-arch=gfx908 --offload-device-only --no-gpu-bundle-output "$here/seeds/seed.hip" -o "$c/amdgpu/seed_gfx908.co"
$hip --offload-arch=gfx908 --offload-arch=gfx90a --offload-arch=gfx942 -c "$here/seeds/seed.hip" -o "$work/hip.o"
llvm-objcopy-19 --dump-section=.hip_fatbin="$c/bundle/seed_gfx908_gfx90a_gfx942.bundle" "$work/hip.o" "$work/hip.copy.o"
# the metadata note's payload alone, for the MessagePack target
llvm-objcopy-19 --dump-section=.note="$work/note" "$c/amdgpu/seed_gfx90a.co" "$work/co.copy"
tail -c +21 "$work/note" > "$c/msgpack/seed_gfx90a.msgpack"
nvcc -cubin -arch=sm_90 "$here/seeds/seed.cu" -o "$c/cubin/seed_sm_90.cubin"
nvcc -cubin -arch=sm_80 "$here/seeds/seed.cu" -o "$c/cubin/seed_sm_80.cubin"
gencode="-gencode arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=[sm_90,compute_90]"
nvcc -fatbin --no-compress $gencode "$here/seeds/seed.cu" -o "$c/fatbin/seed_sm_80_sm_90.fatbin"
nvcc -fatbin -Xfatbin=-compress-all $gencode "$here/seeds/seed.cu" -o "$c/fatbin/seed_compressed.fatbin"
nvcc -c --no-compress -arch=sm_90 "$here/seeds/seed.cu" -o "$c/image/seed_nv_host.o"
cp "$work/hip.o" "$c/image/seed_hip_host.o"
