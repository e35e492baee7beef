# Sourced by the bench/run-ab-*.sh scripts on a GPU machine, with rev (the old revision), root (this
# checkout) and out (the log folder) set: builds the library and bench at rev in a git worktree
# ($old, tests off) beside the working tree's sm_90 preset with its tests, in parallel, logs under
# $out, and says how both ended.
old=/tmp/hsm-old-$rev
rm -rf "$old"
git -C "$root" worktree add -f "$old" "$rev" > /dev/null 2>&1 || { echo "worktree $rev failed"; exit 1; }
(cd "$old" && cmake --preset sm_90 -DHIPSOFTMAX_BUILD_TESTS=OFF > /dev/null &&
   cmake --build build/sm_90 --target hipsoftmax-bench-nvidia -j8 > "$out/build-old.log" 2>&1) &
(cd "$root" && cmake --preset sm_90 -DHIPSOFTMAX_BUILD_TESTS=ON > /dev/null &&
   cmake --build build/sm_90 -j8 > "$out/build-new.log" 2>&1)
rc_new=$?
wait
echo "build new: exit $rc_new; old: $(tail -n 1 "$out/build-old.log")"
