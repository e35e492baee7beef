#!/usr/bin/env bash
# Installs one build into a temporary prefix and checks what a user gets there: the layout and
# SONAMEs, that the README's "Use" lines are the ones tests/consumer uses, the consumer built with
# find_package and with pkg-config and run, and that asking for a vendor the prefix lacks fails
# with a message saying so.
# Usage: scripts/check-install.sh BUILD_DIR TARGET...   (e.g. build/nvidia sm_90 sm_100)
#   Each TARGET is one the build holds (gfx* for its AMD library, sm_* for its NVIDIA library); the
#   consumer runs an offline handle for each.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?build dir}
shift
[ $# -gt 0 ] || { echo "usage: $0 BUILD_DIR TARGET..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log"
version=$(sed -n 's/^#define HIPSOFTMAX_VERSION_STRING "\(.*\)"$/\1/p' include/hipsoftmax/hipsoftmax.h)
major=${version%%.*}
fail() { echo "check-install: $*" >&2; exit 1; }

# The README shows the consumer's lines, vendor nvidia: the same text, or the README is untested.
sed -n '/^# --- use ---$/,/^# --- end ---$/p' tests/consumer/CMakeLists.txt | grep -v '^# ---' |
  sed 's/\${HIPSOFTMAX_VENDOR}/nvidia/' >"$tmp/use.txt"
[ -s "$tmp/use.txt" ] || fail "tests/consumer/CMakeLists.txt has no '# --- use ---' block"
while IFS= read -r l; do
  grep -qxF "$l" README.md || fail "README.md lacks the consumer's line: $l"
done <"$tmp/use.txt"
grep -qF 'cc softmax_app.c $(pkg-config --cflags --libs hipsoftmax-nvidia) -o softmax_app' README.md ||
  fail "README.md lacks the consumer's pkg-config line"

vendors=()
for t in "$@"; do
  case $t in gfx*) v=amd ;; sm_*) v=nvidia ;; *) fail "unknown target $t" ;; esac
  [[ " ${vendors[*]} " == *" $v "* ]] || vendors+=("$v")
done
for v in "${vendors[@]}"; do
  lib=$prefix/lib/libhipsoftmax_$v.so.$version
  [ -f "$lib" ] || fail "$lib not installed"
  soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  [ "$soname" = "libhipsoftmax_$v.so.$major" ] || fail "$lib has SONAME '$soname'"
  for f in "lib/libhipsoftmax_$v.so.$major" "lib/libhipsoftmax_$v.so" "lib/pkgconfig/hipsoftmax-$v.pc" \
           "lib/cmake/hipsoftmax/hipsoftmax-$v-targets.cmake" "lib/cmake/hipsoftmax/hipsoftmax-$v-deps.cmake" \
           "bin/hipsoftmax-plan-$v"; do
    [ -e "$prefix/$f" ] || fail "$f not installed"
  done
done
for f in include/hipsoftmax/hipsoftmax.h include/hipsoftmax/hipsoftmax_status.h lib/pkgconfig/hipsoftmax.pc \
         lib/cmake/hipsoftmax/hipsoftmax-config.cmake lib/cmake/hipsoftmax/hipsoftmax-config-version.cmake \
         bin/hipsoftmax-occupancy; do
  [ -e "$prefix/$f" ] || fail "$f not installed"
done
echo "== $prefix (from $build):"
(cd "$prefix" && find . -type f -o -type l | sort | sed 's|^\./|  |')

for t in "$@"; do
  case $t in gfx*) v=amd ;; *) v=nvidia ;; esac
  tests/consumer/run.sh "$prefix" "$v" "$t"
  # The installed plan report runs from the prefix (RUNPATH $ORIGIN/../lib), without a GPU.
  "$prefix/bin/hipsoftmax-plan-$v" --target "$t" >"$tmp/plan.txt" || { cat "$tmp/plan.txt"; fail "hipsoftmax-plan-$v"; }
  echo "== $prefix/bin/hipsoftmax-plan-$v --target $t: $(wc -l <"$tmp/plan.txt") lines"
done
if [ ${#vendors[@]} -eq 1 ]; then
  # One vendor here: find_package without a component picks it, and the other vendor is refused loudly.
  tests/consumer/run.sh "$prefix" "${vendors[0]}" "$1" any >/dev/null
  echo "== find_package(hipsoftmax) without a component picks ${vendors[0]}: ok"
  other=amd
  [ "${vendors[0]}" = amd ] && other=nvidia
  if cmake -S tests/consumer -B "$tmp/wrong" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DHIPSOFTMAX_VENDOR=$other \
       >"$tmp/wrong.log" 2>&1; then
    fail "find_package(hipsoftmax COMPONENTS $other) succeeded on a prefix without it"
  fi
  grep -q "the $other build of hipsoftmax is not installed" "$tmp/wrong.log" ||
    { cat "$tmp/wrong.log"; fail "no clear message for the missing $other build"; }
  echo "== find_package(hipsoftmax COMPONENTS $other) fails: $(grep -o "the $other build of hipsoftmax is not installed[^(]*" "$tmp/wrong.log")"
  if PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --exists "hipsoftmax-$other"; then
    fail "pkg-config finds hipsoftmax-$other in a prefix without it"
  fi
fi
# The headers' module links nothing, so it can never pick a vendor.
libs=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --libs hipsoftmax)
[ -z "${libs// /}" ] || fail "pkg-config --libs hipsoftmax gives '$libs'"
echo "check-install: $build: ok"
