# shellcheck shell=sh
# A run's state on disk, for when it is killed outright (sourced, not run).
# build/runstate (lab/runstate/runstate.h says why and how) keeps a state
# file per run in PREEMPTLAB_STATE_DIR (default /run/preemptlab), and the
# next run finds the file of a run that is gone, says what it left and
# undoes it, trusting only what is private to this user and what the dead
# run provably owned (issue 28, D8 and D9; issue 35, N1).  RUN_STATE_FILE
# is this run's file; scripts/hugepages.sh appends its reservations to it.

# rs_bin: build/runstate; ends the script when it is missing.
rs_bin() {
	rs_b=$(lab_top)/build/runstate
	[ -x "$rs_b" ] || die "no $rs_b (the run-state keeper): make build-all"
	echo "$rs_b"
}

# run_state_dir: where the state files are, checked; dies when not private.
run_state_dir() { rs_b=$(rs_bin) || exit 1; "$rs_b" dir; }

# run_state_recover DIR: undo what runs killed outright left (their state
# files in DIR); say each thing.
run_state_recover() { rs_b=$(rs_bin) || exit 1; "$rs_b" recover "$1" "$$"; }

# run_state_begin WORK RUNDIR: undo what dead runs left, then start this
# run's file.
run_state_begin() {
	rs_b=$(rs_bin) || exit 1
	RUN_STATE_FILE=$("$rs_b" begin "$$" "$1" "$2") || exit 1
}

# run_state_unit PID host|guest: a unit started by this run (a child not
# yet waited for), recorded with its start time.
run_state_unit() {
	[ -n "${RUN_STATE_FILE:-}" ] || return 0
	rs_b=$(rs_bin) || exit 1
	"$rs_b" unit "$RUN_STATE_FILE" "$1" "$2"
}

run_state_end() {
	[ -z "${RUN_STATE_FILE:-}" ] || rm -f "$RUN_STATE_FILE"
}
