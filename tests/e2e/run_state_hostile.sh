#!/bin/sh
# Run-state recovery against forged and stale state (issue 35, N1).  A state
# file (scripts/run-state.sh) had the next run remove any directory written
# as tmp.X/../anything, kill any process with "qemu" or "runner.sh" in its
# command line, write killed-outright.txt through a symlinked logs/, and
# use a state directory whoever owned it.  Recovery now acts only on what
# the dead run provably owned.  Everything here is private: its own
# PREEMPTLAB_STATE_DIR and TMPDIR, and processes it starts and stops.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
for b in plan bufbench; do [ -x "$top/build/$b" ] || { fail "run_state_hostile: build/$b missing (make first)"; exit 1; }; done
command -v setsid >/dev/null || { skip "run_state_hostile: no setsid (util-linux)"; exit 0; }
umask 077
tmp=$(mktemp -d)
pids=""
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'for p in $pids; do kill -KILL "-$p" "$p" 2>/dev/null || true; done; rm -rf "$tmp"'
mkdir "$tmp/t"
T=$tmp/t

# start NAME ARG...: a process of its own group and session, NAME in its
# argv; its pid in $started.
start() {
	setsid "$@" < /dev/null > /dev/null 2>&1 &
	started=$!
	pids="$pids $started"
	i=0
	until tr '\0' ' ' < "/proc/$started/cmdline" 2>/dev/null | grep -q sleep || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
}
# start_time PID: field 22 of /proc/PID/stat.
start_time() { sed -n 's/^.*) //p' "/proc/$1/stat" | cut -d ' ' -f 20; }
alive() { kill -0 "$1" 2>/dev/null; }
# dead_pid: a pid no process has.
dead_pid() {
	p=999999
	while kill -0 "$p" 2>/dev/null; do p=$((p + 1)); done
	echo "$p"
}
# recover STATEDIR: what the next run does first, with this test's TMPDIR.
# $0 is a script in scripts/, as a runner's is: lab_top finds build/ by it.
recover() {
	TMPDIR=$T PREEMPTLAB_STATE_DIR=$1 sh -c 'set -eu
		. "$(dirname "$0")/common.sh"; . "$0"
		d=$(run_state_dir); run_state_recover "$d"' "$top/scripts/run-state.sh"
}

# --- the issue's reproduction, through a whole bench run ----------------
mkdir -p "$T/tmp.X" "$tmp/victimdir" "$tmp/rd" "$tmp/victimtarget" "$tmp/state"
echo precious > "$tmp/victimdir/file"
ln -s "$tmp/victimtarget" "$tmp/rd/logs"
ln -s "$(command -v sleep)" "$tmp/qemu-fake"
start sh -c 'sleep 1000; :' fake-runner.sh; R=$started
start "$tmp/qemu-fake" 1000; Q=$started
printf 'pid %s\nwork %s/tmp.X/../../victimdir\nrundir %s/rd\nunit %s host\nunit %s guest\n' \
	"$(dead_pid)" "$T" "$tmp" "$R" "$Q" > "$tmp/state/run-999999.state"
unset KERNEL HUGEPAGES MODELS PAGES LOCKS STRATEGY WARMUP POOL RELATION BUFBENCH_ARGS PROFILE 2>/dev/null || true
rc=0
TMPDIR=$T PREEMPTLAB_STATE_DIR=$tmp/state CLIENTS=2 DURATION=2 REPEAT=1 PGBENCH=off HUGEPAGES=off \
	KERNEL=host PAGES=4k sh "$top/scripts/bench.sh" "$tmp/run" > "$tmp/run.out" 2>&1 || rc=$?
check "run_state_hostile: the bench run with the forged state file finishes (rc $rc)" test "$rc" = 0
check "run_state_hostile: it recovers the forged run (says so)" grep -q 'a run killed outright' "$tmp/run.out"
check "run_state_hostile: the directory named by work tmp.X/../../victimdir is kept" test -f "$tmp/victimdir/file"
check "run_state_hostile: and the refusal is said" grep -q 'is not a tmp.\* directory right in' "$tmp/run.out"
check "run_state_hostile: an unrelated process group whose leader's argv says runner.sh is alive" alive "$R"
check "run_state_hostile: an unrelated process named qemu-fake is alive" alive "$Q"
check "run_state_hostile: nothing is written through the symlinked logs/" test -z "$(ls -A "$tmp/victimtarget")"
check "run_state_hostile: the bench's own work directory is gone (only the forged tmp.X is left)" test "$(ls -A "$T")" = tmp.X

# --- a state directory not private to this user is refused ---------------
# A state file that would have a genuine tmp.* directory removed.
forge() { # DIR NAME: a state file in DIR for work $T/NAME
	mkdir -p "$T/$2"
	printf 'pid %s\nwork %s/%s\n' "$(dead_pid)" "$T" "$2" > "$1/run-1.state"
}
mkdir "$tmp/ww"; forge "$tmp/ww" tmp.WW; chmod 777 "$tmp/ww"
rc=0; recover "$tmp/ww" > "$tmp/ww.out" 2>&1 || rc=$?
check "run_state_hostile: a world-writable state directory is refused (rc $rc)" test "$rc" != 0
check "run_state_hostile: with a clear message" grep -q 'writable by its group or by others (mode 777): refused' "$tmp/ww.out"
check "run_state_hostile: and the state in it is not acted on" test -d "$T/tmp.WW"
mkdir "$tmp/gw"; forge "$tmp/gw" tmp.GW; chmod 770 "$tmp/gw"
rc=0; recover "$tmp/gw" > "$tmp/gw.out" 2>&1 || rc=$?
check "run_state_hostile: a group-writable state directory is refused (rc $rc) and not acted on" \
	sh -c "[ $rc != 0 ] && [ -d '$T/tmp.GW' ]"
other=$(id -u nobody 2>/dev/null || echo 65534)
if [ "$(id -u)" = 0 ] && [ "$other" != 0 ]; then
	mkdir "$tmp/ou"; forge "$tmp/ou" tmp.OU; chown "$other" "$tmp/ou" "$tmp/ou/run-1.state"
	rc=0; recover "$tmp/ou" > "$tmp/ou.out" 2>&1 || rc=$?
	check "run_state_hostile: a state directory owned by another uid is refused (rc $rc)" test "$rc" != 0
	check "run_state_hostile: with a clear message" grep -q "belongs to uid $other, not to you" "$tmp/ou.out"
	check "run_state_hostile: and the state in it is not acted on" test -d "$T/tmp.OU"
	mkdir "$tmp/of"; forge "$tmp/of" tmp.OF; chown "$other" "$tmp/of/run-1.state"
	rc=0; recover "$tmp/of" > "$tmp/of.out" 2>&1 || rc=$?
	check "run_state_hostile: a state file owned by another uid is left alone (rc $rc)" \
		sh -c "[ $rc = 0 ] && [ -d '$T/tmp.OF' ] && [ -f '$tmp/of/run-1.state' ]"
else
	skip "run_state_hostile: a state directory of another uid: needs root to make one"
fi
mkdir "$tmp/fw"; forge "$tmp/fw" tmp.FW; chmod 666 "$tmp/fw/run-1.state"
rc=0; recover "$tmp/fw" > "$tmp/fw.out" 2>&1 || rc=$?
check "run_state_hostile: a world-writable state file is left alone" \
	sh -c "[ $rc = 0 ] && [ -d '$T/tmp.FW' ] && grep -q 'left alone' '$tmp/fw.out'"

# --- pid reuse: a live process that is not the one recorded ---------------
# Each has the dead run's genuine work directory and runner.sh in its argv:
# only the start time tells it from the unit the run started.
W=$T/tmp.R
mkdir "$W" "$tmp/pr"
start sh -c 'sleep 1000; :' "$W/runner.sh"; P1=$started
start sh -c 'sleep 1000; :' "$W/runner.sh"; P2=$started
start sh -c 'sleep 1000; :' "$W/runner.sh"; P3=$started
start sh -c 'sleep 1000; :' qemu-system-x86_64 -initrd "$W/boot.cpio.gz"; G1=$started
start sh -c 'sleep 1000; :' qemu-system-x86_64 -initrd "$W/boot.cpio.gz"; G2=$started
{
	printf 'pid %s 1\nwork %s\n' "$(dead_pid)" "$W"
	printf 'unit %s host\n' "$P1"                          # no start time (as before): unprovable
	printf 'unit %s %s host\n' "$P2" $(($(start_time "$P2") + 1)) # another process now
	printf 'unit %s %s host\n' "$P3" "$(start_time "$P3")"    # the run's own
	printf 'unit %s %s guest\n' "$G1" $(($(start_time "$G1") + 1)) # another QEMU now
	printf 'unit %s %s guest\n' "$G2" "$(start_time "$G2")"    # the run's own QEMU
} > "$tmp/pr/run-1.state"
rc=0; recover "$tmp/pr" > "$tmp/pr.out" 2>&1 || rc=$?
check "run_state_hostile: recovery with a reused pid finishes (rc $rc)" test "$rc" = 0
check "run_state_hostile: a unit recorded without a start time is not killed" alive "$P1"
check "run_state_hostile: a live process whose start time differs from the recorded one is not killed" alive "$P2"
sleep 0.5
check "run_state_hostile: the genuine unit (its start time, in the work directory) is stopped" sh -c "! kill -0 $P3 2>/dev/null"
check "run_state_hostile: a QEMU whose start time differs from the recorded one is not killed" alive "$G1"
check "run_state_hostile: the genuine QEMU (its start time, its initrd in the work directory) is stopped" sh -c "! kill -0 $G2 2>/dev/null"
check "run_state_hostile: the genuine work directory is removed" test ! -e "$W"
check "run_state_hostile: the state file is removed" test ! -e "$tmp/pr/run-1.state"

# --- huge pages: a count, never more than the pool holds -------------------
pool=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
if [ -w "$pool" ]; then
	mkdir "$tmp/hp"
	n0=$(cat "$pool")
	printf 'pid %s\nhugepages 2048 %s\nhugepages 2048x 5\n' "$(dead_pid)" $((n0 + 100000)) > "$tmp/hp/run-1.state"
	rc=0; recover "$tmp/hp" > "$tmp/hp.out" 2>&1 || rc=$?
	check "run_state_hostile: more huge pages than the pool holds ($n0) are not taken from it" test "$(cat "$pool")" = "$n0"
	check "run_state_hostile: and that is said" grep -q 'more than the pool holds' "$tmp/hp.out"
else
	skip "run_state_hostile: huge pages: $pool is not writable here (needs root)"
fi
tests_done
