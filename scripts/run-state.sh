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
#   pid PID START      the run (scripts/run-plan.sh) and its start time
#   work DIR           its work directory
#   rundir DIR         its results directory (no manifest when killed)
#   unit PID START host|guest the cell runner's process group, or QEMU
#   hugepages KB N     huge pages of KB it has added so far (the last wins)
# START is field 22 of /proc/PID/stat: a pid reused since is not the run's.
# The files live in PREEMPTLAB_STATE_DIR (default /run/preemptlab: like a
# reservation, it does not outlive a reboot).
#
# A state file is not trusted blindly (issue 35, N1): a forged or stale one
# had the next run remove any directory, kill any process with "qemu" or
# "runner.sh" in its command line and write through a symlink.  Now the
# directory and the file must be this user's and writable by no one else;
# the work directory must be a tmp.* right in $TMPDIR; a process is stopped
# only when it started when recorded and runs in that work directory; the
# mark is written as a new file in real directories of this user's; and no
# more huge pages are given back than the pool holds.

# rs_tmp: the directory mktemp -d makes work directories in, without a
# trailing slash.
rs_tmp() {
	rs_t=${TMPDIR:-/tmp}
	while [ "${rs_t%/}" != "$rs_t" ] && [ "$rs_t" != / ]; do rs_t=${rs_t%/}; done
	echo "$rs_t"
}

# rs_private PATH WHAT: PATH is no symlink, is this user's and is writable
# by no one else; otherwise say so (WHAT names it) and fail.  A state
# directory in /tmp made or opened up by another user would let that user
# write what this run then kills and removes.
rs_private() {
	if [ -L "$1" ]; then
		note "$2 $1 is a symbolic link: refused"
		return 1
	fi
	rs_om=$(stat -c '%u %a' -- "$1" 2>/dev/null) || { note "$2 $1 cannot be read: refused"; return 1; }
	if [ "${rs_om%% *}" != "$(id -u)" ]; then
		note "$2 $1 belongs to uid ${rs_om%% *}, not to you (uid $(id -u)): refused"
		return 1
	fi
	case ${rs_om#* } in
	*[2367]? | *[2367])
		note "$2 $1 is writable by its group or by others (mode ${rs_om#* }): refused"
		return 1 ;;
	esac
}

# run_state_dir: where the state files are, checked (rs_private); dies
# when PREEMPTLAB_STATE_DIR is not private.  The default /run/preemptlab
# is taken only when it is this user's (a root run's is not another
# user's), else one of this user's own in $TMPDIR.
run_state_dir() {
	if [ -n "${PREEMPTLAB_STATE_DIR:-}" ]; then
		rs_d=$PREEMPTLAB_STATE_DIR
		[ -d "$rs_d" ] || (umask 077; mkdir -p "$rs_d") || die "cannot create the state directory $rs_d (PREEMPTLAB_STATE_DIR)"
	elif { [ -d /run/preemptlab ] || mkdir -m 700 /run/preemptlab 2>/dev/null; } &&
		[ "$(stat -c %u /run/preemptlab 2>/dev/null)" = "$(id -u)" ]; then
		rs_d=/run/preemptlab
	else
		rs_d=$(rs_tmp)/preemptlab-state-$(id -u)
		[ -d "$rs_d" ] || (umask 077; mkdir "$rs_d") || die "cannot create the state directory $rs_d"
	fi
	rs_private "$rs_d" "the run-state directory" ||
		die "a run's state there could be forged: make it yours and private (chmod 700) or set PREEMPTLAB_STATE_DIR"
	echo "$rs_d"
}

# rs_start PID: PID's start time (field 22 of /proc/PID/stat, clock ticks
# since boot); empty when PID is gone.  The command name (field 2) may
# hold blanks and parentheses: the fields are counted after its last ')'.
rs_start() {
	sed -n 's/^.*) //p' "/proc/$1/stat" 2>/dev/null | cut -d ' ' -f 20
}

# run_state_add KEY VALUE...: one line of this run's state.
run_state_add() {
	[ -n "${RUN_STATE_FILE:-}" ] || return 0
	echo "$*" >> "$RUN_STATE_FILE"
}

# run_state_unit PID host|guest: a unit started by this run, with its start
# time so that a later run knows it from a process that reused the pid.
# PID is a child not yet waited for, so its /proc entry is still its own.
run_state_unit() {
	run_state_add unit "$1" "$(rs_start "$1")" "$2"
}

# rs_same PID START: PID runs and started at START (so it is the process
# recorded, not another that reused its pid).  A zombie does not run: a
# run killed outright whose parent has not waited for it yet (a shell that
# started it in the background) keeps its /proc entry and start time, and
# would otherwise be taken for a live run and its state left alone.
rs_same() {
	case $2 in '' | *[!0-9]*) return 1 ;; esac
	case $(sed -n 's/^.*) //p' "/proc/$1/stat" 2>/dev/null | cut -d ' ' -f 1) in
	'' | Z | X) return 1 ;;
	esac
	[ "$(rs_start "$1")" = "$2" ]
}

# rs_is PID START WORK: rs_same, and one of PID's arguments is the run's
# work directory WORK or a path in it (its cell runner's, QEMU's initrd).
rs_is() {
	rs_same "$1" "$2" || return 1
	tr '\0' '\n' < "/proc/$1/cmdline" 2>/dev/null |
		W=$3 awk '$0 == ENVIRON["W"] || index($0, ENVIRON["W"] "/") == 1 { f = 1 } END { exit !f }'
}

# rs_work WORK: WORK names what mktemp -d makes, a directory tmp.* right in
# $TMPDIR (or /tmp), that is this user's, or that no longer exists; ".."
# and symlinks that lead elsewhere fail.  Otherwise say why and fail.
rs_work() {
	rs_t=$(rs_tmp)
	rs_tr=$(realpath -- "$rs_t" 2>/dev/null) || rs_tr=$rs_t
	rs_n=${1##*/}
	case $rs_n in tmp.*) ;; *) rs_n="" ;; esac
	if [ -z "$rs_n" ] || { [ "$1" != "$rs_t/$rs_n" ] && [ "$1" != "$rs_tr/$rs_n" ]; }; then
		note "  its work directory '$1' is not a tmp.* directory right in $rs_t: left alone, and no process is stopped by it"
		return 1
	fi
	[ -e "$1" ] || [ -L "$1" ] || return 0
	if [ ! -d "$1" ] || [ "$(realpath -- "$1" 2>/dev/null)" != "$rs_tr/$rs_n" ]; then
		note "  its work directory $1 is not a directory of its own (a symbolic link?): left alone, and no process is stopped by it"
		return 1
	fi
	rs_private "$1" "  its work directory" || { note "  so it is left alone, and no process is stopped by it"; return 1; }
}

# rs_mark RUNDIR: the dead run's results, without a manifest, say so in
# logs/killed-outright.txt.  Written only into this user's own real
# directories, as a new file: never through a symbolic link.
rs_mark() {
	[ -n "$1" ] && [ -d "$1/logs" ] && [ ! -f "$1/manifest.json" ] || return 0
	for rs_p in "$1" "$1/logs"; do
		rs_private "$rs_p" "  its results directory" || { note "  so its results are not marked"; return 0; }
	done
	# noclobber: created anew (O_EXCL), so a symlink put there is not followed.
	if (set -C; echo "killed outright: no manifest; found and undone by the run of pid $$" > "$1/logs/killed-outright.txt") 2>/dev/null; then
		note "  its results $1 have no manifest: marked (logs/killed-outright.txt)"
	else
		note "  its results $1 have no manifest; logs/killed-outright.txt already exists (or cannot be created): not written"
	fi
}

# rs_stop_units STATE WORK: stop the dead run's units that still run: only
# processes that started when recorded and whose arguments hold WORK.
rs_stop_units() {
	awk '$1 == "unit" { print $2, $3, $4 }' "$1" | while read -r rs_u rs_s rs_kind; do
		case $rs_u in '' | *[!0-9]*) continue ;; esac
		if [ -z "$rs_kind" ]; then
			# An old state file: "unit PID KIND", no start time.
			note "  its unit pid $rs_u has no start time recorded: not stopped (check it yourself)"
			continue
		fi
		kill -0 "$rs_u" 2>/dev/null || continue
		if ! rs_is "$rs_u" "$rs_s" "$2"; then
			note "  pid $rs_u is not its unit (another start time, or not running in $2): not stopped"
			continue
		fi
		if [ "$rs_kind" = host ]; then
			note "  its cell runner, process group $rs_u, still ran: stopped"
			kill -TERM "-$rs_u" 2>/dev/null || true
			sleep 1
			# While the group exists its id is taken; the leader gone, what
			# is left of the group is still the runner's.
			if rs_same "$rs_u" "$rs_s" || ! kill -0 "$rs_u" 2>/dev/null; then
				kill -KILL "-$rs_u" 2>/dev/null || true
			fi
		elif [ "$rs_kind" = guest ]; then
			note "  its guest, QEMU pid $rs_u, still ran: stopped"
			kill -KILL "$rs_u" 2>/dev/null || true
		fi
	done
}

# rs_hugepages STATE: give back the huge pages the dead run had added (the
# last count per size), never more than the pool holds.
rs_hugepages() {
	awk '$1 == "hugepages" { n[$2] = $3 } END { for (k in n) print k, n[k] }' "$1" |
		while read -r rs_kb rs_n; do
			case $rs_kb in '' | *[!0-9]* | ?????????*) continue ;; esac
			case $rs_n in
			'' | *[!0-9]* | ?????????*)
				note "  huge pages of ${rs_kb} kB: '$rs_n' is not a count: left alone"
				continue ;;
			esac
			[ "$rs_n" -gt 0 ] || continue
			rs_pool=/sys/kernel/mm/hugepages/hugepages-${rs_kb}kB/nr_hugepages
			rs_now=$(cat "$rs_pool" 2>/dev/null) || continue
			case $rs_now in '' | *[!0-9]*) continue ;; esac
			if [ "$rs_n" -gt "$rs_now" ]; then
				note "  $rs_n huge pages of ${rs_kb} kB it had reserved: more than the pool holds ($rs_now): left alone"
			elif echo $((rs_now - rs_n)) > "$rs_pool" 2>/dev/null; then
				note "  $rs_n huge pages of ${rs_kb} kB it had reserved: given back ($rs_now -> $(cat "$rs_pool"))"
			else
				note "  $rs_n huge pages of ${rs_kb} kB it had reserved: could not give them back ($rs_pool)"
			fi
		done
}

# run_state_recover DIR: undo what runs killed outright left (their state
# files in DIR); say each thing.  A file is trusted only when private
# (rs_private), and then only for what the run provably owned: its work
# directory (rs_work) and the processes that started when recorded and
# run in it.
run_state_recover() {
	for rs_f in "$1"/run-*.state; do
		[ -e "$rs_f" ] || [ -L "$rs_f" ] || continue
		if [ ! -f "$rs_f" ] || ! rs_private "$rs_f" "the run-state file"; then
			note "  $rs_f is not a private file of yours: left alone (remove it yourself)"
			continue
		fi
		rs_pid=$(awk '$1 == "pid" { print $2; exit }' "$rs_f")
		rs_ps=$(awk '$1 == "pid" { print $3; exit }' "$rs_f")
		case $rs_pid in '' | *[!0-9]*) rm -f "$rs_f"; continue ;; esac
		if [ -n "$rs_ps" ]; then
			rs_same "$rs_pid" "$rs_ps" && continue
		elif kill -0 "$rs_pid" 2>/dev/null && tr '\0' ' ' < "/proc/$rs_pid/cmdline" 2>/dev/null | grep -q run-plan.sh; then
			continue
		fi
		note "a run killed outright (pid $rs_pid, $(awk '$1 == "started" { print $2 }' "$rs_f")) left state behind ($rs_f); undoing it:"
		rs_work=$(awk '$1 == "work" { sub(/^work /, ""); print; exit }' "$rs_f")
		rs_wok=0
		if [ -n "$rs_work" ] && rs_work "$rs_work"; then
			rs_wok=1
			rs_stop_units "$rs_f" "$rs_work"
		fi
		rs_hugepages "$rs_f"
		rs_mark "$(awk '$1 == "rundir" { sub(/^rundir /, ""); print; exit }' "$rs_f")"
		if [ "$rs_wok" = 1 ] && [ -d "$rs_work" ]; then
			rm -rf "$rs_work"
			note "  its work directory $rs_work: removed"
		fi
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
	rs_dir=$(run_state_dir)
	run_state_recover "$rs_dir"
	RUN_STATE_FILE=$rs_dir/run-$$.state
	# Created anew, never through a link; private whatever the umask.
	(umask 077; set -C; printf 'pid %s %s\nstarted %s\nwork %s\nrundir %s\n' "$$" "$(rs_start $$)" \
		"$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "$2" > "$RUN_STATE_FILE") ||
		die "cannot create the run-state file $RUN_STATE_FILE (one is already there?)"
}

run_state_end() {
	[ -z "${RUN_STATE_FILE:-}" ] || rm -f "$RUN_STATE_FILE"
}
