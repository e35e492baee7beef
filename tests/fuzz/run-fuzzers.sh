#!/bin/sh
# Builds every fuzz target with libFuzzer (clang-19, -fsanitize=fuzzer,address,undefined) and runs
# each for a bounded time over a copy of the committed corpus. Fails on any crash, leak, sanitizer
# report or broken invariant; the input that failed is left in <build-dir>/fuzz/artifacts.
# Usage: run-fuzzers.sh <build-dir> <seconds-per-target>
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 <build-dir> <seconds-per-target>" >&2
    exit 2
fi
build=$1
seconds=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cc=${CC_FUZZ:-clang-19}
out="$build/fuzz"
mkdir -p "$out/artifacts"

flags="-std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I$root/arch"
lib_src=$(sed -n 's|.*${CMAKE_CURRENT_LIST_DIR}/\(arch_[a-z_]*\.c\).*|\1|p' "$root/arch/readers.cmake")
objs=""
for s in $lib_src; do
    $cc $flags -fsanitize=fuzzer-no-link -c "$root/arch/$s" -o "$out/${s%.c}.o"
    objs="$objs $out/${s%.c}.o"
done

status=0
for src in "$here"/fuzz_*.c; do
    t=$(basename "$src" .c)
    t=${t#fuzz_}
    $cc $flags "$src" $objs -o "$out/fuzz_$t"
    rm -rf "$out/corpus-$t"
    mkdir -p "$out/corpus-$t"
    for d in "$t" image regressions; do
        if [ -d "$here/corpus/$d" ]; then
            cp "$here/corpus/$d"/* "$out/corpus-$t/"
        fi
    done
    echo "== fuzz_$t: $seconds s"
    if ! "$out/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
            -artifact_prefix="$out/artifacts/$t-" "$out/corpus-$t" > "$out/fuzz_$t.log" 2>&1; then
        echo "fuzz_$t FAILED (log: $out/fuzz_$t.log)"
        tail -n 40 "$out/fuzz_$t.log"
        status=1
    else
        tail -n 1 "$out/fuzz_$t.log"
    fi
done
exit $status
