#!/bin/sh
# Builds every fuzz target with libFuzzer (clang-19, -fsanitize=fuzzer,address,undefined) and runs
# each for a bounded time over a copy of the committed corpus. Fails on any crash, leak, sanitizer
# report or broken invariant; the input that failed is left in <build-dir>/fuzz/artifacts.
# Then a large-input job: the inputs of tests/arch/bounds.c (4-17 MB each, generated here) as
# seeds, inputs up to FUZZ_LARGE_MAX_LEN bytes, FUZZ_LARGE_SECONDS per target (default 25), and a
# 2-second limit per input, so that work growing faster than the input fails as a timeout.
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
# the readers and the target tables (their lookups normalise target names; the checks look targets up)
lib_src=$(sed -n 's|.*${CMAKE_CURRENT_LIST_DIR}/\(arch_[a-z_]*\.c\).*|\1|p' "$root/arch/readers.cmake" \
          "$root/arch/models.cmake")
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

# Large inputs. The committed seeds are a few KB and -max_len=65536 keeps mutants that size, where a
# reader that rescans a table per entry still looks fast. Seeded with inputs that once took minutes,
# mutants of up to 20 MB must each finish within 2 s (the fixed readers need well under 1 s under
# these sanitizers: arch.bounds.*). The mutants found are kept out of the corpus directories.
large_seconds=${FUZZ_LARGE_SECONDS:-25}
large_max_len=${FUZZ_LARGE_MAX_LEN:-20000000}
srcs=""
for s in $lib_src; do
    srcs="$srcs $root/arch/$s"
done
# shellcheck disable=SC2086
${CC_GEN:-$cc} -std=c11 -O2 -I"$root/arch" -I"$root/tests/arch" "$root/tests/arch/bounds.c" $srcs -o "$out/gen-large"
rm -rf "$out/large-seeds"
mkdir -p "$out/large-seeds"
"$out/gen-large" --write "$out/large-seeds"
for t in image amdgpu bundle cubin fatbin; do
    rm -rf "$out/large-corpus-$t"
    mkdir -p "$out/large-corpus-$t"
    echo "== fuzz_$t, large inputs: $large_seconds s"
    if ! "$out/fuzz_$t" -max_total_time="$large_seconds" -timeout=2 -rss_limit_mb=4096 -max_len="$large_max_len" \
            -len_control=0 -artifact_prefix="$out/artifacts/large-$t-" "$out/large-corpus-$t" "$out/large-seeds" \
            > "$out/fuzz_${t}_large.log" 2>&1; then
        echo "fuzz_$t (large inputs) FAILED (log: $out/fuzz_${t}_large.log)"
        tail -n 40 "$out/fuzz_${t}_large.log"
        status=1
    else
        tail -n 1 "$out/fuzz_${t}_large.log"
    fi
    rm -rf "$out/large-corpus-$t"
done
exit $status
