# shellcheck shell=bash disable=SC2154  # old, oldlib and new: set by the script that sources this
# Sourced by the bench/ab-*.sh scripts, with old (the bench before a change), oldlib (its library's
# folder) and new (the bench after it) set. ab_one runs one of the two, the old one with its library
# first on the library path; ab_order gives a round's order, the second round the reverse of the first.
ab_one() { # which (old|new), hipsoftmax-bench options...
  local which=$1
  shift
  if [ "$which" = old ]; then
    LD_LIBRARY_PATH="$oldlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$old" "$@"
  else
    "$new" "$@"
  fi
}
ab_order() { # round (1|2)
  if [ "$1" = 2 ]; then echo "new old"; else echo "old new"; fi
}
