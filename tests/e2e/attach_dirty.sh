#!/bin/sh
# A run from a tree with uncommitted changes does not pretend to be its
# commit: run-plan.sh records the changes (a modified file and a new,
# untracked one), make attach encloses them as source-dirty.patch and says
# so in the manifest, and reproduce.sh, with no checkout, applies them to
# the enclosed source; the rerun's documents carry the -dirty revision.
# Works in a clone of this checkout's HEAD, so the checkout is not touched.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
command -v jq >/dev/null || { skip "attach_dirty: no jq (apt-get install jq)"; exit 0; }
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" != "$(cd "$top" && pwd -P)" ]; then
	skip "attach_dirty: $top is not a git checkout (git clone the lab)"
	exit 0
fi
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
git clone -q "$top" "$tmp/lab"
c=$tmp/lab
(cd "$c" && ./configure && make -j"$(nproc)") > "$tmp/build.out" 2>&1 || { tail -n 20 "$tmp/build.out"; fail "attach_dirty: the clone does not build"; exit 1; }
echo "# a change nobody committed" >> "$c/docs/attach.md"
echo "a new file nobody added" > "$c/NOTE-dirty.txt"
(cd "$c" && make -j"$(nproc)") > "$tmp/build.out" 2>&1
check "attach_dirty: the binaries say -dirty" grep -q -- '-dirty"' "$c/build/revision.h"
unset KERNEL HUGEPAGES MODELS LOCKS STRATEGY WARMUP POOL RELATION BUFBENCH_ARGS PROFILE REPEAT 2>/dev/null || true
export CLIENTS=2 PGBENCH=off DURATION=1 PAGES=4k REPRO_MIN=off
rc=0; sh "$c/scripts/bench.sh" "$tmp/run" > "$tmp/bench.out" 2>&1 || rc=$?
check "attach_dirty: the bench finished (rc $rc)" test "$rc" = 0
check "attach_dirty: the run recorded both changes" \
	sh -c "grep -q 'a change nobody committed' '$tmp/run/logs/lab-dirty.patch' && grep -q 'a new file nobody added' '$tmp/run/logs/lab-dirty.patch'"
sh "$c/scripts/attach.sh" "$tmp/run" > "$tmp/attach.out" 2>&1 || { cat "$tmp/attach.out"; fail "attach_dirty: make attach"; exit 1; }
mkdir "$tmp/x"
tar -C "$tmp/x" -xzf "$tmp/run/attachment.tar.gz"
x=$tmp/x/preemptlab-run
check "attach_dirty: the manifest says dirty and names the patch" \
	jqt "$x/manifest.json" '.source.dirty and .source.dirty_patch == "source-dirty.patch" and (.lab_revision | endswith("-dirty"))'
check "attach_dirty: source-dirty.patch is the recorded one" cmp "$x/source-dirty.patch" "$tmp/run/logs/lab-dirty.patch"
rc=0
(cd "$x" && PREEMPTLAB_SRC=$tmp/src sh reproduce.sh) > "$tmp/repro.out" 2>&1 || rc=$?
check "attach_dirty: reproduce.sh without a checkout finished (rc $rc)" test "$rc" = 0
[ "$rc" = 0 ] || tail -n 20 "$tmp/repro.out" | sed 's/^/  /'
check "attach_dirty: it applied both changes" \
	sh -c "tail -n 1 '$tmp/src/docs/attach.md' | grep -q 'a change nobody committed' && test -f '$tmp/src/NOTE-dirty.txt'"
doc=$(find "$tmp/src/results" -name 'bufbench-host-4k-tas-c2-r1.json' 2>/dev/null | head -n 1)
check "attach_dirty: the rerun's documents say $(jq -r .lab_revision "$x/manifest.json")" \
	test -n "$doc" -a "$(jq -r .provenance.lab_revision "${doc:-/dev/null}" 2>/dev/null)" = "$(jq -r .lab_revision "$x/manifest.json")"
check "attach_dirty: and the rerun recorded the same patch for its own attachment" \
	sh -c "cmp '$(dirname "$(dirname "${doc:-/x/y}")")/logs/lab-dirty.patch' '$x/source-dirty.patch'"
tests_done
