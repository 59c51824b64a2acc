#!/bin/sh
# The cell runner: carries out one unit of a plan (lab/plan/), in a guest
# (busybox sh, started by guest/init) or on the host (started by
# scripts/run-plan.sh), and sends each result over the channel the moment
# it exists, so a later crash or hang loses nothing finished.  The host
# side reads the channel the same way for both (scripts/qemu-channel.sh).
#
# Usage: runner.sh CONF CELLS CHANNEL WORKDIR
#   (a guest runs it as runner.sh /plan/unit.conf /plan/cells /dev/ttyS1 /tmp)
# CONF: "key TAB value" lines: kind (host|guest), label, duration,
#   hugepages_2m, hugepages_64k, profile, profile_freq, profile_callgraph, pg_shared_buffers,
#   pg_scale, pg_duration, pg_fillfactor, pg_cold, pg_buffercache_ms,
#   pg_run (a pgbench cell's runs), repro_min, costbench_run, pg_version,
#   bufbench, top,
#   virt, perf_dir, repro_min_bin, costbench_bin, icount_shift,
#   icount_epoch, static_model, kernel_config (where a guest finds its
#   kernel's config, read by the programs): all the planner's (lab/plan/write.c);
#   pg_root and pg_package, what scripts/run-plan.sh fetched for PG_VERSION;
#   pg_root.VERSION.BUILD and pg_package.VERSION.BUILD, each MITIGATIONS
#   cell's server (scripts/pg-roots.sh).
# CELLS: TAB-separated lines from the planner (lab/plan/write.c):
#   bufbench ID MODEL PAGES OPTIONAL PROFILE ARGV
#                                     ARGV: bufbench's options; PROFILE
#                                     on|off: perf record around this cell
#   pgbench ID HUGE_PAGES MODELS CLIENTS REPEAT  one cluster, comma lists
#           [MITIGATION VERSION BUILD]  under MITIGATIONS: whose server
# Channel lines, all starting with "@@PL ":
#   READY <release> <models line>     once started
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
[ $# -eq 4 ] || { echo "usage: $0 CONF CELLS CHANNEL WORKDIR" >&2; exit 2; }
CONF=$1 CELLS=$2 CHAN=$3 WORK=$4
PREEMPT=/sys/kernel/debug/sched/preempt
TAB=$(printf '\t')

# conf_all KEY: every value of a key the plan writes once a line (knob,
# costbench_run); conf KEY: the first, for the keys written once.
conf_all() { awk -v k="$1" 'index($0, k "\t") == 1 { print substr($0, length(k) + 2) }' "$CONF"; }
conf() { conf_all "$1" | head -n 1; }
KIND=$(conf kind) LABEL=$(conf label)
HP2M=$(conf hugepages_2m) TOP=$(conf top) BENCH=$(conf bufbench)
PROFILE=$(conf profile) PROFILE_FREQ=$(conf profile_freq)
# Every program started here records its provenance (kernel label,
# accelerator, icount shift and epoch, a one-model kernel's model) from
# this same file, given as --unit-conf: nothing reaches it through the
# environment.

if [ -c "$CHAN" ]; then stty -F "$CHAN" raw -echo 2>/dev/null; fi
exec 3>>"$CHAN"
say() { echo "@@PL $*" >&3; }
log() { echo "runner: $*"; }

# A kernel built with one model and no PREEMPT_DYNAMIC (Debian's arm64
# kernels) has no debugfs file: its model is the catalog's (static_model),
# which the programs read from the plan file where debugfs has none.
STATIC_MODEL=$(conf static_model)
model_line() {
	if [ ! -e "$PREEMPT" ] && [ -n "$STATIC_MODEL" ]; then echo "($STATIC_MODEL)"; return; fi
	cat "$PREEMPT" 2>/dev/null || echo "unreadable"
}
# The current model is the one in parentheses: "none voluntary (full) lazy".
model_now() { model_line | sed -n 's/.*(\([a-z_]*\)).*/\1/p'; }

# set_model M: switch and read back; "current" keeps what the kernel booted.
set_model() {
	[ "$1" = current ] && return 0
	[ "$(model_now)" = "$1" ] && return 0
	[ -w "$PREEMPT" ] || { echo "no writable $PREEMPT (kernel without PREEMPT_DYNAMIC, debugfs not mounted or locked down)"; return 1; }
	echo "$1" > "$PREEMPT" 2>/dev/null
	now=$(model_now)
	[ "$now" = "$1" ] || { echo "model $1 not accepted: debugfs reads '$(model_line)'"; return 1; }
}

# A host's model is the machine's, not the lab's: where the plan says so
# (restore_model: a host unit that switches it), it goes back on every
# exit, and so does every knob whose plan line says restore (set_knobs).
orig_model=""
KNOBS_RESTORE=$WORK/knobs.restore
: > "$KNOBS_RESTORE"
[ "$(conf restore_model)" = 1 ] && orig_model=$(model_now)
restore_model() {
	[ -n "$orig_model" ] && [ "$(model_now)" != "$orig_model" ] &&
		echo "$orig_model" > "$PREEMPT" 2>/dev/null
	while read -r path old; do
		[ "$(cat "$path" 2>/dev/null)" = "$old" ] || echo "$old" > "$path" 2>/dev/null
	done < "$KNOBS_RESTORE"
	return 0
}

# set_knobs: the unit's kernel knobs, one plan line each (lab/plan/knobs.c:
# PATH VALUE fail|skip restore|keep VAR=V NEEDS), in order.  Each value is
# written and read back, or found among the file's words (a value the
# kernel changed would be measured under another name, so it fails the
# unit with the reason in $why); a file the kernel lacks fails the unit or,
# where the plan says skip, is said and passed over; a restore line's old
# value is kept for restore_model.
set_knobs() {
	conf_all knob > "$WORK/knobs"
	while read -r path value missing restore name needs; do
		if [ ! -e "$path" ]; then
			why="$name not applied: this kernel has no $path ($needs)"
			[ "$missing" = skip ] || return 1
			log "$why"
			continue
		fi
		[ "$restore" = restore ] && printf '%s %s\n' "$path" "$(cat "$path")" >> "$KNOBS_RESTORE"
		echo "$value" > "$path" 2>/dev/null
		now=$(cat "$path" 2>/dev/null)
		# A file of words (sched/features) lists the switch it took.
		case " $now " in
		*" $value "*) ;;
		*) why="$name not accepted: $path reads '$now'"; return 1 ;;
		esac
		log "knob $name: $path $now"
	done < "$WORK/knobs"
}
trap 'restore_model' EXIT
trap 'restore_model; exit 130' INT
trap 'restore_model; exit 143' TERM
trap 'restore_model; exit 129' HUP

# unit_models: every model the unit's cells ask for, once each (the plan's).
unit_models() { conf models; }

# models_usable: every model the cells ask for can be set here, or the
# reason it cannot; checked before any cell runs.
models_usable() {
	for m in $(unit_models); do
		[ "$m" = current ] && continue
		[ "$m" = "$STATIC_MODEL" ] && [ ! -e "$PREEMPT" ] && continue
		[ -w "$PREEMPT" ] || { echo "model $m asked, but $PREEMPT is not writable (no PREEMPT_DYNAMIC, debugfs not mounted, or locked down)"; return 1; }
		case " $(model_line | tr -d '()') " in
		*" $m "*) ;;
		*) echo "model $m asked, but this kernel offers only: $(model_line)"; return 1 ;;
		esac
	done
}

# set_hugepages PAGES: a guest reserves its 2 MB pages here, only while 2 MB
# cells run, so 4 KB cells get that memory back; 1 GB pages come from its
# kernel command line.  On the host scripts/run-plan.sh reserves them, by
# difference, for the whole unit.
set_hugepages() {
	hp_short=""
	[ "$KIND" = guest ] || return 0
	# 64 KB pages (arm64's contiguous PTEs): as much memory as the 2 MB
	# reservation, where the kernel has that size.
	hp64=/sys/kernel/mm/hugepages/hugepages-64kB/nr_hugepages
	if [ -e "$hp64" ]; then
		w64=0; [ "$1" = 64k ] && w64=$(conf hugepages_64k)
		echo "$w64" > "$hp64" 2>/dev/null
		h64=$(cat "$hp64" 2>/dev/null || echo 0)
		[ "$h64" -ge "$w64" ] || { hp_short="the guest could reserve only $h64 of $w64 64 KB pages: give it more memory (MEM_MB)"; log "$hp_short"; }
	fi
	case $1 in
	2m|try-2m) want=$HP2M ;;
	*) want=0 ;;
	esac
	echo "$want" > /proc/sys/vm/nr_hugepages 2>/dev/null
	have=$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)
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

# run_pg ID HUGE_PAGES [MITIGATION<TAB>VERSION<TAB>BUILD]: one private
# cluster (scripts/pg-run.sh) carrying out the runs the plan lists for
# the cell (its pg_run lines), polled every second so each document
# reaches the host as soon as it is written, not when the cell ends.
PG_DIR=$WORK/pg
run_pg() {
	if [ -z "$TOP" ] || [ ! -f "$TOP/scripts/pg-run.sh" ]; then
		say FAIL "$1" "no PostgreSQL here (scripts/pg-guest-files.sh missing when the initramfs was built?)"
		return 0
	fi
	set_hugepages 4k	# bufbench's 2 MB pages back; pg-run.sh reserves its own
	rm -rf "$PG_DIR" "$WORK/pg.rc"
	mkdir -p "$PG_DIR"
	pg_sent=0
	scale=$(conf pg_scale)
	pgv=$(conf pg_version) pgroot=$(conf pg_root) mit=""
	# MITIGATIONS: the cell's own server, which the host fetched or built
	# (scripts/pg-roots.sh) and named in the conf; empty for system's own.
	if [ -n "${3:-}" ]; then
		mit=$(echo "$3" | cut -f1) pgv=$(echo "$3" | cut -f2) b=$(echo "$3" | cut -f3)
		pgroot=$(conf "pg_root.$pgv.$b")
		if [ -z "$pgroot" ] && [ "$pgv.$b" != system.debian ]; then
			say FAIL "$1" "no PostgreSQL $pgv ($b) in this unit's conf: scripts/run-plan.sh did not provide it"
			return 0
		fi
	fi
	conf_all pg_run | sed -n "s/^$1 //p" > "$WORK/pg.runs"
	# The console shows pg-run.sh's lines as they come; the file keeps
	# them for the reason of a failure.  Its stdin is not the cells file.
	{
		sh "$TOP/scripts/pg-run.sh" --unit-conf "$CONF" --huge-pages "$2" \
			--pg-version "${pgv:-system}" ${pgroot:+--pg-root "$pgroot"} \
			--shared-buffers "$(conf pg_shared_buffers)" ${scale:+--scale "$scale"} \
			--runs "$WORK/pg.runs" --duration "$(conf pg_duration)" \
			--fillfactor "$(conf pg_fillfactor)" --cold "$(conf pg_cold)" \
			--buffercache-ms "$(conf pg_buffercache_ms)" ${mit:+--mitigation "$mit"} \
			"$PG_DIR" < /dev/null 2>&1
		echo $? > "$WORK/pg.rc"
	} | tee "$WORK/pg.out" &
	while [ ! -f "$WORK/pg.rc" ]; do
		send_pg_docs
		sleep 1
	done
	wait
	send_pg_docs
	rc=$(cat "$WORK/pg.rc")
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
	why=$(grep '^preemptlab: ' "$WORK/pg.out" | tail -n1)
	say FAIL "$1" "pg-run.sh exit $rc after $pg_sent document(s): ${why:-see the console log}"
}

# Profiles.  A guest records with perf here: TCG emulates no PMU, so the
# event is cpu-clock (an hrtimer, works everywhere); -g unwinds by frame
# pointers, which bufbench-static is built with; the samples go out as
# gzipped perf script text after the cell's JSON.  The host profiles
# through scripts/profile.sh (dwarf unwinding by default), which folds
# the stacks straight into the run's perf/ directory.
prof=off
PERF_EVENT=cpu-clock
perf_probe() {
	command -v perf >/dev/null 2>&1 || { echo "no perf here (apt-get install linux-perf on the host)"; return 1; }
	out=$(perf record -N -B -q -e "$PERF_EVENT" -g -o "$WORK/perf.probe" -- true 2>&1) ||
		{ echo "perf record fails: $(echo "$out" | head -n 2 | tr '\n' ' ')"; return 1; }
	rm -f "$WORK/perf.probe"
}
if [ "$PROFILE" = on ]; then
	if [ "$KIND" = host ]; then prof=host
	elif why=$(perf_probe); then prof=on
	else prof_why=$why; fi
fi

# profile_out ID: the last cell's samples as gzipped perf script text,
# within the plan's bound (perf_script_timeout_s: a hang in reading
# /proc/kallsyms must not outlive the cell, whose host timer has stopped).
profile_out() {
	[ -s "$WORK/perf.data" ] || { log "no perf data for $1"; return 0; }
	rm -f "$WORK/perf.txt.gz"
	{ timeout "$(conf perf_script_timeout_s)" perf script -i "$WORK/perf.data" 2>"$WORK/perf.err"; echo $? > "$WORK/perf.rc"; } | gzip -1 > "$WORK/perf.txt.gz"
	if [ "$(cat "$WORK/perf.rc")" = 0 ]; then
		log "profile of $1: $(wc -c < "$WORK/perf.txt.gz") bytes gzipped"
		send_block PERF "$1" "$WORK/perf.txt.gz"
	else
		log "perf script failed for $1 (exit $(cat "$WORK/perf.rc")): $(tail -n 2 "$WORK/perf.err" | tr '\n' ' ')"
	fi
	rm -f "$WORK/perf.data" "$WORK/perf.txt.gz"
}

# run_bufbench ID MODEL PAGES ARGV PROFILE: one bufbench cell.  The plan
# says which cells are profiled: a control twin (CONTROLS) and most cells
# of SCENARIO=overhead run without perf, so their timings are the bare run's.
run_bufbench() {
	id=$1 model=$2 pages=$3 args=$4 cell_prof=$5
	if ! why=$(set_model "$model"); then
		say FAIL "$id" "$why"; log "$why"; return 0
	fi
	set_hugepages "$pages"
	rm -f "$WORK/run.json" "$WORK/perf.data"
	cprof=$prof
	[ "$cell_prof" = off ] && cprof=off
	case $cprof in
	on) rec="perf record -N -B -q -e $PERF_EVENT -g -F $PROFILE_FREQ -o $WORK/perf.data --" ;;
	host) rec="$TOP/scripts/profile.sh --on --freq $PROFILE_FREQ --callgraph $(conf profile_callgraph) $(conf perf_dir)/$id --" ;;
	*) rec="" ;;
	esac
	# ARGV is the planner's, word for word: split on blanks, no globbing.
	# perf record and profile.sh exit with bufbench's status.
	set -f
	# shellcheck disable=SC2086 # rec is a command, args the planner's options
	$rec "$BENCH" $args --unit-conf "$CONF" --json "$WORK/run.json" < /dev/null > "$WORK/run.log" 2>&1
	rc=$?
	set +f
	cat "$WORK/run.log"
	if [ "$rc" = 0 ] && [ -s "$WORK/run.json" ]; then
		send_json "$id" "$WORK/run.json"
		[ "$cprof" = on ] && profile_out "$id"
	else
		say FAIL "$id" "bufbench exit $rc: $(tail -n1 "$WORK/run.log")${hp_short:+ ($hp_short)}"
	fi
}

say READY "$(uname -r)" "$(model_line)"
if [ "$prof" = on ] || [ "$prof" = host ]; then say PROFILE on "$PERF_EVENT" "$PROFILE_FREQ"
elif [ "$PROFILE" = on ]; then say PROFILE off "$prof_why"; log "PROFILE=on, but $prof_why"; fi
log "$KIND $LABEL: kernel $(uname -r), models: $(model_line), $(nproc) CPUs, $(sed -n 's/MemTotal: *//p' /proc/meminfo)"
[ "$KIND" = guest ] && log "1 GB pages reserved: $(cat /sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages 2>/dev/null || echo none)"
# fail_all WHY: no cell can run here.
fail_all() {
	log "$1"
	while IFS=$TAB read -r _ id _; do say FAIL "$id" "$1"; done < "$CELLS"
	say DONE
	exit 0
}
why=$(models_usable) || fail_all "$why"
# Whatever else the kernel still runs after boot takes CPU from the first
# cells (the crypto self-tests did, before the command line turned them
# off): name it, so a slow first run has its reason in the console log.
busy=$(for f in /proc/[0-9]*/stat; do awk '$3 == "R" || $3 == "D" { print $2 }' "$f" 2>/dev/null; done |
	grep -v -e '(sh)' -e '(awk)' -e '(cat)' -e '(runner' | tr '\n' ' ')
[ -n "$busy" ] && log "running beside the cells at their start: $busy"
set_knobs || fail_all "$why"
# repro/repro-min.c on this kernel, once per unit and after every cell (so
# it changes nothing they measure), for the attachment (scripts/attach.sh).
# A guest owns its huge pages; the host reserves them by difference.
run_repro_min() {
	rm_bin=$(conf repro_min_bin)
	[ "$(conf repro_min)" = on ] || return 0
	if [ ! -x "$rm_bin" ]; then log "REPRO_MIN=on, but no $rm_bin (make build-all)"; return 0; fi
	rm_model=$(model_now)
	rm_out=$WORK/repro-min-$LABEL-${rm_model:-unknown}.txt
	log "repro-min (4 KB and 2 MB) on $(uname -r)"
	# The pool's size and its 2 MB reservation are the plan's
	# (lab/plan/runner_policy.c: a quarter of the pool under TCG).
	if [ "$KIND" = guest ]; then
		rm_n=$(conf repro_min_descriptors)
		"$rm_bin" -p 4k -n "$rm_n" > "$rm_out" 2>&1
		conf repro_min_hp2m > /proc/sys/vm/nr_hugepages 2>/dev/null
		"$rm_bin" -p 2m -n "$rm_n" >> "$rm_out" 2>&1
		echo 0 > /proc/sys/vm/nr_hugepages 2>/dev/null
	else
		REPRO_MIN=$rm_bin "$TOP/scripts/repro-min.sh" > "$rm_out" 2>&1
	fi
	cat "$rm_out"
	send_block LOG "${rm_out##*/}" "$rm_out"
}

# costbench's runs (lab/costbench; the plan's costbench_run lines, NAME
# ARGS), once per model of the unit after every cell: the model's own cost
# per fault and system call (issue 24), then a wakeup timed into a fault
# (issue 36).  One process with nothing to contend with, so the models'
# documents differ only by the model.  They go to the host's logs/ as
# NAME-<kernel>-<model>[-b<boot>].json.
run_costbench() {
	conf_all costbench_run > "$WORK/costbench.runs"
	[ -s "$WORK/costbench.runs" ] || return 0
	cb_bin=$(conf costbench_bin)
	if [ ! -x "$cb_bin" ]; then log "COSTBENCH=on, but no $cb_bin (make build-all)"; return 0; fi
	cb_boot=$(conf boot)
	cb_tail=""; [ "${cb_boot:-1}" -gt 1 ] 2>/dev/null && cb_tail=-b$cb_boot
	# Its 2 MB faults need free huge pages: a guest owns its pool and
	# reserves the plan's count; the host's reservation is the machine's,
	# and without one they are reported unavailable.
	[ "$KIND" = guest ] && conf costbench_hp2m > /proc/sys/vm/nr_hugepages 2>/dev/null
	for m in $(unit_models); do
		if ! why=$(set_model "$m"); then log "costbench under $m not run: $why"; continue; fi
		cb_model=$(model_now)
		while read -r cb_name cb_args; do
			cb_out=$WORK/$cb_name-$LABEL-${cb_model:-unknown}$cb_tail.json
			# With --trace on it keeps its trace and hold records beside the document.
			cb_kept="${cb_out%.json}.trace ${cb_out%.json}.holds"
			# shellcheck disable=SC2086 # two paths without spaces ($WORK is the runner's)
			rm -f "$cb_out" $cb_kept
			# shellcheck disable=SC2086 # the plan's arguments, a word each
			"$cb_bin" $cb_args --unit-conf "$CONF" --json "$cb_out" < /dev/null > "$WORK/costbench.log" 2>&1
			cb_rc=$?
			cat "$WORK/costbench.log"
			# Exit 3 (a touch that was not one fault) still sends its
			# document: each_faulted says so, and the report leaves
			# those ops out.
			if [ -s "$cb_out" ]; then
				log "$cb_name under ${cb_model:-$m}: exit $cb_rc"
				send_block LOG "${cb_out##*/}" "$cb_out"
				for cb_x in $cb_kept; do
					[ ! -f "$cb_x" ] || send_block LOG "${cb_x##*/}" "$cb_x"
				done
			else
				log "$cb_name under $m failed (exit $cb_rc): $(tail -n1 "$WORK/costbench.log")"
			fi
		done < "$WORK/costbench.runs"
	done
	[ "$KIND" = guest ] && echo 0 > /proc/sys/vm/nr_hugepages 2>/dev/null
	return 0
}

while IFS=$TAB read -r tool id f3 f4 _ f6 f7; do
	[ -n "$id" ] || continue
	say START "$id"
	log "cell $id"
	case $tool in
	pgbench) run_pg "$id" "$f3" "$f7" ;;
	bufbench) run_bufbench "$id" "$f3" "$f4" "$f7" "$f6" ;;
	*) say FAIL "$id" "unknown tool '$tool' in the plan" ;;
	esac
done < "$CELLS"
run_costbench
run_repro_min
set_hugepages 4k
restore_model
say DONE
exec 3>&-
