#!/bin/sh
# Real PostgreSQL + pgbench on the host (scripts/pg-run.sh, build/pgsample):
# a short run gives tps > 0 and one sampler sample per 10 ms; huge_pages=on
# without a possible reservation fails with the lab's own error; neither a
# finished run nor one killed midway (TERM, or Ctrl-C to the process group)
# leaves a server, socket directory, cluster or huge page reservation.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
# shellcheck source=tests/e2e/pg_lib.sh
. "$top/tests/e2e/pg_lib.sh"

why=$(pg_test_prereq)
if [ -n "$why" ]; then
	skip "pg_host: $why"
	exit 0
fi
work=$(mktemp -d /tmp/preemptlab-pgtest.XXXXXX)
# The server runs as postgres and must reach the run directory.
chmod 755 "$work"
pid=""
# Should a check stop the test early, the run under test goes too.
trap '[ -z "$pid" ] || kill -TERM "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
hp0=$(hp_total)

# wait_progress DIR: until pgbench has printed two progress lines.
wait_progress() {
	i=0
	while [ "$i" -lt 120 ]; do
		n=$(cat "$1"/logs/*.progress.log 2>/dev/null | grep -c '^progress:' || true)
		[ "${n:-0}" -ge 2 ] && return 0
		i=$((i + 1)); sleep 0.5
	done
	return 1
}
# --- 1. a short run ---------------------------------------------------------
run=$work/run
dur=10
"$top/scripts/pg-run.sh" --duration "$dur" --clients 4 --builtins select-only \
	--shared-buffers 16M --scale 3 "$run" > "$work/run.log" 2>&1 &
pid=$!
wait_progress "$run" || true
server=$(pg_server_pids "$run")
if wait "$pid"; then
	pass "pg_host: pg-run.sh short run exits 0"
else
	fail "pg_host: pg-run.sh short run exits 0"; sed 's/^/  /' "$work/run.log"
fi
check "pg_host: the run's server was seen ($(echo "$server" | wc -w) processes)" [ -n "$server" ]
doc=$(find "$run/runs" -name 'pgbench-*-hpoff-s_lock-select-only-c4-r1.json' 2>/dev/null | head -n1)
if [ -n "$doc" ] && jq -e . "$doc" >/dev/null 2>&1; then
	pass "pg_host: result document is valid JSON ($(basename "$doc"))"
	q() { jq -r "$1" "$doc"; }
	# jt FILTER: the filter holds for the document.
	jt() { jq -e "$1" "$doc" >/dev/null; }
	check "pg_host: tool pgbench, schema preemptlab.pgbench/1" \
		[ "$(q '.tool + " " + .schema')" = "pgbench preemptlab.pgbench/1" ]
	check "pg_host: tps > 0 (got $(q .results.tps))" jt '.results.tps > 0'
	check "pg_host: progress_tps has one value per second" \
		jt ".results.progress_tps | length >= $((dur - 1))"
	check "pg_host: >= 1 sample per 10 ms of run time (got $(q .sampler.samples) in ${dur} s)" \
		jt ".sampler.samples >= $((dur * 100))"
	check "pg_host: wait_events lists Timeout:SpinDelay first" \
		[ "$(q '.sampler.wait_events | keys_unsorted[0]')" = Timeout:SpinDelay ]
	check "pg_host: active backends were seen" jt '.sampler.active_backends_mean > 0'
	check "pg_host: provenance: lock s_lock, strategy postgresql, huge_pages=off" \
		[ "$(q '.provenance | .lock + " " + .strategy + " " + .page_policy')" = "s_lock postgresql huge_pages=off" ]
	check "pg_host: page size verified from smaps ($(q .provenance.page_size_kb) kB)" \
		jt '.provenance.page_size_kb == 4 and (.provenance.page_size_source | startswith("smaps"))'
	check "pg_host: PostgreSQL version recorded, the server's version() ($(q .provenance.versions.postgresql))" \
		jt '.provenance.versions.postgresql | startswith("PostgreSQL 15.")'
	check "pg_host: and its package ($(q .provenance.versions.postgresql_package))" \
		jt '.provenance.versions.postgresql_package | test("^postgresql-15 15\\..* \\(host\\)$")'
	check "pg_host: config has scale, clients, threads" \
		jt '.config.scale >= 1 and .config.clients == 4 and .config.threads >= 1'
	# The machine's interrupts over the run: the timer ticked, and the
	# wakeups between pgbench and its backends reached the CPUs by IPI.
	check "pg_host: interrupts over the run (resched $(q .results.interrupts.resched), call_function $(q .results.interrupts.call_function), timer $(q .results.interrupts.local_timer))" \
		jt '.results.interrupts | .local_timer > 0 and .resched >= 0 and .call_function >= 0 and .resched + .call_function > 0'
else
	fail "pg_host: result document written and valid"
fi
check "pg_host: pgbench -P 1 progress kept in logs/" \
	grep -q "^progress: " \
	"$run"/logs/pgbench-*-select-only-c4-r1.progress.log
left=$(pg_leftovers "$run" "$server")
check "pg_host: nothing left after a run${left:+: $left}" [ -z "$left" ]
check "pg_host: huge page pool as before ($hp0)" [ "$(hp_total)" = "$hp0" ]

# --- PG_WARMUP: the planned warm-up run is named -warm and marked ----------
# (lab/plan/pg_runs.c writes "run 0 ... warm" first; build/report leaves a
# -warm document out, as it does SCENARIO=overhead's warm-up.)
wrun=$work/warm
printf 'max_connections 12\nrun 0 current select-only 2 1 warm\nrun 1 current select-only 2 1\n' > "$work/warm.runs"
if "$top/scripts/pg-run.sh" --runs "$work/warm.runs" --duration 2 --shared-buffers 16M --scale 2 \
	"$wrun" > "$work/warm.log" 2>&1; then
	check "pg_host: PG_WARMUP: the warm-up run is r0-warm, marked, and r1 is not" \
		sh -c "jq -e '.config.warmup == true and .config.repetition == 0' '$wrun'/runs/pgbench-*-select-only-c2-r0-warm.json >/dev/null &&
			jq -e '(.config.warmup // false) == false and .config.repetition == 1' '$wrun'/runs/pgbench-*-select-only-c2-r1.json >/dev/null"
else
	fail "pg_host: PG_WARMUP: pg-run.sh with a warm-up run exits 0"; sed 's/^/  /' "$work/warm.log"
fi
rc=0
"$top/build/pgsample" --host "$work" --pgbench /bin/true --builtin select-only --clients 1 --threads 1 \
	--duration 1 --huge-pages off --pgdata "$work" --out-dir "$work" --rep 0 > "$work/rep0.out" 2>&1 || rc=$?
check "pg_host: PG_WARMUP: repetition 0 is the warm-up's alone (pgsample --rep 0 without --warm: exit $rc)" \
	sh -c "[ $rc = 2 ] && grep -q '0 only with --warm' '$work/rep0.out'"
# --- 2. huge_pages=on that cannot be had -----------------------------------
# 64 GB of shared_buffers cannot be reserved on this machine's memory.
run=$work/hpon
rc=0
"$top/scripts/pg-run.sh" --huge-pages on --shared-buffers 64G --scale 1 --builtins select-only \
	--duration 1 "$run" > "$work/hpon.log" 2>&1 || rc=$?
check "pg_host: huge_pages=on impossible: the cluster step fails (rc $rc)" [ "$rc" -ne 0 ]
check "pg_host: ... with the lab's own error naming the fix" \
	grep -q 'preemptlab: huge_pages=on cannot be had: .*Fix: .*sysctl -w vm.nr_hugepages=' "$work/hpon.log"
check "pg_host: ... and before PostgreSQL tried (no FATAL)" sh -c "! grep -q FATAL '$work/hpon.log'"
left=$(pg_leftovers "$run" "")
check "pg_host: nothing left after the refused run${left:+: $left}" [ -z "$left" ]
check "pg_host: huge page pool as before after the refusal" [ "$(hp_total)" = "$hp0" ]

# --- 3. a run killed midway ------------------------------------------------
hp=off
pg_hp_possible && hp=on
for how in TERM INT; do
	run=$work/kill-$how
	if [ "$how" = TERM ]; then
		"$top/scripts/pg-run.sh" --duration 60 --clients 4 --builtins simple-update \
			--shared-buffers 16M --scale 3 --huge-pages "$hp" "$run" > "$work/kill.log" 2>&1 &
		pid=$!
	else
		# Ctrl-C reaches the whole foreground group.  A background job of a
		# non-interactive shell starts with SIGINT ignored, which a shell
		# cannot trap, so perl (always on Debian) restores it first.
		# shellcheck disable=SC2016 # perl's own variables
		setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
			"$top/scripts/pg-run.sh" --duration 60 --clients 4 --builtins simple-update \
			--shared-buffers 16M --scale 3 --huge-pages "$hp" "$run" > "$work/kill.log" 2>&1 &
		pid=$!
	fi
	if ! wait_progress "$run"; then
		fail "pg_host: killed run ($how) reached pgbench"; sed 's/^/  /' "$work/kill.log"
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		continue
	fi
	server=$(pg_server_pids "$run")
	# Pages someone else left free are used as they are, not reserved.
	[ "$hp" = on ] && check "pg_host: ($how) huge pages reserved (or found free) while running" \
		grep -q 'reserved [0-9]* huge pages\|huge pages of [0-9]* kB already free' "$work/kill.log"
	if [ "$how" = TERM ]; then kill -TERM "$pid"; else kill -INT "-$pid"; fi
	rc=0
	wait "$pid" || rc=$?
	check "pg_host: run killed with $how exits non-zero (rc $rc)" [ "$rc" -ne 0 ]
	left=$(pg_leftovers "$run" "$server")
	check "pg_host: nothing left after $how midway${left:+: $left}" [ -z "$left" ]
	check "pg_host: huge page pool as before after $how (hp=$hp)" [ "$(hp_total)" = "$hp0" ]
	check "pg_host: what was measured is kept after $how" \
		sh -c "ls '$run'/logs/*.incomplete.json '$run'/logs/*.progress.log >/dev/null 2>&1"
done
tests_done
