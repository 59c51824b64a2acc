#!/bin/sh
# A bufbench --trace-holds that found no tracefs mounted mounted one at
# /sys/kernel/tracing, and when it was killed outright (SIGKILL) the mount
# stayed for ever (issue 35).  Now it mounts tracefs attached nowhere
# (fsmount), which goes with its last descriptor, so with bufbench and its
# clients however they end.  The whole test
# runs in a private mount namespace of its own (unshare -m), so that
# nothing it mounts or unmounts reaches the machine's; the instance the
# killed run leaves in the (global) tracefs is removed by the next run,
# and by this test in any case.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
if [ "${1:-}" != --inside ]; then
	[ -x "$top/build/bufbench" ] || { fail "tracefs_killed: build/bufbench missing (make first)"; exit 1; }
	[ "$(id -u)" = 0 ] || { skip "tracefs_killed: mounting tracefs needs root"; exit 0; }
	command -v unshare >/dev/null || { skip "tracefs_killed: no unshare (util-linux)"; exit 0; }
	unshare -m --propagation private true 2>/dev/null || { skip "tracefs_killed: no mount namespace here"; exit 0; }
	exec unshare -m --propagation private sh "$0" --inside
fi

# tracefs_here: the mount points of tracefs in this test's namespace.
tracefs_here() { awk '$(NF - 2) == "tracefs" { print $5 }' /proc/self/mountinfo; }
# Only this namespace's: bufbench must mount one itself.
for m in $(tracefs_here); do umount "$m"; done
if [ -d /sys/kernel/debug/tracing/instances ] || [ -n "$(tracefs_here)" ]; then
	skip "tracefs_killed: tracefs is reachable under debugfs here; bufbench would not mount it"
	exit 0
fi
tmp=$(mktemp -d)
b=""
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit '[ -z "$b" ] || kill -KILL "$b" 2>/dev/null || true; clean_instance; rm -rf "$tmp"'
# clean_instance: the killed run's instance goes, whatever the checks said
# (a 16 MB-per-CPU ring buffer, tracing, on a shared machine).
clean_instance() {
	[ -n "$b" ] || return 0
	mkdir -p "$tmp/t"
	mount -t tracefs nodev "$tmp/t" 2>/dev/null || return 0
	if [ -d "$tmp/t/instances/preemptlab-$b" ]; then
		echo 0 > "$tmp/t/instances/preemptlab-$b/tracing_on" || true
		rmdir "$tmp/t/instances/preemptlab-$b" || true
	fi
	umount "$tmp/t"
}
# (No function around it: $! must be bufbench's own pid.)
bb=$top/build/bufbench
set -- --clients 2 --pool 8M --relation 16M --trace-holds=1000

"$bb" "$@" --duration 60 > "$tmp/killed.json" 2> "$tmp/killed.err" &
b=$!
# Its clients are forked after its tracefs instance is made.
i=0
until [ -n "$(cat "/proc/$b/task/$b/children" 2>/dev/null)" ] || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
if [ -z "$(cat "/proc/$b/task/$b/children" 2>/dev/null)" ]; then
	skip "tracefs_killed: bufbench --trace-holds did not start its clients in 60 s: $(tail -n 1 "$tmp/killed.err")"
	exit 0
fi
sleep 2
kill -KILL "$b"
wait "$b" 2>/dev/null || true
sleep 0.5
check "tracefs_killed: a bufbench --trace-holds killed outright leaves no tracefs mounted ($(tracefs_here | tr '\n' ' '))" \
	test -z "$(tracefs_here)"

# The next run reaps the instance the killed one left, and mounts nothing
# that outlives it either.
rc=0
"$bb" "$@" --duration 1 --json "$tmp/next.json" 2> "$tmp/next.err" || rc=$?
check "tracefs_killed: the next bufbench --trace-holds runs (rc $rc)" test "$rc" = 0
check "tracefs_killed: and writes its document (--json FILE), with its evidence" grep -q '"holds_recorded"' "$tmp/next.json"
check "tracefs_killed: and removes the killed run's instance preemptlab-$b" \
	grep -q "removed the tracefs instance .*/preemptlab-$b of a run killed outright" "$tmp/next.err"
check "tracefs_killed: and leaves no tracefs mounted" test -z "$(tracefs_here)"
tests_done
