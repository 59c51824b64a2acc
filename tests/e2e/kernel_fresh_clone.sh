#!/bin/sh
# `make kernel KERNEL=7.0` in a fresh clone builds what it needs (issue 35):
# it failed with "no build/plan ... make build-all" and then ran an empty
# command name ("kernel-resolve.sh: 21: : Permission denied"), where make
# bench builds its programs first.  A clone of HEAD with this checkout's
# configuration (config.mk, config.h: configure would install packages),
# nothing built, and the kernel cache of this run (PREEMPTLAB_CACHE).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
command -v git > /dev/null || { skip "kernel_fresh_clone: no git"; exit 0; }
[ -f "$top/config.mk" ] || { fail "kernel_fresh_clone: no config.mk (run ./configure)"; exit 1; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
git clone -q "$top" "$tmp/lab"
git -C "$tmp/lab" checkout -q "$(git -C "$top" rev-parse HEAD)"
cp "$top/config.mk" "$top/config.h" "$tmp/lab/"
check "kernel_fresh_clone: the clone has no build/ yet" test ! -e "$tmp/lab/build"
rc=0
env -u KERNEL -u ARCH PREEMPTLAB_CACHE="${PREEMPTLAB_CACHE:-$top/kernels/cache}" \
	make -s -C "$tmp/lab" kernel KERNEL=7.0 > "$tmp/out" 2> "$tmp/err" || rc=$?
tail -n 5 "$tmp/err"
img=$(tail -n 1 "$tmp/out")
check "kernel_fresh_clone: make kernel KERNEL=7.0 succeeds (rc $rc)" test "$rc" = 0
check "kernel_fresh_clone: ...and prints an existing kernel image ($img)" test -f "$img"
check "kernel_fresh_clone: no empty command run (Permission denied)" sh -c "! grep -q 'Permission denied' '$tmp/err'"
check "kernel_fresh_clone: build/plan was built" test -x "$tmp/lab/build/plan"
tests_done
