#!/usr/bin/env bash
# Checks the packages that vendor builds made (cmake --workflow --preset amd / nvidia):
#   - each TGZ, unpacked anywhere, serves the consumer (tests/consumer/run.sh) as a prefix;
#   - the DEBs of all the builds given, installed together with dpkg (as root, or through sudo), serve
#     the consumer from /usr for each vendor; with both vendors there, find_package(hipsoftmax) without
#     a component and a target linking both vendors' libraries fail with CMake's messages;
#   - the packages are removed again and their files are gone.
# Refuses to run where hipsoftmax packages are installed already (they would be replaced, then removed).
# Usage: scripts/check-packages.sh BUILD_DIR:TARGET...   (e.g. build/amd:gfx942 build/nvidia:sm_90)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: $0 BUILD_DIR:TARGET..." >&2; exit 2; }
tmp=$(mktemp -d)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
installed=()
cleanup() {
  if [ ${#installed[@]} -gt 0 ]; then
    $sudo dpkg -r "${installed[@]}" >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "check-packages: $*" >&2; exit 1; }

if dpkg-query -W -f='${Package} ${Status}\n' 'libhipsoftmax*' 'hipsoftmax-*' 2>/dev/null | grep -q "install ok installed"; then
  fail "hipsoftmax packages are installed on this machine already; remove them first"
fi

debs=()
declare -A seen=()
pairs=()
for arg in "$@"; do
  build=${arg%%:*}
  target=${arg#*:}
  case $target in gfx*) vendor=amd ;; sm_*) vendor=nvidia ;; *) fail "unknown target in '$arg'" ;; esac
  pairs+=("$vendor:$target")
  pkgdir=$build/packages
  [ -d "$pkgdir" ] || fail "$pkgdir missing: run cmake --workflow --preset <that build's preset> first"
  echo "== $pkgdir:"
  for f in "$pkgdir"/*.deb "$pkgdir"/*.tar.gz; do
    [ -e "$f" ] || continue
    echo "  $(basename "$f")  ($(du -h "$f" | cut -f1))"
  done
  # The archive, unpacked where it lands
  tgz=$(ls "$pkgdir"/hipsoftmax-*-"$vendor"*.tar.gz | head -n 1)
  mkdir -p "$tmp/tgz-$vendor"
  tar -xzf "$tgz" -C "$tmp/tgz-$vendor"
  root=$(ls -d "$tmp/tgz-$vendor"/hipsoftmax-*)
  tests/consumer/run.sh "$root" "$vendor" "$target" >"$tmp/tgz.log" 2>&1 || { cat "$tmp/tgz.log"; fail "consumer against $tgz"; }
  echo "== consumer against the unpacked $(basename "$tgz"): ok"
  # The DEBs; the packages both vendors' builds make (headers, occupancy) once
  for f in "$pkgdir"/*.deb; do
    name=$(dpkg-deb -f "$f" Package)
    [ -n "${seen[$name]:-}" ] && continue
    seen[$name]=1
    debs+=("$f")
    installed+=("$name")
  done
done

echo "== dpkg -i ${installed[*]}"
$sudo dpkg -i "${debs[@]}" >"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; fail "dpkg -i failed"; }
for p in "${pairs[@]}"; do
  tests/consumer/run.sh /usr "${p%%:*}" "${p#*:}" none
done
vendors=$(printf '%s\n' "${pairs[@]%%:*}" | sort -u | wc -l)
if [ "$vendors" -eq 2 ]; then
  # Both vendors in /usr: naming none is an error, and so is linking both.
  if cmake -S tests/consumer -B "$tmp/none" -G Ninja >"$tmp/none.log" 2>&1; then
    fail "find_package(hipsoftmax) without a component succeeded with both vendors installed"
  fi
  grep -q "holds both the AMD and the NVIDIA build" "$tmp/none.log" || { cat "$tmp/none.log"; fail "no clear message"; }
  echo "== find_package(hipsoftmax) without a component, both installed: fails, 'holds both the AMD and the NVIDIA build ... name it'"
  mkdir -p "$tmp/both-src"
  cat >"$tmp/both-src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(both LANGUAGES C)
find_package(hipsoftmax 0.2 REQUIRED COMPONENTS amd nvidia)
file(WRITE ${CMAKE_BINARY_DIR}/main.c "int main(void) { return 0; }\n")
add_executable(both ${CMAKE_BINARY_DIR}/main.c)
target_link_libraries(both PRIVATE hipsoftmax::amd hipsoftmax::nvidia)
CMAKE
  if cmake -S "$tmp/both-src" -B "$tmp/both" -G Ninja >"$tmp/both.log" 2>&1; then
    fail "a target linking hipsoftmax::amd and hipsoftmax::nvidia was generated"
  fi
  grep -q "HIPSOFTMAX_VENDOR" "$tmp/both.log" || { cat "$tmp/both.log"; fail "no HIPSOFTMAX_VENDOR conflict reported"; }
  sed -n "/CMake Error/,/^$/p" "$tmp/both.log" | head -n 6
  echo "== a target linking hipsoftmax::amd and hipsoftmax::nvidia: CMake refuses (HIPSOFTMAX_VENDOR differs)"
fi

echo "== dpkg -r ${installed[*]}"
$sudo dpkg -r "${installed[@]}" >"$tmp/dpkg-r.log" 2>&1 || { cat "$tmp/dpkg-r.log"; fail "dpkg -r failed"; }
installed=()
for f in /usr/include/hipsoftmax/hipsoftmax.h /usr/lib/cmake/hipsoftmax /usr/lib/pkgconfig/hipsoftmax.pc \
         /usr/lib/libhipsoftmax_amd.so.0 /usr/lib/libhipsoftmax_nvidia.so.0 /usr/bin/hipsoftmax-occupancy; do
  [ ! -e "$f" ] || fail "$f is still there after dpkg -r"
done
echo "check-packages: ok"
