# shellcheck shell=sh
# A run's state on disk, for when it is killed outright (sourced, not run).
#
# SIGKILL of make bench's process group left the cell runner (started with
# setsid, so in a group of its own) and its bufbench running under init,
# the huge pages it had reserved reserved, its /tmp work directory and any
# tracefs instance of a bufbench --trace-holds (issue 28, D8 and D9); the
# next run neither undid nor mentioned them.  Now each run keeps a state
# file of what it holds, and the next run finds the file of a run that is
# gone, says what it left and undoes it:
#   pid PID            the run (scripts/run-plan.sh)
#   work DIR           its work directory
#   rundir DIR         its results directory (no manifest when killed)
#   unit PID host|guest the cell runner's process group, or QEMU
#   hugepages KB N     huge pages of KB it has added so far (the last wins)
# The files live in PREEMPTLAB_STATE_DIR (default /run/preemptlab: like a
# reservation, it does not outlive a reboot).

run_state_dir() {
	rs_d=${PREEMPTLAB_STATE_DIR:-/run/preemptlab}
	mkdir -p "$rs_d" 2>/dev/null || { rs_d=${TMPDIR:-/tmp}/preemptlab-state-$(id -u); mkdir -p "$rs_d"; }
	echo "$rs_d"
}

# run_state_add KEY VALUE...: one line of this run's state.
run_state_add() {
	[ -n "${RUN_STATE_FILE:-}" ] || return 0
	echo "$*" >> "$RUN_STATE_FILE"
}

# rs_is PID WORD: PID is alive and its command line holds WORD (a pid
# reused by another program is not ours).
rs_is() {
	kill -0 "$1" 2>/dev/null && tr '\0' ' ' < "/proc/$1/cmdline" 2>/dev/null | grep -q -- "$2"
}

# run_state_recover: undo what runs killed outright left; say each thing.
run_state_recover() {
	for rs_f in "$(run_state_dir)"/run-*.state; do
		[ -f "$rs_f" ] || continue
		rs_pid=$(awk '$1 == "pid" { print $2; exit }' "$rs_f")
		case $rs_pid in '' | *[!0-9]*) rm -f "$rs_f"; continue ;; esac
		rs_is "$rs_pid" run-plan.sh && continue
		note "a run killed outright (pid $rs_pid, $(awk '$1 == "started" { print $2 }' "$rs_f")) left state behind ($rs_f); undoing it:"
		awk '$1 == "unit" { print $2, $3 }' "$rs_f" | while read -r rs_u rs_kind; do
			case $rs_u in '' | *[!0-9]*) continue ;; esac
			if [ "$rs_kind" = host ] && rs_is "$rs_u" runner.sh; then
				note "  its cell runner, process group $rs_u, still ran: stopped"
				kill -TERM "-$rs_u" 2>/dev/null || true
				sleep 1
				kill -KILL "-$rs_u" 2>/dev/null || true
			elif [ "$rs_kind" = guest ] && rs_is "$rs_u" qemu; then
				note "  its guest, QEMU pid $rs_u, still ran: stopped"
				kill -KILL "$rs_u" 2>/dev/null || true
			fi
		done
		# The last count per size is what the run had added.
		awk '$1 == "hugepages" { n[$2] = $3 } END { for (k in n) print k, n[k] }' "$rs_f" |
			while read -r rs_kb rs_n; do
				case $rs_kb$rs_n in '' | *[!0-9]*) continue ;; esac
				[ "$rs_n" -gt 0 ] || continue
				rs_pool=/sys/kernel/mm/hugepages/hugepages-${rs_kb}kB/nr_hugepages
				rs_now=$(cat "$rs_pool" 2>/dev/null) || continue
				rs_left=$((rs_now - rs_n))
				[ "$rs_left" -ge 0 ] || rs_left=0
				if echo "$rs_left" > "$rs_pool" 2>/dev/null; then
					note "  $rs_n huge pages of ${rs_kb} kB it had reserved: given back ($rs_now -> $(cat "$rs_pool"))"
				else
					note "  $rs_n huge pages of ${rs_kb} kB it had reserved: could not give them back ($rs_pool)"
				fi
			done
		rs_run=$(awk '$1 == "rundir" { sub(/^rundir /, ""); print; exit }' "$rs_f")
		if [ -d "$rs_run/logs" ] && [ ! -f "$rs_run/manifest.json" ]; then
			echo "killed outright: no manifest; found and undone by the run of pid $$" > "$rs_run/logs/killed-outright.txt"
			note "  its results $rs_run have no manifest: marked (logs/killed-outright.txt)"
		fi
		rs_work=$(awk '$1 == "work" { print $2; exit }' "$rs_f")
		case $rs_work in
		"${TMPDIR:-/tmp}"/tmp.*)
			if [ -d "$rs_work" ]; then rm -rf "$rs_work"; note "  its work directory $rs_work: removed"; fi ;;
		esac
		rm -f "$rs_f"
	done
	# bufbench --trace-holds killed outright leaves instances/preemptlab-PID
	# tracing into a 16 MB-per-CPU buffer.
	for rs_i in /sys/kernel/tracing/instances/preemptlab-* /sys/kernel/debug/tracing/instances/preemptlab-*; do
		[ -d "$rs_i" ] || continue
		rs_p=${rs_i##*-}
		case $rs_p in '' | *[!0-9]*) continue ;; esac
		kill -0 "$rs_p" 2>/dev/null && continue
		echo 0 > "$rs_i/tracing_on" 2>/dev/null || true
		if rmdir "$rs_i" 2>/dev/null; then
			note "the tracefs instance $rs_i of a bufbench killed outright (pid $rs_p): removed"
		else
			note "the tracefs instance $rs_i of a bufbench killed outright (pid $rs_p) could not be removed"
		fi
	done
}

# run_state_begin WORK RUNDIR: undo what dead runs left, then start this
# run's file.
run_state_begin() {
	run_state_recover
	RUN_STATE_FILE=$(run_state_dir)/run-$$.state
	printf 'pid %s\nstarted %s\nwork %s\nrundir %s\n' "$$" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "$2" \
		> "$RUN_STATE_FILE"
}

run_state_end() {
	[ -z "${RUN_STATE_FILE:-}" ] || rm -f "$RUN_STATE_FILE"
}
