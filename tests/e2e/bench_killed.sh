#!/bin/sh
# A bench killed outright (issue 28, D8): SIGKILL of make bench's process
# group mid-cell left the cell runner (setsid: a group of its own) and its
# bufbench running under init, the huge pages it had reserved reserved and
# its /tmp work directory, and the next run neither undid nor mentioned
# them.  Now the next run finds the dead run's state file
# (scripts/run-state.sh), says what it left and undoes it.  And a SIGTERM
# is recorded as one, not as "Ctrl-C".
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
for b in plan bufbench; do [ -x "$top/build/$b" ] || { fail "bench_killed: build/$b missing (make first)"; exit 1; }; done
command -v jq >/dev/null || { skip "bench_killed: no jq"; exit 0; }
command -v setsid >/dev/null || { skip "bench_killed: no setsid (util-linux)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset KERNEL HUGEPAGES MODELS PAGES LOCKS STRATEGY WARMUP POOL RELATION BUFBENCH_ARGS PROFILE 2>/dev/null || true
export CLIENTS=2 PGBENCH=off KERNEL=host PREEMPTLAB_STATE_DIR="$tmp/state"
hp_total() { cat /proc/sys/vm/nr_hugepages; }

# wait_cell OUT: until the bench writing OUT has started its first cell
# (90 s at most), and a little into it.
wait_cell() {
	i=0
	until grep -qs '\[1/1\]' "$1" || [ $i -ge 90 ]; do sleep 1; i=$((i + 1)); done
	sleep 2
}

# --- SIGKILL of the whole process group, huge pages reserved ----------------
pages=4k hp=off
if [ -w /proc/sys/vm/nr_hugepages ]; then pages=2m hp=on; fi
hp0=$(hp_total)
HUGEPAGES=$hp PAGES=$pages DURATION=60 REPEAT=1 setsid sh "$top/scripts/bench.sh" "$tmp/killed" > "$tmp/killed.out" 2>&1 &
group=$!
wait_cell "$tmp/killed.out"
state=$(find "$tmp/state" -name 'run-*.state' | head -n 1)
check "bench_killed: the run keeps a state file with its runner (and its start time) and work directory" \
	sh -c "grep -q '^unit [0-9]* [0-9][0-9]* host' '$state' && grep -q '^work /' '$state'"
runner=$(awk '$1 == "unit" { print $2; exit }' "$state")
work=$(awk '$1 == "work" { print $2; exit }' "$state")
hp_mid=$(hp_total)
# What this run added (another job's free pages may have served it).
hp_added=$(awk '$1 == "hugepages" { n = $3 } END { print n + 0 }' "$state")
[ "$hp_added" -gt 0 ] || hp=none
kill -KILL "-$group" 2>/dev/null || true
sleep 1
check "bench_killed: the fault as reported: its runner ($runner) outlives the SIGKILL of the group" \
	sh -c "kill -0 '$runner' && ! kill -0 '$group' 2>/dev/null || grep -q Z /proc/$group/stat"
if [ "$hp" = on ]; then
	check "bench_killed: and the $hp_added huge pages it reserved stay reserved ($hp0 -> $hp_mid)" test "$hp_mid" -ge $((hp0 + hp_added))
elif [ "$hp" = none ]; then
	skip "bench_killed: huge pages: the run added none (free pages of another job, $hp0, served it)"
else
	skip "bench_killed: huge pages: /proc/sys/vm/nr_hugepages is not writable here (needs root)"
fi

# --- the next run undoes it ---------------------------------------------------
rc=0
PAGES=4k DURATION=1 REPEAT=1 sh "$top/scripts/bench.sh" "$tmp/next" > "$tmp/next.out" 2>&1 || rc=$?
check "bench_killed: the next run finishes (rc $rc)" test "$rc" = 0
check "bench_killed: and says a run killed outright left state behind" grep -q 'a run killed outright' "$tmp/next.out"
check "bench_killed: its runner is stopped" sh -c "! kill -0 '$runner' 2>/dev/null"
# none_with TEXT: no process (but this test's own) has TEXT in its command line.
none_with() {
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" = $$ ] && continue
		{ tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null | grep -qF "$1" && return 1
	done
	return 0
}
check "bench_killed: no process of the killed run still runs (runner, bufbench)" none_with "$work"
check "bench_killed: its work directory is removed ($work)" test ! -e "$work"
if [ "$hp" = on ]; then
	check "bench_killed: its huge pages are given back ($(hp_total), before it $hp0)" test "$(hp_total)" -le "$hp0"
	check "bench_killed: and that is said" grep -q 'huge pages of 2048 kB it had reserved: given back' "$tmp/next.out"
fi
check "bench_killed: no state file is left" test -z "$(ls "$tmp/state")"
check "bench_killed: the killed run's results, without a manifest, are marked" \
	sh -c "[ ! -f '$tmp/killed/manifest.json' ] && grep -q 'killed outright' '$tmp/killed/logs/killed-outright.txt'"

# --- SIGTERM is recorded as SIGTERM ------------------------------------------
PAGES=4k DURATION=30 REPEAT=1 sh "$top/scripts/bench.sh" "$tmp/term" > "$tmp/term.out" 2>&1 &
b=$!
wait_cell "$tmp/term.out"
kill -TERM "$b"
rc=0; wait "$b" || rc=$?
check "bench_killed: SIGTERM stops the bench (rc $rc)" test "$rc" -ne 0
check "bench_killed: its cell says SIGTERM, not Ctrl-C" \
	sh -c "grep -qs 'interrupted (SIGTERM)' '$tmp'/term/logs/failed-*.txt && ! grep -qs 'Ctrl-C' '$tmp'/term/logs/failed-*.txt"
tests_done
