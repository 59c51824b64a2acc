# shellcheck shell=sh
# Helpers shared by the lab's shell scripts (sourced, not run).

die() { echo "preemptlab: $*" >&2; exit 1; }
note() { echo "preemptlab: $*" >&2; }

# lab_top: the checkout's top directory.
lab_top() { (cd "$(dirname "$0")/.." && pwd); }

# new_run_dir KERNEL: create results/<UTC timestamp>-<kernel>/ and print it.
new_run_dir() {
	d="$(lab_top)/results/$(date -u +%Y%m%dT%H%M%SZ)-$(echo "$1" | tr '/ ' '__')"
	mkdir -p "$d/runs" "$d/logs"
	echo "$d"
}

# on_exit 'COMMANDS': run COMMANDS when the script ends, however it ends.
# dash runs an EXIT trap on exit but not on a signal, and a trap for INT
# that only cleans up lets the script carry on without what it removed:
# INT, TERM and HUP exit with the shell's status for them, which runs the
# EXIT trap once.
on_exit() {
	# shellcheck disable=SC2064 # the commands are fixed now, on purpose
	trap "$1" EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
}

# split_list "a,b c": print the items of a comma or space separated list.
split_list() { echo "$1" | tr ',' ' '; }
