#!/usr/bin/env bash
# Builds softmax_app against an installed hipsoftmax the two ways the README's "Use" section shows
# (find_package, then pkg-config, with the lines exactly as written there for the vendor given) and
# runs each build with an offline handle for TARGET.
# Usage: tests/consumer/run.sh PREFIX VENDOR TARGET [any|none]
#   VENDOR: amd or nvidia. With "any" the CMake build names no component (the prefix must hold one
#   vendor, which find_package then picks); "none" skips the pkg-config build's run-time library path
#   (a prefix in the loader's default path, such as /usr).
set -euo pipefail
prefix=${1:?prefix}
vendor=${2:?vendor}
target=${3:?target}
mode=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# find_package: the project's own CMakeLists.txt (its "use" lines are the README's)
component=$vendor
[ "$mode" = any ] && component=
cmake -S "$here" -B "$tmp/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DHIPSOFTMAX_VENDOR="$component" >"$tmp/cmake.log" 2>&1 ||
  { cat "$tmp/cmake.log"; echo "consumer: find_package(hipsoftmax) against $prefix failed" >&2; exit 1; }
cmake --build "$tmp/cmake" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
echo "== find_package(hipsoftmax${component:+ COMPONENTS $component}) in $prefix"
"$tmp/cmake/softmax_app" "$target"

# pkg-config: the README's command line, for this vendor
line='cc softmax_app.c $(pkg-config --cflags --libs hipsoftmax-@VENDOR@) -o softmax_app'
mkdir "$tmp/pc"
cp "$here/softmax_app.c" "$tmp/pc/"
libdir=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --variable=libdir "hipsoftmax-$vendor")
echo "== ${line//@VENDOR@/$vendor}  (PKG_CONFIG_PATH=$prefix/lib/pkgconfig)"
(cd "$tmp/pc" && export PKG_CONFIG_PATH="$prefix/lib/pkgconfig" && eval "${line//@VENDOR@/$vendor}")
if [ "$mode" = none ]; then
  "$tmp/pc/softmax_app" "$target"
else
  LD_LIBRARY_PATH="$libdir" "$tmp/pc/softmax_app" "$target"
fi
