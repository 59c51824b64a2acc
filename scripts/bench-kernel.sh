#!/bin/sh
# `make bench KERNEL=<not host>`: boots the asked kernel (and a baseline that
# still has PREEMPT_NONE) in QEMU, one boot per kernel, and runs the bufbench
# matrix inside, then real PostgreSQL + pgbench under the same models
# (unless PGBENCH=off); each run's JSON lands in RUNDIR/runs/ as soon as it
# ends.
# Usage: scripts/bench-kernel.sh RUNDIR
# Environment (all optional but KERNEL):
#   KERNEL     catalog series, exact version or image path
#   BASELINE   kernel run with model none (default 6.12; none skips it)
#   BUFBENCH_ARGS    more bufbench options for every guest run (e.g. --hold-events)
#   MODEL_SWITCH     boot (default): one boot per model, chosen with preempt=
#              on the kernel command line; runtime: one boot per kernel,
#              models switched through debugfs.  Runtime switching patches
#              kernel text (static calls) while the other vCPU runs, and
#              under QEMU TCG live patching crashed 6.12 and 7.0 guests with
#              int3 oopses; booting with the model makes that rarer, not
#              impossible (docs/kernels.md)
#   BASELINE_MODELS  the baseline's models (default none); "none full" also
#              runs 6.12/full, which separates the kernel version's effect
#              from the model's (7.0 has no none to compare with)
#   HUGEPAGES  off (4k) | on (2m, must be had) | try (try-2m) |
#              compare (4k, 2m and 1g where it can be reserved; default)
#   MODELS PAGES CLIENTS LOCKS  override the matrix (space or comma lists)
#   DURATION WARMUP REPEAT      seconds, seconds, repetitions (10, 0, 3)
#   POOL RELATION WORKLOAD      bufbench sizes and workload (128M, 512M)
#   STRATEGY                    bufbench --strategy (bufbench's default: pg)
#   VCPUS MEM_MB               guest size (host CPUs, sized from POOL etc.)
#   PREEMPTLAB_ACCEL=kvm|tcg    skip the KVM probe
#   PREEMPTLAB_BOOT_TIMEOUT     seconds for a guest to answer (TCG 180)
#   PREEMPTLAB_CELL_TIMEOUT     seconds for one bufbench cell (warmup+duration+slack)
#   PGBENCH          on (default) | off: pgbench in every guest, after bufbench
#   PG_HUGEPAGES     huge_pages settings (off on try, or compare = off on);
#                    default from PAGES: 4k/thp -> off, 2m/1g -> on, try-* -> try
#   PG_SHARED_BUFFERS PG_BUILTINS PG_SCALE   as in scripts/pg-bench.sh, but
#                    shared_buffers defaults to 16M (scale 3: TCG-sized)
#   PREEMPTLAB_PG_TIMEOUT       seconds for one pgbench cell (one cluster:
#                               initdb, pgbench -i and all its runs)
#   PREEMPTLAB_GUEST_APPEND     extra guest kernel command line
#   PROFILE          off (default) | on: perf record -g each bufbench cell in
#                    the guest (cpu-clock, frame pointers), its perf script
#                    text to RUNDIR/perf/<run name>.perf.txt
#   PROFILE_FREQ     samples per second per vCPU (99)
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
[ $# -eq 1 ] || die "usage: $0 RUNDIR"
rundir=$1
here=$(cd "$(dirname "$0")" && pwd)
# The guest holds PostgreSQL's files and the lab's scripts at their host
# paths (scripts/pg-guest-files.sh), so the runner finds them under this.
top=$(dirname "$here")
mkdir -p "$rundir/runs" "$rundir/logs"
command -v jq >/dev/null || die "jq is needed for the summary; apt-get install jq"

# --- what was asked, checked before anything boots -------------------------
[ -n "${KERNEL:-}" ] || die "KERNEL is not set (e.g. make bench KERNEL=7.0)"
BASELINE=${BASELINE-6.12}
HUGEPAGES=${HUGEPAGES:-compare}
REPEAT=${REPEAT:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-0}	# bufbench's default: first-touch faults are measured
LOCKS=$(split_list "${LOCKS:-tas}")
POOL=${POOL:-128M}
RELATION=${RELATION:-512M}
WORKLOAD=${WORKLOAD:-}

posint() { case $2 in ''|*[!0-9]*|0) die "$1=$2 must be a positive integer" ;; esac; }
posint REPEAT "$REPEAT"; posint DURATION "$DURATION"
case $WARMUP in ''|*[!0-9]*) die "WARMUP=$WARMUP must be a whole number of seconds" ;; esac

# size_mb SIZE: k/M/G suffixed size in MiB, rounded up.
size_mb() {
	n=${1%[kKmMgG]}
	case $n in ''|*[!0-9]*) die "bad size '$1' (use e.g. 128M or 1G)" ;; esac
	case $1 in
	*[kK]) echo $(( (n + 1023) / 1024 )) ;;
	*[gG]) echo $(( n * 1024 )) ;;
	*[mM]) echo "$n" ;;
	*) echo $(( (n + 1048575) / 1048576 )) ;;
	esac
}
pool_mb=$(size_mb "$POOL"); rel_mb=$(size_mb "$RELATION")

host_cpus=$(nproc)
VCPUS=${VCPUS:-$host_cpus}
posint VCPUS "$VCPUS"
if [ "$VCPUS" -gt "$host_cpus" ]; then
	note "VCPUS=$VCPUS exceeds the host's $host_cpus CPUs; using $host_cpus"
	VCPUS=$host_cpus
fi
CLIENTS=$(split_list "${CLIENTS:-$((VCPUS * 4))}")
for c in $CLIENTS; do posint CLIENTS "$c"; done

pages_given=0
if [ -n "${PAGES:-}" ]; then
	pages_given=1
	PAGES=$(split_list "$PAGES")
else
	case $HUGEPAGES in
	off) PAGES=4k ;;
	on) PAGES=2m ;;
	try) PAGES=try-2m ;;
	compare) PAGES="4k 2m 1g" ;;
	*) die "HUGEPAGES=$HUGEPAGES: use off, on, try or compare" ;;
	esac
fi
for p in $PAGES; do
	case $p in 4k|thp|2m|1g|try-2m|try-1g) ;; *) die "PAGES item '$p': use 4k thp 2m 1g try-2m try-1g" ;; esac
done
for l in $LOCKS; do
	case $l in tas|rseq|futex|mcs) ;; *) die "LOCKS item '$l': use tas rseq futex mcs" ;; esac
done

# PROFILE=on puts perf in the initramfs (scripts/initramfs.sh reads PROFILE)
# and has the runner record each bufbench cell; pgbench cells are not
# profiled.
case ${PROFILE:-off} in
on|1|yes) PROFILE=on ;;
off|0|no|"") PROFILE=off ;;
*) die "PROFILE=$PROFILE: use on or off" ;;
esac
export PROFILE
PROFILE_FREQ=${PROFILE_FREQ:-99}
posint PROFILE_FREQ "$PROFILE_FREQ"

# PostgreSQL: one cell per huge_pages setting and kernel; each cell is one
# cluster that serves every model, builtin, client count and repetition.
PGBENCH=${PGBENCH:-on}
case $PGBENCH in
on|off) ;;
*) die "PGBENCH=$PGBENCH must be on or off" ;;
esac
pg_modes=""
pg_sb=${PG_SHARED_BUFFERS:-16M}
pg_builtins=$(split_list "${PG_BUILTINS:-select-only simple-update}")
pg_scale=${PG_SCALE:-}
if [ "$PGBENCH" = on ]; then
	if [ -n "${PG_HUGEPAGES:-}" ]; then
		for m in $(split_list "$PG_HUGEPAGES"); do
			case $m in
			off|on|try) pg_modes="$pg_modes $m" ;;
			compare) pg_modes="$pg_modes off on" ;;
			*) die "PG_HUGEPAGES item '$m': use off, on, try or compare" ;;
			esac
		done
	else
		# huge_pages follows the page sizes asked of bufbench.
		for p in $PAGES; do
			case $p in 4k|thp) pg_modes="$pg_modes off" ;; 2m|1g) pg_modes="$pg_modes on" ;; *) pg_modes="$pg_modes try" ;; esac
		done
	fi
	pg_modes=$(echo "$pg_modes" | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ')
	pg_modes=${pg_modes% }
	for b in $pg_builtins; do
		case $b in select-only|simple-update|tpcb-like) ;; *) die "PG_BUILTINS item '$b': use select-only simple-update tpcb-like" ;; esac
	done
	(size_mb "$pg_sb") > /dev/null 2>&1 || die "PG_SHARED_BUFFERS=$pg_sb: use a size like 16M or 1G"
	[ -z "$pg_scale" ] || posint PG_SCALE "$pg_scale"
	[ -x "$here/pg-guest-files.sh" ] || die "no $here/pg-guest-files.sh to put PostgreSQL in the guest; or PGBENCH=off"
fi

# resolve KERNEL_VALUE FILE: fetch and resolve into FILE (shell assignments).
resolve() {
	"$here/kernel-resolve.sh" "$1" > "$2" || exit $?
	grep -q "^K_SOURCE='host'" "$2" &&
		die "$1 is the running kernel: no guest to boot (make bench KERNEL=host runs scripts/bench-host.sh)"
	return 0
}
resolve "$KERNEL" "$rundir/logs/kernel-main.env"
# shellcheck disable=SC1091 # written just above
. "$rundir/logs/kernel-main.env"
main_label=$K_LABEL
if [ -n "${MODELS:-}" ]; then
	main_models=$(split_list "$MODELS")
	for m in $main_models; do
		case " $K_MODELS " in
		"  ") ;;
		*" $m "*) ;;
		*) die "kernel $main_label accepts the models '$K_MODELS', not '$m' (set MODELS from those)" ;;
		esac
	done
else
	main_models=${K_MODELS:-current}
fi
kernels="main"
base_label=""
if [ "$BASELINE" != none ] && [ -n "$BASELINE" ]; then
	resolve "$BASELINE" "$rundir/logs/kernel-baseline.env"
	# shellcheck disable=SC1091 # written just above
	. "$rundir/logs/kernel-baseline.env"
	case " $K_MODELS " in
	*" none "*) ;;
	*) die "BASELINE=$BASELINE has no PREEMPT_NONE (models: ${K_MODELS:-unknown}); use 6.12, 6.1 or BASELINE=none" ;;
	esac
	base_models=$(split_list "${BASELINE_MODELS:-none}")
	for m in $base_models; do
		case " $K_MODELS " in
		*" $m "*) ;;
		*) die "BASELINE_MODELS: $BASELINE has no model '$m' (it has: $K_MODELS)" ;;
		esac
	done
	if [ "$K_LABEL" = "$main_label" ] && [ "$K_IMAGE" = "$(sed -n "s/^K_IMAGE='\(.*\)'$/\1/p" "$rundir/logs/kernel-main.env")" ]; then
		note "BASELINE is the kernel under test; running it once"
	else
		kernels="baseline main"
		base_label=$K_LABEL
	fi
fi

# 1 GB pages in the guest cost guest RAM that the host must have free.
# bufbench's segment is the pool plus its descriptors and tables (about 6%
# more at the default sizes): reserve 10% over the pool, plus slack.
seg_mb=$(( pool_mb + pool_mb / 10 ))
n1g=$(( (seg_mb + 1023) / 1024 ))
avail_mb=$(( $(sed -n 's/MemAvailable: *\([0-9]*\).*/\1/p' /proc/meminfo) / 1024 ))
base_mem=$(( 384 + 2 * seg_mb + rel_mb ))
case " $PAGES " in
*" 1g "*|*" try-1g "*)
	if [ $(( base_mem + n1g * 1024 )) -gt $(( avail_mb * 3 / 4 )) ]; then
		if [ "$HUGEPAGES" = compare ] && [ "$pages_given" = 0 ]; then
			note "1 GB pages need $(( base_mem + n1g * 1024 )) MB of guest RAM, host has $avail_mb MB available: skipping 1g"
			PAGES=$(echo "$PAGES" | sed 's/1g//')
		fi
	fi ;;
esac
has_1g=$(echo " $PAGES " | grep -q -e ' 1g ' -e ' try-1g ' && echo 1 || echo 0)
hp2m=$(( (seg_mb + 1) / 2 + 16 ))

# --- one initramfs for every kernel -----------------------------------------
work=$(mktemp -d)
qpid=""
interrupted=0
stop_guest() {
	[ -n "$qpid" ] || return 0
	kill -TERM "$qpid" 2>/dev/null || true
	i=0
	while kill -0 "$qpid" 2>/dev/null && [ $i -lt 10 ]; do sleep 0.5; i=$((i + 1)); done
	kill -KILL "$qpid" 2>/dev/null || true
	wait "$qpid" 2>/dev/null || true
	qpid=""
}
trap 'stop_guest; rm -rf "$work"' EXIT
trap 'interrupted=1' INT TERM
"$here/initramfs.sh" "$work/base.cpio.gz"
# The initramfs unpacks into guest RAM (PostgreSQL's files make it large);
# a cluster on the guest's tmpfs (data, WAL, shared_buffers and backends)
# needs about 250 MB more at 16M, plus twice any larger shared_buffers.
rootfs_mb=$(( $(wc -c < "$work/base.cpio.gz") * 4 / 1048576 ))
pg_mem=0
[ "$PGBENCH" = on ] && pg_mem=$(( 256 + 2 * $(size_mb "$pg_sb") ))
MEM_MB=${MEM_MB:-$(( base_mem + rootfs_mb + pg_mem + has_1g * n1g * 1024 ))}
posint MEM_MB "$MEM_MB"

# --- the matrix ---------------------------------------------------------------
# Repetition outermost: slow drift in the host then spreads over every cell
# instead of biasing one model.
cells_for() { # LABEL MODELS -> lines "id model pages lock clients rep"
	r=1
	while [ $r -le "$REPEAT" ]; do
		for m in $2; do for p in $PAGES; do for l in $LOCKS; do for c in $CLIENTS; do
			echo "bufbench-$(echo "$1" | tr '/ ' '__')-$m-$p-$l-c$c-r$r $m $p $l $c $r"
		done; done; done; done
		r=$((r + 1))
	done
}
# pg_cells_for LABEL MODELS [TAG] -> lines "id pgbench huge_pages models
# clients repeat" (comma lists), after the kernel's bufbench cells; TAG (the
# model of a one-model boot) keeps ids unique across boots of one kernel.
pg_cells_for() {
	[ "$PGBENCH" = on ] || return 0
	for hp in $pg_modes; do
		echo "pgbench-$(echo "$1" | tr '/ ' '__')${3:+-$3}-hp$hp pgbench $hp $(echo "$2" | tr ' ' ,) $(echo "$CLIENTS" | tr ' ' ,) $REPEAT"
	done
}
# pg_runs_of MODELS CLIENTS REPEAT (comma lists): pgbench runs in one cell.
pg_runs_of() {
	echo $(( $(echo "$1" | tr , ' ' | wc -w) * $(echo "$2" | tr , ' ' | wc -w) * \
		$(echo "$pg_builtins" | wc -w) * $3 ))
}
# Boot units: KERNEL (all its models in one boot, switched at run time) or
# KERNEL.MODEL (one boot per model, set on the command line).
case ${MODEL_SWITCH:=boot} in boot|runtime) ;; *) die "MODEL_SWITCH=$MODEL_SWITCH: expected boot or runtime" ;; esac
units=""
: > "$work/all.cells"
for k in $kernels; do
	# shellcheck disable=SC1090 # per-kernel file
	. "$rundir/logs/kernel-$k.env"
	if [ "$k" = baseline ]; then models=$base_models; else models=$main_models; fi
	if [ "$MODEL_SWITCH" = boot ] && [ "$models" != current ]; then
		for m in $models; do
			units="$units $k.$m"
			{ cells_for "$K_LABEL" "$m"; pg_cells_for "$K_LABEL" "$m" "$m"; } > "$work/$k.$m.cells"
		done
	else
		units="$units $k"
		{ cells_for "$K_LABEL" "$models"; pg_cells_for "$K_LABEL" "$models"; } > "$work/$k.cells"
	fi
done
for u in $units; do cat "$work/$u.cells" >> "$work/all.cells"; done
total=$(wc -l < "$work/all.cells")
total_pg=$(awk '$2 == "pgbench"' "$work/all.cells" | wc -l)
total_bb=$((total - total_pg))
pg_runs_total=0
while read -r id model hp pgm pgc rep; do
	if [ "$model" = pgbench ]; then pg_runs_total=$((pg_runs_total + $(pg_runs_of "$pgm" "$pgc" "$rep"))); fi
done < "$work/all.cells"
started_at=$(date +%s)
cell_est=$((WARMUP + DURATION + 4))
# A pgbench cell: its setup (initdb, server start, pgbench -i; about a
# minute under TCG, learnt from the first cell), then each run: pgsample
# and pgbench starting, the run itself, its document.
pg_run_est=$((DURATION + 5))
pg_setup_est=60

fmt_s() { if [ "$1" -ge 60 ]; then echo "$(($1 / 60))m$(($1 % 60))s"; else echo "${1}s"; fi; }
finished() { find "$rundir/runs" -name 'bufbench-*.json' | wc -l; }
pg_docs() { find "$rundir/runs" -name 'pgbench-*.json' | wc -l; }
profiles() { find "$rundir/perf" -name '*.perf.txt' 2>/dev/null | wc -l; }

# progress N DESCRIPTION: one line per cell, with the time left estimated
# from the time cells took so far (boots excluded: each kernel adds its own
# boot) or, before the first, from DURATION+WARMUP; pgbench cells from
# their setup and run count, the setup learnt from the first one.
cell_secs=0
boot_est=15
left_est() {
	if [ "$cells_timed" -gt 0 ]; then per=$((cell_secs / cells_timed)); else per=$cell_est; fi
	bl=$((total_bb - bb_started)); [ "$bl" -ge 0 ] || bl=0
	pl=$((total_pg - pg_started)); [ "$pl" -ge 0 ] || pl=0
	rl=$((pg_runs_total - pg_runs_started)); [ "$rl" -ge 0 ] || rl=0
	echo $((bl * per + pl * pg_setup_est + rl * pg_run_est + boots_left * boot_est))
}
progress() {
	now=$(date +%s); el=$((now - started_at))
	note "[$1/$total] $2 | $(fmt_s "$el") elapsed, ~$(fmt_s "$(left_est)") left ($accel$([ "$accel" = tcg ] && echo ", emulated"))"
}
cells_timed=0
boots_left=0
bb_started=0 pg_started=0 pg_runs_started=0

# cell_ended NOW: account the time of the cell that ran last (cur).
cell_ended() {
	[ -n "$cur" ] || return 0
	if [ "$cur_kind" = pgbench ]; then
		s=$(( $1 - cur_t - cur_runs * pg_run_est ))
		[ "$s" -ge 0 ] || s=0
		pg_setup_est=$s
	else
		cell_secs=$((cell_secs + $1 - cur_t)); cells_timed=$((cells_timed + 1))
	fi
	cur_kind=""
}

: > "$work/boots.jsonl"
failed_cells=0
pg_passed=0
n=0

# fail_cell ID REASON LOG: a cell without a result; the console log is kept.
# Under HUGEPAGES=compare, 1 GB cells are "where it can be reserved": their
# failure is recorded as unavailable, not as a failed bench.
fail_cell() {
	case $1 in
	*-1g-*) if [ "$HUGEPAGES" = compare ] && [ "$pages_given" = 0 ]; then
		printf '%s\nconsole log: %s\n' "$2" "$3" > "$rundir/logs/unavailable-$1.txt"
		note "cell $1: 1 GB pages unavailable ($2)"
		return 0
	fi ;;
	esac
	printf '%s\nconsole log: %s\n' "$2" "$3" > "$rundir/logs/failed-$1.txt"
	note "cell $1 failed: $2 (console log: $3)"
	failed_cells=$((failed_cells + 1))
}

# run_kernel UNIT: boot kernel main|baseline, or main.MODEL|baseline.MODEL
# with preempt=MODEL, until the unit's cells are all tried.
run_kernel() {
	# shellcheck disable=SC1090 # per-kernel file
	. "$rundir/logs/kernel-${1%%.*}.env"
	boot_model=""
	[ "$1" != "${1%%.*}" ] && boot_model=${1#*.}
	accel=$("$here/qemu-accel.sh" "$K_IMAGE" "$work/base.cpio.gz")
	# Full boot messages: a guest that hangs or panics is diagnosed from its
	# console log, and printing them costs under a second even under TCG.
	cmdline="console=ttyS0 panic=-1"
	[ "$has_1g" = 1 ] && cmdline="$cmdline hugepagesz=1G hugepages=$n1g"
	[ -n "$boot_model" ] && cmdline="$cmdline preempt=$boot_model"
	[ -n "${PREEMPTLAB_GUEST_APPEND:-}" ] && cmdline="$cmdline $PREEMPTLAB_GUEST_APPEND"
	if [ "$accel" = tcg ]; then boot_to=${PREEMPTLAB_BOOT_TIMEOUT:-180}; slack=120; else boot_to=${PREEMPTLAB_BOOT_TIMEOUT:-60}; slack=60; fi
	cell_to=${PREEMPTLAB_CELL_TIMEOUT:-$((WARMUP + DURATION + slack))}
	# A pgbench cell: setup measured at 30-90 s under TCG on a loaded 2-CPU
	# host (docs/postgres.md), so 10 minutes; each run its duration plus
	# a minute for pgsample, pgbench's connections and the document.
	if [ "$accel" = tcg ]; then pg_setup_to=600 pg_slack=60; else pg_setup_to=240 pg_slack=30; fi
	cp "$work/$1.cells" "$work/todo"
	boot=0
	while [ -s "$work/todo" ] && [ "$interrupted" = 0 ]; do
		boot=$((boot + 1))
		tag="$(echo "$K_LABEL" | tr '/ ' '__')${boot_model:+-$boot_model}-boot$boot"
		con="$rundir/logs/console-$tag.log"; chan="$rundir/logs/channel-$tag.log"
		mkdir -p "$work/plan"
		{
			echo "PL_LABEL='$K_LABEL'"
			echo "PL_VIRT=$accel"
			echo "PL_DURATION=$DURATION"
			echo "PL_WARMUP=$WARMUP"
			echo "PL_ARGS='--pool $POOL --relation $RELATION${WORKLOAD:+ --workload $WORKLOAD}${STRATEGY:+ --strategy $STRATEGY}${BUFBENCH_ARGS:+ $BUFBENCH_ARGS}'"
			echo "PL_HP2M=$hp2m"
			echo "PL_PROFILE=$PROFILE"
			echo "PL_PROFILE_FREQ=$PROFILE_FREQ"
			echo "PL_TOP='$top'"
			echo "PL_PG_SB='$pg_sb'"
			echo "PL_PG_BUILTINS='$pg_builtins'"
			echo "PL_PG_SCALE='$pg_scale'"
		} > "$work/plan/plan.env"
		cp "$work/todo" "$work/plan/plan.cells"
		(cd "$work/plan" && find . | cpio -o -H newc --quiet -R 0:0) | gzip -1 > "$work/plan.cpio.gz"
		cat "$work/base.cpio.gz" "$work/plan.cpio.gz" > "$work/boot.cpio.gz"

		t0=$(date +%s); ready_s=""; first_s=""; end=""; cur=""; cur_t=0; done_t=""; cur_kind=""; cur_to=$cell_to
		: > "$work/seen"
		: > "$con"; : > "$chan"
		"$here/qemu-boot.sh" "$K_IMAGE" "$work/boot.cpio.gz" "$cmdline" "$accel" "$VCPUS" "$MEM_MB" \
			"$con" "$chan" > "$rundir/logs/qemu-$tag.log" 2>&1 &
		qpid=$!
		note "booted $K_LABEL ($K_RELEASE) under $accel: $VCPUS vCPUs, $MEM_MB MB, '$cmdline'"
		# Ctrl-C also hits the children of this loop; "|| true" keeps set -e
		# from ending the script before the finished runs are settled.
		while :; do
			"$here/qemu-channel.sh" "$chan" "$rundir/runs" "$rundir/logs" "$rundir/perf" > "$work/events" || true
			now=$(date +%s)
			if [ -z "$ready_s" ] && grep -q '^ready' "$work/events"; then
				ready_s=$((now - t0)); boot_est=$ready_s
				if [ "$PROFILE" = on ] && ! grep -q '^profile on' "$work/events"; then
					note "PROFILE=on, but $K_LABEL runs unprofiled: $(sed -n 's/^profile off //p' "$work/events" | head -n1)"
				fi
			fi
			[ -z "$first_s" ] && grep -q -e '^ok' -e '^fail' "$work/events" && first_s=$((now - t0))
			last=$(sed -n 's/^start //p' "$work/events" | tail -n1)
			if [ -n "$last" ] && [ "$last" != "$cur" ]; then
				cell_ended "$now"
				cur=$last; cur_t=$now
				n=$((n + 1))
				read -r f1 f2 f3 f4 f5 <<-EOF
				$(awk -v id="$cur" '$1 == id {print $2, $3, $4, $5, $6; exit}' "$work/todo")
				EOF
				if [ "${f1:-}" = pgbench ]; then
					cur_kind=pgbench; cur_runs=$(pg_runs_of "$f3" "$f4" "$f5")
					cur_to=${PREEMPTLAB_PG_TIMEOUT:-$((pg_setup_to + cur_runs * (DURATION + pg_slack)))}
					progress "$n" "$K_LABEL pgbench huge_pages=$f2 models $f3 clients $f4 x$f5: $cur_runs runs after its setup (limit ${cur_to}s)"
					pg_started=$((pg_started + 1)); pg_runs_started=$((pg_runs_started + cur_runs))
				else
					cur_kind=bufbench; cur_to=$cell_to
					progress "$n" "$K_LABEL ${f1:-} ${f2:-} ${f3:-} c${f4:-} r${f5:-}"
					bb_started=$((bb_started + 1))
				fi
			fi
			# pgbench documents arrive one by one during their cell.
			grep '^ok pgbench-' "$work/events" | while read -r _ id; do
				grep -qx "$id" "$work/seen" && continue
				echo "$id" >> "$work/seen"
				note "  pgbench result $id: $(jq -r '"tps \(.results.tps), SpinDelay samples \(.sampler.spindelay_samples) of \(.sampler.samples)"' "$rundir/runs/$id.json" 2>/dev/null)"
			done
			if grep -q '^done$' "$work/events"; then
				[ -n "$end" ] || cell_ended "$now"
				end="done"
			fi
			if ! kill -0 "$qpid" 2>/dev/null; then wait "$qpid" 2>/dev/null || true; qpid=""; [ -n "$end" ] || end=crashed; break; fi
			if [ -n "$end" ]; then	# DONE seen: let it power off, briefly
				[ -n "$done_t" ] || done_t=$now
				[ $((now - done_t)) -ge 30 ] && { stop_guest; break; }
				sleep 1 || true; continue
			fi
			if [ "$interrupted" = 1 ]; then end=interrupted; stop_guest; break; fi
			if [ -z "$ready_s" ] && [ $((now - t0)) -ge "$boot_to" ]; then end=no-answer; stop_guest; break; fi
			if [ -n "$cur" ] && [ $((now - cur_t)) -ge "$cur_to" ] &&
				! grep -q -e "^ok $cur\$" -e "^fail $cur " -e "^pass $cur " "$work/events"; then end=cell-timeout; stop_guest; break; fi
			sleep 1 || true
		done
		"$here/qemu-channel.sh" "$chan" "$rundir/runs" "$rundir/logs" "$rundir/perf" > "$work/events" || true
		# A guest that powers off right after DONE can exit before the
		# loop's last read of the channel: that is a finished run.
		if [ "$end" = crashed ] && grep -q '^done$' "$work/events"; then end="done"; fi
		wall=$(( $(date +%s) - t0 ))
		jq -cn --arg lbl "$K_LABEL" --argjson boot "$boot" --arg fin "$end" --argjson wall "$wall" \
			--arg ready "$ready_s" --arg first "$first_s" --arg con "${con#"$rundir"/}" --arg chan "${chan#"$rundir"/}" \
			'{label:$lbl, boot:$boot, end:$fin, wall_s:$wall, ready_s:($ready|tonumber? // null),
			  first_result_s:($first|tonumber? // null), console:$con, channel:$chan}' >> "$work/boots.jsonl"
		note "$K_LABEL${boot_model:+/$boot_model} boot $boot: $end after $(fmt_s "$wall") (guest answered after ${ready_s:-never}s, first result after ${first_s:-never}s)"

		# Settle every cell of this boot: result, reported failure, or lost.
		: > "$work/todo.next"
		while read -r id rest; do
			if [ -f "$rundir/runs/$id.json" ]; then continue; fi
			if grep -q "^pass $id " "$work/events"; then pg_passed=$((pg_passed + 1)); continue; fi
			why=$(sed -n "s/^fail $id //p" "$work/events" | head -n1)
			if [ -n "$why" ]; then fail_cell "$id" "$why" "${con#"$rundir"/}"; continue; fi
			if [ "$id" = "$cur" ]; then
				case $end in
				cell-timeout) fail_cell "$id" "no result within ${cur_to}s: guest killed" "${con#"$rundir"/}" ;;
				interrupted) fail_cell "$id" "interrupted (Ctrl-C)" "${con#"$rundir"/}" ;;
				*) fail_cell "$id" "guest ended ($end) during this cell" "${con#"$rundir"/}" ;;
				esac
				continue
			fi
			case $end in
			no-answer) fail_cell "$id" "guest never answered within ${boot_to}s of boot: killed" "${con#"$rundir"/}" ;;
			interrupted) ;;
			*) if [ -z "$ready_s" ]; then
				fail_cell "$id" "guest ended ($end) before its runner answered" "${con#"$rundir"/}"
			else
				echo "$id $rest" >> "$work/todo.next"
			fi ;;
			esac
		done < "$work/todo"
		mv "$work/todo.next" "$work/todo"
		# A kernel that never reaches its runner will not on a second try.
		[ -z "$ready_s" ] && break
		[ "$boot" -ge 3 ] && [ -s "$work/todo" ] && { note "$K_LABEL: giving up after 3 boots"; break; }
	done
	while read -r id rest; do
		[ "$interrupted" = 1 ] || fail_cell "$id" "not run: the guest kept failing" "logs/"
	done < "$work/todo"
	jq -cn --arg lbl "$K_LABEL" --arg version "${K_VERSION:-}" --arg package "${K_PACKAGE:-}" \
		--arg pkgver "${K_PKGVERSION:-}" --arg suite "${K_SUITE:-}" --arg image "$K_IMAGE" \
		--arg sha "$K_SHA256" --arg config "${K_CONFIG:-}" --arg release "${K_RELEASE:-}" \
		--arg models "$(awk '{print $2}' "$work/$1.cells" | sort -u | tr '\n' ' ')" --arg accel "$accel" \
		--argjson vcpus "$VCPUS" --argjson mem "$MEM_MB" --arg cmdline "$cmdline" --arg role "$1" \
		'{role:$role, label:$lbl, version:$version, package:$package, package_version:$pkgver,
		  suite:$suite, image:$image, image_sha256:$sha, config:$config, release:$release,
		  models:($models|split(" ")|map(select(. != ""))), accel:$accel, emulated:($accel == "tcg"),
		  vcpus:$vcpus, memory_mb:$mem, cmdline:$cmdline}' >> "$work/kernels.jsonl"
}

: > "$work/kernels.jsonl"
boots_left=$(echo "$units" | wc -w)
note "matrix: $total_bb bufbench cells$([ "$PGBENCH" = on ] && echo ", $total_pg pgbench cells (huge_pages $pg_modes; $pg_runs_total pgbench runs, shared_buffers $pg_sb)"), about $(fmt_s "$(left_est)") with boots"
for u in $units; do
	[ "$interrupted" = 1 ] && break
	boots_left=$((boots_left - 1))
	run_kernel "$u"
done
trap - INT TERM

# --- manifest and summary ---------------------------------------------------
jq -n --slurpfile kernels "$work/kernels.jsonl" --slurpfile boots "$work/boots.jsonl" \
	--arg qemu "$(${QEMU:-qemu-system-x86_64} --version | head -n1)" \
	--arg kernel "$KERNEL" --arg baseline "$BASELINE" --arg hp "$HUGEPAGES" \
	--arg models "$main_models" --arg pages "$PAGES" --arg clients "$CLIENTS" --arg locks "$LOCKS" \
	--argjson duration "$DURATION" --argjson warmup "$WARMUP" --argjson repeat "$REPEAT" \
	--arg pool "$POOL" --arg relation "$RELATION" --arg workload "$WORKLOAD" \
	--argjson total "$total" --argjson ok "$(( $(finished) + pg_passed ))" --argjson failed "$failed_cells" \
	--argjson nbb "$total_bb" --argjson npg "$total_pg" \
	--argjson interrupted "$interrupted" --arg host "$(uname -r)" --argjson hcpus "$host_cpus" \
	--arg pgbench "$PGBENCH" --arg pgmodes "$pg_modes" --arg pgsb "$pg_sb" --arg pgb "$pg_builtins" \
	--arg pgscale "$pg_scale" --argjson pgruns "$pg_runs_total" --argjson pgdocs "$(pg_docs)" \
	--arg pgto "${PREEMPTLAB_PG_TIMEOUT:-}" \
	--arg profile "$PROFILE" --argjson pfreq "$PROFILE_FREQ" --argjson nprof "$(profiles)" \
	--arg pgcells "$(awk '$2 == "pgbench"' "$work/all.cells")" \
	'def l: split(" ")|map(select(. != ""));
	 {guest_bench: {asked: {KERNEL:$kernel, BASELINE:$baseline, HUGEPAGES:$hp, MODELS:($models|l),
	   PAGES:($pages|l), CLIENTS:($clients|l|map(tonumber)), LOCKS:($locks|l), DURATION:$duration,
	   WARMUP:$warmup, REPEAT:$repeat, POOL:$pool, RELATION:$relation, WORKLOAD:$workload,
	   PGBENCH:$pgbench},
	  qemu:$qemu, host:{release:$host, cpus:$hcpus}, kernels:$kernels, boots:$boots,
	  cells:{total:$total, bufbench:$nbb, pgbench:$npg, ok:$ok, failed:$failed},
	  pgbench:{enabled:($pgbench == "on"), huge_pages:($pgmodes|l), shared_buffers:$pgsb,
	    builtins:($pgb|l), scale:(if $pgscale == "" then "auto" else ($pgscale|tonumber) end),
	    clients:($clients|l|map(tonumber)), duration_s:$duration, repeat:$repeat,
	    cell_timeout_override_s:(if $pgto == "" then null else ($pgto|tonumber) end),
	    runs_planned:$pgruns, documents:$pgdocs,
	    cells:[$pgcells | split("\n")[] | select(. != "") | split(" ") |
	      {id:.[0], huge_pages:.[2], models:(.[3]|split(",")), clients:(.[4]|split(",")|map(tonumber)),
	       repeat:(.[5]|tonumber)}]},
	  profile:{asked:$profile, where:"guest", event:"cpu-clock", freq_hz:$pfreq,
	    callgraph:"fp", profiles:$nprof},
	  interrupted:($interrupted == 1)}}' > "$work/manifest.json"
if [ -f "$rundir/manifest.json" ]; then
	jq -s '.[0] * .[1]' "$rundir/manifest.json" "$work/manifest.json" > "$work/m2" && mv "$work/m2" "$rundir/manifest.json"
else
	mv "$work/manifest.json" "$rundir/manifest.json"
fi
"$here/kernel-summary.sh" "$rundir" "$base_label"
[ "$PROFILE" = on ] && note "profiles: $(profiles) of $(finished) bufbench runs in $rundir/perf (perf record -g -e cpu-clock -F $PROFILE_FREQ in the guest; the profiled runs' rates include perf's overhead)"

[ "$interrupted" = 1 ] && { note "interrupted: kept the $(( $(finished) + $(pg_docs) )) finished runs in $rundir"; exit 130; }
[ $(( $(finished) + $(pg_docs) )) -gt 0 ] || die "no cell produced a result; see $rundir/logs/"
if [ "$failed_cells" -gt 0 ]; then
	note "$failed_cells of $total cells failed (reasons in $rundir/logs/failed-*.txt)"
	exit 1
fi
note "all $total cells finished: $rundir"
