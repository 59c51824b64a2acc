#!/bin/sh
# The runner: carries out RUNDIR/plan (written by build/plan) unit by unit.
# A unit is the host (a cell runner started here, no boot) or one guest
# boot (QEMU with the cell runner as init's job); either way the cell
# runner (lab/runner/) runs the unit's cells and writes the result
# channel, and this loop reads it (scripts/qemu-channel.sh), shows
# progress and the time left, enforces the boot and cell timeouts, retries
# a guest that died with cells left, holds the host's huge page
# reservations, and on Ctrl-C stops the unit and keeps every result that
# arrived.  It decides nothing about the
# matrix: that is the plan's.
# How each unit boots and how long it may take is the plan's too
# (plan/UNIT.plan, plan/UNIT.qemu: lab/plan/boot.c); this loop logs what it
# executed (logs/qemu-TAG.argv, logs/limits-UNIT.txt).  scripts/bench.sh
# has had the servers and guest kernels (scripts/materials.sh: logs/pg-*.tsv,
# logs/kernel-ROLE.env) and the accelerator before the final plan.
# Usage: scripts/run-plan.sh RUNDIR [INITRAMFS]   (INITRAMFS: guests only)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/hugepages.sh
. "$here/hugepages.sh"
# shellcheck source=scripts/run-state.sh
. "$here/run-state.sh"
case $# in 1|2) ;; *) die "usage: $0 RUNDIR [INITRAMFS]" ;; esac
rundir=$(cd "$1" && pwd)
base_initrd=${2:-}
plan=$rundir/plan
top=$(dirname "$here")
[ -f "$plan/bench.conf" ] || die "no plan in $rundir (build/plan --out $rundir writes one)"
{ [ -x "$top/build/manifest" ] && [ -x "$top/build/jget" ]; } || die "build/manifest and build/jget are missing: make build-all"
mkdir -p "$rundir/runs" "$rundir/logs" "$rundir/perf"
# What this loop saw, as plain facts; build/manifest composes manifest.json
# from them and the plan (docs/json.md).
outcomes=$rundir/logs/outcomes.tsv
: > "$outcomes"
# outcome RECORD ID KEY VALUE: one fact (run -, unit UID, boot TAG, cell ID).
outcome() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$(printf '%s' "$4" | tr '\t\n' '  ')" >> "$outcomes"; }
# A run from a tree with uncommitted changes keeps them (logs/lab-dirty.patch).
lab_record_source "$top" "$rundir/logs"
TAB=$(printf '\t')
bconf() { plan_value "$plan/bench.conf" "$1"; }
is_host=$(bconf host)
garch=$(bconf arch) qemu_bin=$(bconf qemu)
poweroff_grace=$(bconf poweroff_grace_s) stop_grace=$(bconf stop_grace_s)
# Which PostgreSQL: PG_VERSION's server and MITIGATIONS' (pg_root.VERSION.
# BUILD), had once before any unit by scripts/materials.sh; every unit is
# told the roots and packages, which each pgbench document records.
[ -f "$rundir/logs/pg-version.tsv" ] ||
	die "no logs/pg-version.tsv: scripts/bench.sh has the servers (scripts/materials.sh) before it runs the plan"
# (cut, not read: a TAB is white space to IFS, so an empty ROOT would vanish.)
pg_version=$(cut -f1 "$rundir/logs/pg-version.tsv") pg_root=$(cut -f3 "$rundir/logs/pg-version.tsv")
pg_package=$(cut -f4 "$rundir/logs/pg-version.tsv")

work=$(mktemp -d)
# What a run killed outright left is undone first; this run's is recorded.
run_state_begin "$work" "$rundir"
# The host's PostgreSQL runs as its own user and must reach its cluster.
chmod 711 "$work"
upid=""		# the running unit: QEMU's pid, or the host cell runner's group
interrupted=0
stop_unit() {
	[ -n "$upid" ] || return 0
	if [ "$is_host" = 1 ]; then kill -TERM "-$upid" 2>/dev/null || true
	else kill -TERM "$upid" 2>/dev/null || true; fi
	i=0
	while kill -0 "$upid" 2>/dev/null && [ "$i" -lt "$((stop_grace * 2))" ]; do sleep 0.5; i=$((i + 1)); done
	if [ "$is_host" = 1 ]; then kill -KILL "-$upid" 2>/dev/null || true
	else kill -KILL "$upid" 2>/dev/null || true; fi
	wait "$upid" 2>/dev/null || true
	upid=""
}
# The host's preemption model is the machine's, not the lab's: when the
# plan switches it (MODELS on the host, checked by the planner), the model
# it had goes back on every exit path, after the unit has stopped.
PREEMPT=/sys/kernel/debug/sched/preempt
host_model_before="" host_model_after=""
host_model() { sed -n 's/.*(\([a-z_]*\)).*/\1/p' "$PREEMPT" 2>/dev/null; }
restore_host_model() {
	[ -n "$host_model_before" ] || return 0
	if [ "$(host_model)" != "$host_model_before" ]; then
		echo "$host_model_before" > "$PREEMPT" 2>/dev/null ||
			note "could not restore the host's model $host_model_before: echo $host_model_before > $PREEMPT"
	fi
	host_model_after=$(host_model)
	[ "$host_model_after" = "$host_model_before" ] || note "the host's model is $host_model_after, not $host_model_before as before"
}
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'stop_unit; restore_host_model; hp_restore_all; rm -rf "$work"; run_state_end'
# A signal stops the running unit and settles what arrived (below).
# Which signal: a SIGTERM from a batch system was recorded as "Ctrl-C".
stopped_by=""
trap 'interrupted=1 stopped_by="Ctrl-C, SIGINT"' INT USR1
trap 'interrupted=1 stopped_by="SIGTERM"' TERM
trap 'interrupted=1 stopped_by="SIGHUP, the terminal closed"' HUP

fmt_s() { if [ "$1" -ge 60 ]; then echo "$(($1 / 60))m$(($1 % 60))s"; else echo "${1}s"; fi; }

# --- the time left: the plan's estimate, corrected by what cells took ----
total=$(bconf total_cells) total_bb=$(bconf total_bufbench) total_pg=$(bconf total_pgbench) pg_runs_total=$(bconf total_pgruns)
boots_left=0; [ "$is_host" = 1 ] || boots_left=$(wc -l < "$plan/units.tsv")
cell_est=$(bconf est_cell_s) pg_run_est=$(bconf est_pg_run_s) pg_setup_est=$(bconf est_pg_setup_s) boot_est=$(bconf est_boot_s)
cell_secs=0 cells_timed=0 bb_started=0 pg_started=0 pg_runs_started=0 n=0
started_at=$(date +%s)
outcome run - started "$started_at"
left_est() {
	if [ "$cells_timed" -gt 0 ]; then per=$((cell_secs / cells_timed)); else per=$cell_est; fi
	bl=$((total_bb - bb_started)); [ "$bl" -ge 0 ] || bl=0
	pl=$((total_pg - pg_started)); [ "$pl" -ge 0 ] || pl=0
	rl=$((pg_runs_total - pg_runs_started)); [ "$rl" -ge 0 ] || rl=0
	echo $((bl * per + pl * pg_setup_est + rl * pg_run_est + boots_left * boot_est))
}
progress() {
	el=$(( $(date +%s) - started_at ))
	note "[$1/$total] $2 | $(fmt_s "$el") elapsed, ~$(fmt_s "$(left_est)") left ($accel)"
}
# cell_ended NOW: account the time of the cell that ran last (cur).
cell_ended() {
	[ -n "$cur" ] || return 0
	if [ "$cur_kind" = pgbench ]; then
		s=$(( $1 - cur_t - cur_runs * pg_run_est )); [ "$s" -ge 0 ] || s=0
		pg_setup_est=$s
	else
		cell_secs=$((cell_secs + $1 - cur_t)); cells_timed=$((cells_timed + 1))
	fi
	cur_kind=""
}

# --- settling cells ------------------------------------------------------
failed_cells=0 pg_passed=0
# settle_cell ID STATUS REASON LOG: a cell without a result, for people
# (logs/STATUS-ID.txt) and for the manifest.
settle_cell() {
	printf '%s\n' "$3" > "$rundir/logs/$2-$1.txt"
	[ -z "$4" ] || printf 'log: %s\n' "$4" >> "$rundir/logs/$2-$1.txt"
	outcome cell "$1" status "$2"
	outcome cell "$1" reason "$3"
	outcome cell "$1" log "$4"
}
# cell_watch ID: what the plan says of a cell for the progress line and
# the watchdog, "KIND TAB RUNS TAB LIMIT_S TAB TEXT".
cell_watch() {
	plan_values "$plan/$uid.plan" cell_watch | while IFS= read -r l; do
		[ "${l%%"$TAB"*}" = "$1" ] || continue
		printf '%s\n' "${l#*"$TAB"}"
		break
	done
}
# optional_cells: the unit's cells of a page size asked "where it can be
# had", as the plan lists them: "PAGES TAB ID" lines.
optional_cells() { plan_values "$plan/$uid.plan" optional_cell; }
# fail_cell ID REASON LOG: a cell without a result.  An optional one is
# unavailable, not failed.
fail_cell() {
	if optional_cells | cut -f2 | grep -qxF "$1"; then
		settle_cell "$1" unavailable "$2" "$3"
		note "cell $1: unavailable here ($2)"
		return 0
	fi
	settle_cell "$1" failed "$2" "$3"
	note "cell $1 failed: $2 (log: $3)"
	failed_cells=$((failed_cells + 1))
}

# reserve_unit UID CELLS: the huge pages the plan holds for the unit
# (plan/UID.plan: "reserve PAGES KB COUNT required|optional HINT"), by
# difference, given back on every exit.  An optional size that cannot be
# had drops its cells; a required one stops the bench before any cell ran.
reserve_unit() {
	plan_values "$plan/$1.plan" reserve > "$work/reserve"
	while read -r p kb want policy hint; do
		hp_reserve "$kb" "$want" && continue
		why="cannot reserve $want pages of $kb kB (as root: $(hp_sysctl_hint "$kb" "$want"))"
		[ "$policy" = optional ] || die "$p: $why; or $hint"
		optional_cells | while IFS="$TAB" read -r size id; do
			[ "$size" = "$p" ] || continue
			settle_cell "$id" unavailable "$why" ""
			grep -vF "$(printf 'bufbench\t%s\t' "$id")" "$2" > "$2.new" || true
			mv "$2.new" "$2"
		done
		note "$p: skipped: $why"
	done < "$work/reserve"
}

# --- one unit ---------------------------------------------------------------
accel=none
# unit_run_file KEY: the unit's plan/UID.plan value (what this runner enforces).
unit_run_file() { plan_value "$plan/$uid.plan" "$1"; }

# unit_prepare: the unit's work copies (its cells, and its plan file for the
# cell runner with the servers it is told of), its limits as read
# (logs/limits-UID.txt), its reservations, and its kernel or the host's costs.
unit_prepare() {
	cells=$work/$uid.cells
	plan_values "$plan/$uid.plan" cell > "$cells"
	sed "/^cell$TAB/d" "$plan/$uid.plan" > "$work/$uid.conf"
	# What this loop enforces, as planned, and logged as it read it.
	accel=$(unit_run_file accel) cmdline=$(unit_run_file cmdline) attempts=$(unit_run_file attempts) boot_to=$(unit_run_file boot_timeout_s)
	retry_console=$(unit_run_file retry_console)
	cell_to=$(unit_run_file cell_timeout_s) pg_to=$(unit_run_file pg_timeout_s) pins=$(unit_run_file vcpu_pin)
	restore=$(unit_run_file restore_model)
	printf 'accel\t%s\nattempts\t%s\nboot_timeout_s\t%s\ncell_timeout_s\t%s\npg_timeout_s\t%s\nvcpu_pin\t%s\nretry_console\t%s\nrestore_model\t%s\n' \
		"$accel" "$attempts" "$boot_to" "$cell_to" "$pg_to" "$pins" "$retry_console" "$restore" > "$rundir/logs/limits-$uid.txt"
	# The reservations as they are held (reserve_unit, below).
	grep "^reserve$TAB" "$plan/$uid.plan" >> "$rundir/logs/limits-$uid.txt" || true
	printf 'pg_root\t%s\npg_package\t%s\n' "$pg_root" "$pg_package" >> "$work/$uid.conf"
	awk -F "$TAB" '{ printf "pg_root.%s.%s\t%s\npg_package.%s.%s\t%s\n", $1, $2, $3, $1, $2, $4 }' \
		"$rundir/logs/pg-roots.tsv" >> "$work/$uid.conf"
	# BOOTS=N: the boot's number names its logs (.b2 ends the unit's id).
	nboot=${uid##*.b}; case $nboot in ''|*[!0-9]*) nboot="" ;; esac
	K_LABEL=host K_RELEASE=$(uname -r) K_IMAGE=""
	if [ "$restore" = 1 ]; then
		host_model_before=$(host_model)
		[ -n "$host_model_before" ] || die "the plan switches the host's model, but $PREEMPT cannot be read"
		note "host model: $(cat "$PREEMPT"); each cell switches and reads it back; $host_model_before is restored at the end"
	fi
	reserve_unit "$uid" "$cells"
	# Guest RAM on the host's huge pages (reserved above, as planned).
	guest_hp=""; [ "$kind" = host ] || guest_hp=$(bconf guest_hugepages)
	[ "$guest_hp" != off ] || guest_hp=""
	if [ "$kind" = host ]; then
		# The cost of a sleep, a fault and a lock on this machine, for the report.
		"$top/build/bufmicro" > "$rundir/logs/bufmicro.json" 2>/dev/null || true
	else
		[ -s "$plan/$uid.qemu" ] ||
			die "no plan/$uid.qemu: the plan's accelerator is unresolved (scripts/bench.sh probes it and plans again with --accel-probed)"
		# shellcheck disable=SC1090 # resolved by scripts/bench.sh
		. "$rundir/logs/kernel-$role.env"
	fi
	if [ "$kind" = host ]; then who="the host's cell runner"; else who=guest; fi
}

# unit_start: this attempt's logs, then the host's cell runner started or the
# guest booted (and its vCPUs pinned where the plan pins them).
unit_start() {
	tag="$(echo "$K_LABEL" | tr '/ ' '__')${boot_model:+-$boot_model}${nboot:+-b$nboot}-boot$attempt"
	[ "$kind" = host ] && tag=host-run$attempt
	con="$rundir/logs/console-$tag.log"; chan="$work/channel-$tag.log"
	: > "$con"; : > "$chan"
	pinned=null
	t0=$(date +%s); ready_s=""; first_s=""; end=""; cur=""; cur_t=0; done_t=""; cur_kind=""; cur_to=$cell_to
	: > "$work/seen"
	if [ "$kind" = host ]; then
		setsid "$top/build/runner" "$work/$uid.conf" "$work/todo" "$chan" "$work" \
			> "$con" 2>&1 < /dev/null &
		upid=$!
		run_state_unit "$upid" host
		note "host unit: $(uname -r), $(nproc) CPUs"
	else
		mkdir -p "$work/boot/plan"
		cp "$work/$uid.conf" "$work/boot/plan/unit.conf"
		cp "$work/todo" "$work/boot/plan/cells"
		# The config the kernel's resolution names, where the plan's
		# kernel_config looks for it (its tick, CONFIG_HZ, goes into
		# every result's provenance); none for a kernel shipped without
		# one, and never the previous unit's.
		rm -f "$work/boot/plan/kernel.config"
		[ -z "${K_CONFIG:-}" ] || cp "$K_CONFIG" "$work/boot/plan/kernel.config"
		repro_cpio "$work/boot" > "$work/plan.cpio.gz"
		cat "$base_initrd" "$work/plan.cpio.gz" > "$work/boot.cpio.gz"
		"$here/qemu-boot.sh" "$plan/$uid.qemu" "$K_IMAGE" "$work/boot.cpio.gz" "$con" "$chan" \
			"$rundir/logs/qemu-$tag.argv" > "$rundir/logs/qemu-$tag.log" 2>&1 &
		upid=$!
		run_state_unit "$upid" guest
		note "booted $K_LABEL ($K_RELEASE) under $accel: $(bconf vcpus) vCPUs, $(bconf mem_mb) MB${guest_hp:+ on $guest_hp pages}, '$cmdline'"
		# Each vCPU thread on its own host CPU, where the plan pins them.
		if [ -n "$pins" ]; then
			if "$here/qemu-pin.sh" "$upid" "$pins" > "$rundir/logs/pin-$tag.txt" 2>&1; then
				pinned=true
				note "pinned $(grep -c '^vcpu' "$rundir/logs/pin-$tag.txt") vCPU threads (logs/pin-$tag.txt)"
			else
				pinned=false
				note "vCPU pinning failed: $(tail -n1 "$rundir/logs/pin-$tag.txt")"
			fi
		fi
	fi
}

# unit_watch: follow the channel until the unit ends (end: done, crashed,
# interrupted, no-answer, cell-timeout), with the progress line and the
# plan's limits.  Ctrl-C also reaches the children of this loop; "|| true"
# keeps set -e from ending it before the finished runs are settled.
unit_watch() {
	while :; do
		"$here/qemu-channel.sh" "$chan" "$rundir/runs" "$rundir/logs" "$rundir/perf" > "$work/events" || true
		now=$(date +%s)
		if [ -z "$ready_s" ] && grep -q '^ready' "$work/events"; then
			ready_s=$((now - t0)); [ "$kind" = host ] || boot_est=$ready_s
			if [ "$(bconf profile)" = on ] && ! grep -q '^profile on' "$work/events"; then
				note "PROFILE=on, but $K_LABEL runs unprofiled: $(sed -n 's/^profile off //p' "$work/events" | head -n1)"
			fi
		fi
		[ -z "$first_s" ] && grep -q -e '^ok' -e '^fail' "$work/events" && first_s=$((now - t0))
		last=$(sed -n 's/^start //p' "$work/events" | tail -n1)
		if [ -n "$last" ] && [ "$last" != "$cur" ]; then
			cell_ended "$now"
			cur=$last; cur_t=$now; n=$((n + 1))
			# The plan's KIND RUNS LIMIT_S TEXT for it (cell_watch lines;
			# no field is empty, so a TAB-split read keeps them apart).
			IFS=$TAB read -r cur_kind cur_runs cur_to text <<-EOW || true
			$(cell_watch "$cur")
			EOW
			[ -n "$cur_to" ] || cur_to=$cell_to
			if [ "$cur_kind" = pgbench ]; then
				progress "$n" "$K_LABEL $text: $cur_runs runs after its setup (limit ${cur_to}s)"
				pg_started=$((pg_started + 1)); pg_runs_started=$((pg_runs_started + cur_runs))
			else
				progress "$n" "$K_LABEL $text"
				bb_started=$((bb_started + 1))
			fi
		fi
		# pgbench documents arrive one by one during their cell.
		grep '^ok pgbench-' "$work/events" | while read -r _ id; do
			grep -qx "$id" "$work/seen" && continue
			echo "$id" >> "$work/seen"
			"$top/build/jget" results.tps,sampler.spindelay_samples,sampler.samples "$rundir/runs/$id.json" 2>/dev/null |
				while IFS=$TAB read -r tps sd ns; do note "  pgbench result $id: tps $tps, SpinDelay samples $sd of $ns"; done
		done
		if grep -q '^done$' "$work/events"; then
			[ -n "$end" ] || cell_ended "$now"
			end="done"
		fi
		if ! kill -0 "$upid" 2>/dev/null; then wait "$upid" 2>/dev/null || true; upid=""; [ -n "$end" ] || end=crashed; break; fi
		if [ -n "$end" ]; then	# DONE seen: let it power off, within the plan's grace
			[ -n "$done_t" ] || done_t=$now
			[ $((now - done_t)) -ge "$poweroff_grace" ] && { stop_unit; break; }
			sleep 1 || true; continue
		fi
		if [ "$interrupted" = 1 ]; then end=interrupted; stop_unit; break; fi
		if [ -z "$ready_s" ] && [ "$boot_to" -gt 0 ] && [ $((now - t0)) -ge "$boot_to" ]; then end=no-answer; stop_unit; break; fi
		if [ -n "$cur" ] && [ $((now - cur_t)) -ge "$cur_to" ] &&
			! grep -q -e "^ok $cur\$" -e "^fail $cur " -e "^pass $cur " "$work/events"; then end=cell-timeout; stop_unit; break; fi
		sleep 1 || true
	done
}

# attempt_outcome: the attempt's last channel read, its outcome lines, and
# the plan's retry rule (boot_oops=1: boot again).
attempt_outcome() {
	"$here/qemu-channel.sh" "$chan" "$rundir/runs" "$rundir/logs" "$rundir/perf" > "$work/events" || true
	cp "$chan" "$rundir/logs/channel-$tag.log"
	# A unit that ends right after DONE can exit before the loop's
	# last read of the channel: that is a finished unit, and one that
	# answered or sent a result in that gap did so by now (an upper bound:
	# the watch saw neither).
	if [ "$end" = crashed ] && grep -q '^done$' "$work/events"; then end="done"; fi
	now=$(date +%s)
	[ -n "$ready_s" ] || ! grep -q '^ready' "$work/events" || ready_s=$((now - t0))
	[ -n "$first_s" ] || ! grep -q -e '^ok' -e '^fail' "$work/events" || first_s=$((now - t0))
	wall=$(( $(date +%s) - t0 ))
	for kv in "unit=$uid" "label=$K_LABEL" "boot=$attempt" "end=$end" "wall_s=$wall" \
		"ready_s=$ready_s" "first_result_s=$first_s" "console=${con#"$rundir"/}" \
		"channel=logs/channel-$tag.log" "vcpus_pinned=${pinned#null}"; do
		outcome boot "$tag" "${kv%%=*}" "${kv#*=}"
	done
	[ "$pinned" = null ] || outcome boot "$tag" pin_log "logs/pin-$tag.txt"
	note "$uid attempt $attempt: $end after $(fmt_s "$wall") (runner answered after ${ready_s:-never}s, first result after ${first_s:-never}s)"

	# The plan's retry rule (lab/plan/boot.c): a crash before the runner
	# answered, with the planned text on the console, boots again
	# within the attempts.
	boot_oops=0
	if [ "$end" = crashed ] && [ -z "$ready_s" ] && [ "$attempt" -lt "$attempts" ] &&
		[ -n "$retry_console" ] && grep -qF "$retry_console" "$con" 2>/dev/null; then
		boot_oops=1
		note "$uid: the guest oopsed while booting ($(grep -m1 'RIP:' "$con" | sed 's/^\[[^]]*\] *//')): booting again"
	fi
}

# settle_cells: every cell of this attempt has a result, a reported failure,
# or goes back on the todo list for the next attempt.
settle_cells() {
	: > "$work/todo.next"
	while IFS= read -r line; do
		id=$(echo "$line" | cut -f2)
		# A cell stopped for overrunning may still have sent a partial
		# (interrupted) document: kept, but the cell failed.
		if [ "$id" = "$cur" ] && [ "$end" = cell-timeout ]; then
			fail_cell "$id" "no result within ${cur_to}s: unit stopped" "${con#"$rundir"/}"
			continue
		fi
		[ -f "$rundir/runs/$id.json" ] && continue
		if grep -q "^pass $id " "$work/events"; then
			pg_passed=$((pg_passed + 1)); outcome cell "$id" status passed; continue
		fi
		why=$(sed -n "s/^fail $id //p" "$work/events" | head -n1)
		if [ -n "$why" ]; then fail_cell "$id" "$why" "${con#"$rundir"/}"; continue; fi
		if [ "$id" = "$cur" ]; then
			case $end in
			interrupted) fail_cell "$id" "interrupted ($stopped_by)" "${con#"$rundir"/}" ;;
			*) fail_cell "$id" "$who ended ($end) during this cell" "${con#"$rundir"/}" ;;
			esac
			continue
		fi
		case $end in
		no-answer) fail_cell "$id" "guest never answered within ${boot_to}s of boot: killed" "${con#"$rundir"/}" ;;
		interrupted) ;;
		*) if [ -z "$ready_s" ] && [ "$boot_oops" = 0 ]; then
			fail_cell "$id" "$who ended ($end) before its runner answered" "${con#"$rundir"/}"
		else
			printf '%s\n' "$line" >> "$work/todo.next"
		fi ;;
		esac
	done < "$work/todo"
	mv "$work/todo.next" "$work/todo"
}

# unit_record: the cells never run, then the unit's kernel and boot as recorded.
unit_record() {
	while IFS= read -r line; do
		[ "$interrupted" = 1 ] || fail_cell "$(echo "$line" | cut -f2)" "not run: the unit kept failing" "logs/"
	done < "$work/todo"
	for kv in "label=$K_LABEL" "version=${K_VERSION:-}" "package=${K_PACKAGE:-}" \
		"package_version=${K_PKGVERSION:-}" "suite=${K_SUITE:-}" "image=${K_IMAGE:-}" \
		"image_sha256=${K_SHA256:-}" "config=${K_CONFIG:-}" "release=${K_RELEASE:-}" \
		"accel=$accel" "cmdline=$cmdline" "guest_hugepages=${guest_hp:-off}" \
		"arch=$(if [ "$kind" = host ]; then uname -m; else arch_info "$garch" uname; fi)"; do
		outcome unit "$uid" "${kv%%=*}" "${kv#*=}"
	done
}

# run_unit ID KIND ROLE BOOT_MODEL
run_unit() {
	uid=$1 kind=$2 role=$3 boot_model=$4
	[ "$boot_model" = - ] && boot_model=""
	unit_prepare
	cp "$cells" "$work/todo"
	attempt=0
	while [ -s "$work/todo" ] && [ "$interrupted" = 0 ]; do
		attempt=$((attempt + 1))
		unit_start
		unit_watch
		attempt_outcome
		settle_cells
		# A kernel that never reaches its runner will not on a second try.
		[ -z "$ready_s" ] && [ "$boot_oops" = 0 ] && break
		[ "$attempt" -ge "$attempts" ] && [ -s "$work/todo" ] && { note "$uid: giving up after $attempts attempts"; break; }
	done
	unit_record
}

# --- every unit ---------------------------------------------------------------
if [ "$is_host" != 1 ]; then
	[ -f "$base_initrd" ] || die "no initramfs for the guests (scripts/initramfs.sh)"
	cut -f3 "$plan/units.tsv" | sort -u | while read -r role; do
		[ -s "$rundir/logs/kernel-$role.env" ] || die "no logs/kernel-$role.env: scripts/materials.sh (from scripts/bench.sh) resolves the kernels before the final plan"
	done
fi
while IFS=$TAB read -r uid kind role _asked boot_model; do
	[ "$interrupted" = 1 ] && break
	[ "$kind" = host ] || boots_left=$((boots_left - 1))
	run_unit "$uid" "$kind" "$role" "$boot_model" < /dev/null
done < "$plan/units.tsv"
trap - INT TERM HUP USR1
stop_unit
restore_host_model
hp_restore_all

# --- the manifest: the plan, and what came of it ---------------------------
finished=$(find "$rundir/runs" -name 'bufbench-*.json' | wc -l)
pg_docs=$(find "$rundir/runs" -name 'pgbench-*.json' | wc -l)
[ "$is_host" = 1 ] || outcome run - qemu "$("$qemu_bin" --version | head -n1)"
for kv in "lab_revision=$(lab_revision "$top")" "preempt_before=$host_model_before" \
	"preempt_after=$host_model_after" "interrupted=$interrupted" "stopped_by=$stopped_by" \
	"ended=$(date +%s)" "pg_version=$pg_version" "pg_package=$pg_package" "pg_root=$pg_root"; do
	outcome run - "${kv%%=*}" "${kv#*=}"
done
"$top/build/manifest" "$rundir" > "$work/manifest.json"
mv "$work/manifest.json" "$rundir/manifest.json"

[ "$interrupted" = 1 ] && { note "interrupted: kept the $((finished + pg_docs)) finished runs in $rundir"; exit 130; }
[ $((finished + pg_docs)) -gt 0 ] || die "no cell produced a result; see $rundir/logs/"
if [ "$failed_cells" -gt 0 ]; then
	note "$failed_cells of $total cells failed (reasons in $rundir/logs/failed-*.txt)"
	exit 1
fi
note "all $total cells settled: $rundir"
