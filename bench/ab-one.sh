# shellcheck shell=bash
# Sourced by the bench/ab-*.sh scripts, with their arguments (OLD_BENCH OLD_LIBDIR NEW_BENCH OUT_DIR):
# sets old (the bench before a change), oldlib (its library's folder), new (the bench after it) and
# out (created), with -u and pipefail on. ab_one runs one of the two benches, the old one with its
# library first on the library path; ab_order gives a round's order, the second round the reverse of
# the first; ab_cases runs a list of cases so for any number of rounds.
set -uo pipefail
# shellcheck disable=SC2034  # out: the sourcing script's
old=${1:?old bench} oldlib=${2:?old library dir} new=${3:?new bench} out=${4:?output dir}
mkdir -p "$out"
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
ab_cases() { # rounds, options every case shares, cases (each its hipsoftmax-bench options, one string)
  # Every case with old and new in turn, `rounds` times, the order reversed every other round; a
  # "## round R which case" line before each run.
  local rounds=$1 common=$2 round c which
  shift 2
  for round in $(seq 1 "$rounds"); do
    for c in "$@"; do
      for which in $(ab_order $(((round - 1) % 2 + 1))); do
        echo "## round $round $which $c"
        # shellcheck disable=SC2086  # the options, split on purpose
        ab_one "$which" $common $c
      done
    done
  done
}
