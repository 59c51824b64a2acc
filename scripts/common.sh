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

# split_list "a,b c": print the items of a comma or space separated list.
split_list() { echo "$1" | tr ',' ' '; }
