# shellcheck shell=bash
# Sourced by the bench/run-ab-*.sh scripts on a GPU machine, with rev (the old library: a revision, or
# a folder holding its source tree), root (this checkout) and out (the log folder) set: builds the old
# library and bench ($old, tests off) beside the working tree's sm_90 preset with its tests, in
# parallel, logs under $out, and says how both ended. A revision is checked out in a git worktree; a
# folder is built where it lies, for a machine whose copy of the checkout has no git history (make it
# here with `git archive REV | tar -x -C FOLDER`, FOLDER inside the checkout and not ignored by git,
# so that the copy takes it along).
if [ -f "$rev/CMakeLists.txt" ]; then
  old=$(cd "$rev" && pwd)
else
  old=/tmp/hsm-old-$rev
  rm -rf "$old"
  git -C "$root" worktree add -f "$old" "$rev" > /dev/null 2>&1 || { echo "worktree $rev failed"; exit 1; }
fi
(cd "$old" && cmake --preset sm_90 -DHIPSOFTMAX_BUILD_TESTS=OFF > /dev/null &&
   cmake --build build/sm_90 --target hipsoftmax-bench-nvidia -j8 > "$out/build-old.log" 2>&1) &
(cd "$root" && cmake --preset sm_90 -DHIPSOFTMAX_BUILD_TESTS=ON > /dev/null &&
   cmake --build build/sm_90 -j8 > "$out/build-new.log" 2>&1)
rc_new=$?
wait
echo "build new: exit $rc_new; old: $(tail -n 1 "$out/build-old.log")"
