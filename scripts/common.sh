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

# tmp_beside DEST: a new empty file in DEST's directory, for writing what
# becomes DEST with put_in_place.  "> DEST" would follow a link planted at
# DEST and overwrite its target; a fixed DEST.tmp could be one too.
tmp_beside() { mktemp "$(dirname "$1")/.$(basename "$1").XXXXXX"; }

# put_in_place TMP DEST: TMP (from tmp_beside) becomes DEST by rename(),
# which replaces a link at DEST rather than writing through it; -T, so a
# link to a directory is not moved into.  The mode is what the umask gives.
put_in_place() {
	if chmod "$(umask -S | tr -d x)" "$1" && mv -fT "$1" "$2"; then return 0; fi
	rm -f "$1"
	return 1
}

# repro_cpio DIR: DIR as a gzipped newc archive that depends on its contents
# alone: names sorted, times, owners, inodes and devices fixed.  Under
# ACCEL=icount the guest unpacks it in virtual time, so the same plan then
# boots to the same instructions.  DIR holds copies: their times are reset.
repro_cpio() {
	find "$1" -exec touch -h -d @0 {} +
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 --reproducible) | gzip -1 -n
}
