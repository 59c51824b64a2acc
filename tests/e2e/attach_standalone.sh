#!/bin/sh
# An attachment stands alone: a short host make bench, make attach, and the
# archive unpacked in an empty directory (no checkout, no .git) reruns the
# same matrix through its reproduce.sh from the source it encloses, after
# checking that source's sha256; an altered source.tar.xz is refused.  The
# attachment also holds repro-min.c and its output on this kernel.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
for b in plan bufbench report repro-min; do
	[ -x "$top/build/$b" ] || { fail "attach_standalone: build/$b missing (make first)"; exit 1; }
done
command -v jq >/dev/null || { skip "attach_standalone: no jq (apt-get install jq)"; exit 0; }
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" != "$(cd "$top" && pwd -P)" ]; then
	skip "attach_standalone: $top is not a git checkout, so no source can be archived (git clone the lab)"
	exit 0
fi
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
unset KERNEL HUGEPAGES MODELS LOCKS STRATEGY WARMUP POOL RELATION BUFBENCH_ARGS PROFILE REPEAT 2>/dev/null || true
export CLIENTS=2 PGBENCH=off DURATION=1 PAGES=4k REPRO_MIN=on

run=$tmp/run
rc=0; sh "$top/scripts/bench.sh" "$run" > "$tmp/bench.out" 2>&1 || rc=$?
check "attach_standalone: the host bench finished (rc $rc)" test "$rc" = 0
[ "$rc" = 0 ] || { sed 's/^/  /' "$tmp/bench.out"; exit 1; }
check "attach_standalone: the runner ran repro-min on the host after the cells" \
	sh -c "grep -q '^pages=4k .* holds_faulted=' '$run'/logs/repro-min-host-*.txt"
rc=0; sh "$top/scripts/attach.sh" "$run" > "$tmp/attach.out" 2>&1 || rc=$?
check "attach_standalone: make attach succeeded (rc $rc)" test "$rc" = 0
sed 's/^/  /' "$tmp/attach.out"
a=$run/attachment.tar.gz
check "attach_standalone: attachment under 1 MiB ($(wc -c < "$a") bytes)" test "$(wc -c < "$a")" -lt 1048576
mkdir "$tmp/empty"
tar -C "$tmp/empty" -xzf "$a"
x=$(echo "$tmp"/empty/preemptlab-*)
for f in source.tar.xz repro-min.c reproduce.sh manifest.json; do
	check "attach_standalone: attachment holds $f" test -s "$x/$f"
done
check "attach_standalone: attachment holds repro-min's output on this kernel" \
	sh -c "grep -q '^kernel=$(uname -r) ' '$x'/logs/repro-min-host-*.txt"
check "attach_standalone: manifest's source sha256 is source.tar.xz's" \
	test "$(jq -r .source.sha256 "$x/manifest.json")" = "$(sha256sum "$x/source.tar.xz" | cut -d' ' -f1)"
rev=$(jq -r .lab_revision "$x/manifest.json")
case $rev in
*-dirty) check "attach_standalone: a dirty run encloses its changes or says they were not recorded" \
	sh -c "test -s '$x/source-dirty.patch' || jq -e '.source.note | test(\"not recorded\")' '$x/manifest.json' >/dev/null" ;;
*) check "attach_standalone: a clean run says so" jqt "$x/manifest.json" '.source.dirty == false and .source.dirty_patch == null' ;;
esac

# A damaged source is refused before anything runs.
cp -r "$x" "$tmp/bad"
printf 'x' >> "$tmp/bad/source.tar.xz"
check "attach_standalone: an altered source.tar.xz is refused" \
	sh -c "cd '$tmp/bad' && ! PREEMPTLAB_SRC='$tmp/bad-src' sh reproduce.sh > '$tmp/bad.out' 2>&1 && grep -q 'sha256' '$tmp/bad.out' && test ! -e '$tmp/bad-src'"

# The real thing: no checkout anywhere, the enclosed source rebuilt and run.
rc=0
(cd "$x" && unset PREEMPTLAB_CHECKOUT && PREEMPTLAB_SRC=$tmp/empty/src sh reproduce.sh) > "$tmp/repro.out" 2>&1 || rc=$?
check "attach_standalone: reproduce.sh without a checkout finished (rc $rc)" test "$rc" = 0
[ "$rc" = 0 ] || tail -n 30 "$tmp/repro.out" | sed 's/^/  /'
check "attach_standalone: the unpacked source has no .git" test ! -e "$tmp/empty/src/.git"
doc=$(find "$tmp/empty/src/results" -name 'bufbench-host-4k-tas-c2-r1.json' 2>/dev/null | head -n 1)
check "attach_standalone: the rerun wrote the same cell" test -n "$doc"
if [ -n "$doc" ]; then
	check "attach_standalone: the rerun's documents carry the run's revision ($rev: $(jq -r .provenance.lab_revision "$doc"))" \
		jqt "$doc" ".provenance.lab_revision == \"$rev\" and .results.tps > 0"
fi
tests_done
