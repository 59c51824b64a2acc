#!/bin/sh
# make bench on the host, through the same runner as a guest (a unit that
# does not boot): results, manifest and plan land; huge pages asked "where
# they can be had" are skipped, not failed, and given back; a cell that
# overruns is stopped; Ctrl-C keeps what finished and leaves no process;
# a model that cannot be switched to stops the bench before any cell runs.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
for b in plan bufbench; do [ -x "$top/build/$b" ] || { fail "bench_host: build/$b missing (make first)"; exit 1; }; done
command -v jq >/dev/null || { skip "bench_host: no jq"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset KERNEL HUGEPAGES MODELS PAGES LOCKS STRATEGY WARMUP POOL RELATION BUFBENCH_ARGS PROFILE 2>/dev/null || true
export CLIENTS=2 PGBENCH=off

# bench_left RUN: no process of the lab still runs for RUN.
bench_left() {
	for p in /proc/[0-9]*; do
		{ tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null | grep -q "$1" && return 1
	done
	return 0
}
hp_total() { cat /proc/sys/vm/nr_hugepages; }

# --- the default page sizes, two repetitions ---------------------------------
hp0=$(hp_total)
run=$tmp/ok
rc=0; DURATION=1 REPEAT=2 sh "$top/scripts/bench.sh" "$run" > "$tmp/ok.out" 2>&1 || rc=$?
check "bench_host: the default page sizes finish (rc $rc)" test "$rc" = 0
[ "$rc" = 0 ] || sed 's/^/  /' "$tmp/ok.out"
check "bench_host: both 4 KB repetitions arrived" \
	test -f "$run/runs/bufbench-host-4k-tas-c2-r1.json" -a -f "$run/runs/bufbench-host-4k-tas-c2-r2.json"
# Under qemu-user (an arm64 chroot on x86) the host cells are emulated and
# the planner keeps 4 KB only: the run must say both.
if under_qemu_user; then
	check "bench_host: under qemu-user a run is the host's, marked emulated (tcg-user)" \
		jqt "$run/runs/bufbench-host-4k-tas-c2-r1.json" '.provenance.kernel_label == "host" and .provenance.emulated and .provenance.virtualization == "tcg-user" and .results.tps > 0'
	check "bench_host: under qemu-user the plan said why it kept 4 KB only" \
		grep -q 'compare: 4 KB pages only (under qemu-user' "$tmp/ok.out"
	cells=2 pages='["4k"]'
else
	check "bench_host: a run is the host's, unemulated" \
		jqt "$run/runs/bufbench-host-4k-tas-c2-r1.json" '.provenance.kernel_label == "host" and (.provenance.emulated | not) and .results.tps > 0'
	n2m=$(find "$run/runs" -name 'bufbench-host-2m-*' | wc -l)
	u2m=$(find "$run/logs" -name 'unavailable-bufbench-host-2m-*' | wc -l)
	check "bench_host: each 2 MB cell either ran or is listed unavailable ($n2m ran, $u2m unavailable)" \
		test $((n2m + u2m)) = 2
	n1g=$(find "$run/runs" -name 'bufbench-host-1g-*' | wc -l)
	u1g=$(find "$run/logs" -name 'unavailable-bufbench-host-1g-*' | wc -l)
	check "bench_host: each 1 GB cell either ran or is listed unavailable ($n1g ran, $u1g unavailable)" \
		test $((n1g + u1g)) = 2
	cells=6 pages='["4k", "2m", "1g"]'
fi
check "bench_host: the plan is kept beside the results" jqt "$run/plan.json" '.schema == "preemptlab.plan/1"'
check "bench_host: the manifest accounts for every cell" \
	jqt "$run/manifest.json" ".cells.total == $cells and .cells.ok + .cells.unavailable == $cells and .cells.failed == 0 and (.interrupted | not)"
check "bench_host: the manifest's unit is the host, unbooted" \
	jqt "$run/manifest.json" '.units[0].kind == "host" and .units[0].accel == "none" and .boots[0].end == "done"'
check "bench_host: the manifest's plan settings rerun it" \
	jqt "$run/manifest.json" ".schema == \"preemptlab.manifest/1\" and .plan.settings.pages == $pages and .plan.settings.clients == [\"2\"] and .plan.settings.repeat == 2"
check "bench_host: the cell runner's log is kept" grep -q 'runner: cell bufbench-host-4k' "$run/logs/console-host-run1.log"
check "bench_host: bufmicro measured the host" test -s "$run/logs/bufmicro.json"
check "bench_host: the reports were written" test -s "$run/report.txt" -a -s "$run/summary.txt"
check "bench_host: huge page pool as before ($hp0)" test "$(hp_total)" = "$hp0"
check "bench_host: nothing left running" bench_left "$run"

# --- a cell that overruns its time is stopped ------------------------------
run=$tmp/slow
rc=0; PAGES=4k DURATION=8 REPEAT=1 PREEMPTLAB_CELL_TIMEOUT=2 sh "$top/scripts/bench.sh" "$run" > "$tmp/slow.out" 2>&1 || rc=$?
check "bench_host: an overrunning cell fails the bench (rc $rc)" test "$rc" != 0
check "bench_host: it is marked failed with the reason" \
	grep -q 'no result within 2s' "$run/logs/failed-bufbench-host-4k-tas-c2-r1.txt"
sleep 1
check "bench_host: and its clients are gone" bench_left "$run"

# --- Ctrl-C after the first result ------------------------------------------------
run=$tmp/int
rc=$(PAGES=4k DURATION=3 REPEAT=4 bench_interrupted "$run" 60 "$tmp/int.out")
check "bench_host: Ctrl-C ends the bench with 130" test "$rc" = 130
n=$(find "$run/runs" -name '*.json' | wc -l)
check "bench_host: and keeps the finished runs ($n of 4)" test "$n" -ge 1 -a "$n" -lt 4
check "bench_host: and says it was interrupted" jqt "$run/manifest.json" '.interrupted'
check "bench_host: and reports what it has" test -s "$run/report.txt"
sleep 1
check "bench_host: and leaves no process behind" bench_left "$run"

# --- a model the host cannot switch to -------------------------------------------
# The planner refuses it before anything runs, with the reason; switching
# itself is checked in a guest (tests/e2e/host_models_guest.sh).
if [ -w /sys/kernel/debug/sched/preempt ] && grep -qw none /sys/kernel/debug/sched/preempt 2>/dev/null; then
	skip "bench_host: this host can switch to none; refusal tested where it cannot (tests/e2e/host_models_guest.sh tests switching)"
else
	run=$tmp/model
	rc=0; PAGES=4k DURATION=1 REPEAT=1 MODELS=none sh "$top/scripts/bench.sh" "$run" > "$tmp/model.out" 2>&1 || rc=$?
	check "bench_host: MODELS=none where the host cannot switch to it is refused (rc $rc)" test "$rc" = 2
	check "bench_host: before anything ran or was made" test ! -e "$run"
	check "bench_host: saying why ($(grep -o 'MODELS[^;]*' "$tmp/model.out" | head -n1))" \
		grep -q -e 'cannot be read' -e 'cannot be written' -e 'this kernel offers' "$tmp/model.out"
fi
tests_done
