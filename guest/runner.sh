#!/bin/sh
# The guest runner (busybox sh): runs the cells of /plan.cells, switching the
# preemption model through debugfs between them, and sends each run's JSON to
# the host over the second serial port (/dev/ttyS1, a file on the host) the
# moment that run ends, so a later crash or hang loses nothing finished.
#
# /plan.env (written by scripts/bench-kernel.sh) sets PL_LABEL PL_VIRT
# PL_DURATION PL_WARMUP PL_ARGS PL_HP2M, PL_PROFILE (on|off) and
# PL_PROFILE_FREQ, and for PostgreSQL PL_TOP (the
# lab's host path: its files sit at their host paths) PL_PG_SB
# PL_PG_BUILTINS PL_PG_SCALE; each line of /plan.cells is
#   ID MODEL PAGES LOCK CLIENTS REP          a bufbench run, or
#   ID pgbench HUGE_PAGES MODELS CLIENTS REP real PostgreSQL + pgbench: one
#                                            cluster, every model (comma
#                                            lists), many documents
# Channel lines, all starting with "@@PL ":
#   READY <release> <models line>     once booted
#   START <id>                        a cell begins
#   JSON <id> <bytes> <sha256>        then base64 lines, then END <id>
#   LOG <name> <bytes> <sha256>       a log file for the host's logs/, the
#                                     same way (pgbench progress, server)
#   PROFILE on <event> <hz> | PROFILE off <reason>
#                                     whether bufbench cells are profiled
#   PERF <id> <bytes> <sha256>        a cell's `perf script` text, gzipped,
#                                     the same way, after its JSON
#   PASS <id> <documents>             a pgbench cell ended well (its
#                                     documents were sent as JSON blocks)
#   FAIL <id> <reason>                the cell produced no (full) result
#   DONE                              every cell was tried
set -u
# shellcheck disable=SC1091 # written per boot into the initramfs
. /plan.env
PREEMPT=/sys/kernel/debug/sched/preempt
CHAN=/dev/ttyS1
BENCH=/bin/bufbench-static

stty -F "$CHAN" raw -echo 2>/dev/null
exec 3>"$CHAN"
say() { echo "@@PL $*" >&3; }
log() { echo "runner: $*"; }

model_line() { cat "$PREEMPT" 2>/dev/null || echo "unreadable"; }
# The current model is the one in parentheses: "none voluntary (full) lazy".
model_now() { model_line | sed -n 's/.*(\([a-z_]*\)).*/\1/p'; }

# set_model M: switch and read back; "current" keeps what the kernel booted.
set_model() {
	[ "$1" = current ] && return 0
	[ "$(model_now)" = "$1" ] && return 0
	[ -w "$PREEMPT" ] || { echo "no writable $PREEMPT (kernel without PREEMPT_DYNAMIC or debugfs)"; return 1; }
	echo "$1" > "$PREEMPT" 2>/dev/null
	now=$(model_now)
	[ "$now" = "$1" ] || { echo "model $1 not accepted: debugfs reads '$(model_line)'"; return 1; }
}

# set_hugepages PAGES: 2 MB pages are reserved here, only while 2 MB cells
# run, so 4 KB cells get that memory back; 1 GB pages come from the kernel
# command line (hugepagesz=1G hugepages=N) since they are rarely free later.
set_hugepages() {
	case $1 in
	2m|try-2m) want=$PL_HP2M ;;
	*) want=0 ;;
	esac
	echo "$want" > /proc/sys/vm/nr_hugepages 2>/dev/null
	have=$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)
	hp_short=""
	[ "$have" -ge "$want" ] && return 0
	hp_short="the guest could reserve only $have of $want 2 MB pages: give it more memory (MEM_MB)"
	log "$hp_short"
	return 0	# bufbench decides: 2m fails clearly (exit 3), try-2m falls back
}

# send_block KIND NAME FILE: one checked block on the channel.
send_block() {
	bytes=$(wc -c < "$3")
	sum=$(sha256sum "$3" | cut -d' ' -f1)
	{
		echo "@@PL $1 $2 $bytes $sum"
		base64 "$3"
		echo "@@PL END $2"
	} >&3
}
send_json() { send_block JSON "$1" "$2"; }

# send_pg_docs: every finished pgbench document, at once and only once,
# with the progress (-P 1) and output logs its progress_log field names.
# pgsample writes NAME.json.tmp and renames it, so *.json is always whole.
send_pg_docs() {
	for f in "$PG_DIR"/runs/*.json; do
		[ -f "$f" ] || continue
		n=${f##*/}; n=${n%.json}
		send_json "$n" "$f"
		rm -f "$f"
		pg_sent=$((pg_sent + 1))
		for l in "$PG_DIR/logs/$n.progress.log" "$PG_DIR/logs/$n.out.log"; do
			[ -f "$l" ] && send_block LOG "${l##*/}" "$l" && rm -f "$l"
		done
	done
}

# send_pg_logs CELL: the cell's other logs (initdb, server, pgbench -i,
# settings, incomplete runs); names without the kernel get the cell's id
# in front, since every kernel's cluster writes initdb-hpoff.log.
send_pg_logs() {
	for l in "$PG_DIR"/logs/*; do
		[ -f "$l" ] || continue
		n=${l##*/}
		case $n in pgbench-*-*-hp*) ;; *) n=$1-$n ;; esac
		send_block LOG "$n" "$l"
	done
}

# run_pg ID HUGE_PAGES MODELS CLIENTS REP: scripts/pg-bench.sh as on the
# host (docs/postgres.md), polled every second so each document reaches
# the host as soon as it is written, not when the cell ends.
PG_DIR=/tmp/pg
run_pg() {
	if [ -z "${PL_TOP:-}" ] || [ ! -f "$PL_TOP/scripts/pg-bench.sh" ]; then
		say FAIL "$1" "no PostgreSQL in this initramfs (scripts/pg-guest-files.sh missing when it was built?)"
		return 0
	fi
	set_hugepages 4k	# bufbench's 2 MB pages back; pg-run.sh reserves its own
	rm -rf "$PG_DIR" /tmp/pg.rc
	mkdir -p "$PG_DIR"
	pg_sent=0
	# The console shows pg-bench.sh's lines as they come; the file keeps
	# them for the reason of a failure.  Its stdin is not /plan.cells.
	{
		PREEMPTLAB_GUEST=1 PREEMPTLAB_KERNEL=$PL_LABEL PREEMPTLAB_VIRT=$PL_VIRT \
			HUGEPAGES=$2 MODELS=$3 CLIENTS=$4 DURATION=$PL_DURATION REPEAT=$5 \
			PG_SHARED_BUFFERS=${PL_PG_SB:-16M} PG_BUILTINS=${PL_PG_BUILTINS:-} PG_SCALE=${PL_PG_SCALE:-} \
			sh "$PL_TOP/scripts/pg-bench.sh" "$PG_DIR" < /dev/null 2>&1
		echo $? > /tmp/pg.rc
	} | tee /tmp/pg.out &
	while [ ! -f /tmp/pg.rc ]; do
		send_pg_docs
		sleep 1
	done
	wait
	send_pg_docs
	rc=$(cat /tmp/pg.rc)
	send_pg_logs "$1"
	if [ "$rc" = 0 ] && [ "$pg_sent" -gt 0 ]; then
		say PASS "$1" "$pg_sent"
		return 0
	fi
	# What the host cannot read from here: the tails of the setup logs.
	for f in "$PG_DIR"/logs/initdb-*.log "$PG_DIR"/logs/pg_ctl-*.log \
		"$PG_DIR"/logs/pgbench-init-*.log "$PG_DIR"/logs/postgres-*.log; do
		[ -f "$f" ] || continue
		log "--- last lines of $f"
		tail -n 15 "$f"
	done
	# The cause, not pg-bench.sh's closing line naming a log under /tmp.
	why=$(grep '^preemptlab: ' /tmp/pg.out | grep -v 'did not complete (see ' | tail -n1)
	say FAIL "$1" "pg-bench.sh exit $rc after $pg_sent document(s): ${why:-see the console log}"
}

# PL_PROFILE=on: each bufbench cell runs under perf record.  TCG emulates
# no PMU, so the event is cpu-clock (an hrtimer, works everywhere); -g
# unwinds by frame pointers, which bufbench-static is built with.  Samples
# stay in the guest's RAM until perf script turns them into text, which
# goes out gzipped (about 1 KB a sample before; 99 Hz x vCPUs x duration).
prof=off
PERF_EVENT=cpu-clock
perf_probe() {
	command -v perf >/dev/null 2>&1 || { echo "no perf in this initramfs (the host has no perf binary: apt-get install linux-perf)"; return 1; }
	out=$(perf record -N -B -q -e "$PERF_EVENT" -g -o /tmp/perf.probe -- true 2>&1) ||
		{ echo "perf record fails in the guest: $(echo "$out" | head -n 2 | tr '\n' ' ')"; return 1; }
	rm -f /tmp/perf.probe
}
if [ "${PL_PROFILE:-off}" = on ]; then
	if why=$(perf_probe); then prof=on; else prof_why=$why; fi
fi

# profile_out ID: the last cell's samples as gzipped perf script text, sent
# after its JSON so a failure here costs only the profile.  perf script
# reads kernel symbols from /proc/kallsyms; timeout bounds a hang, since
# the host's cell timer stopped with the JSON.
profile_out() {
	[ -s /tmp/perf.data ] || { log "no perf data for $1"; return 0; }
	rm -f /tmp/perf.txt.gz
	{ timeout 300 perf script -i /tmp/perf.data 2>/tmp/perf.err; echo $? > /tmp/perf.rc; } | gzip -1 > /tmp/perf.txt.gz
	if [ "$(cat /tmp/perf.rc)" = 0 ]; then
		log "profile of $1: $(wc -c < /tmp/perf.txt.gz) bytes gzipped"
		send_block PERF "$1" /tmp/perf.txt.gz
	else
		log "perf script failed for $1 (exit $(cat /tmp/perf.rc)): $(tail -n 2 /tmp/perf.err | tr '\n' ' ')"
	fi
	rm -f /tmp/perf.data /tmp/perf.txt.gz
}

say READY "$(uname -r)" "$(model_line)"
if [ "$prof" = on ]; then say PROFILE on "$PERF_EVENT" "$PL_PROFILE_FREQ"
elif [ "${PL_PROFILE:-off}" = on ]; then say PROFILE off "$prof_why"; log "PROFILE=on, but $prof_why"; fi
log "kernel $(uname -r), models: $(model_line), $(nproc) CPUs, $(sed -n 's/MemTotal: *//p' /proc/meminfo)"
log "1 GB pages reserved: $(cat /sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages 2>/dev/null || echo none)"
while read -r id model pages lock clients rep; do
	[ -n "$id" ] || continue
	say START "$id"
	log "cell $id"
	if [ "$model" = pgbench ]; then
		run_pg "$id" "$pages" "$lock" "$clients" "$rep"
		continue
	fi
	if ! why=$(set_model "$model"); then
		say FAIL "$id" "$why"; log "$why"; continue
	fi
	set_hugepages "$pages"
	rm -f /tmp/run.json /tmp/perf.data
	rec=""
	[ "$prof" = on ] && rec="perf record -N -B -q -e $PERF_EVENT -g -F $PL_PROFILE_FREQ -o /tmp/perf.data --"
	# perf record exits with bufbench's status.
	# shellcheck disable=SC2086 # PL_ARGS holds several options, rec a command
	PREEMPTLAB_KERNEL=$PL_LABEL PREEMPTLAB_VIRT=$PL_VIRT $rec "$BENCH" \
		--clients "$clients" --duration "$PL_DURATION" --warmup "$PL_WARMUP" \
		--pages "$pages" --lock "$lock" --seed "$rep" $PL_ARGS \
		--json /tmp/run.json > /tmp/run.log 2>&1
	rc=$?
	cat /tmp/run.log
	if [ "$rc" = 0 ] && [ -s /tmp/run.json ]; then
		send_json "$id" /tmp/run.json
		[ "$prof" = on ] && profile_out "$id"
	else
		say FAIL "$id" "bufbench exit $rc: $(tail -n1 /tmp/run.log)${hp_short:+ ($hp_short)}"
	fi
done < /plan.cells
set_hugepages 4k
say DONE
exec 3>&-
