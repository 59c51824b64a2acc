# shellcheck shell=sh
# Helpers shared by the lab's shell scripts (sourced, not run).

die() { echo "preemptlab: $*" >&2; exit 1; }
note() { echo "preemptlab: $*" >&2; }
# lab_top: the checkout's top directory.
lab_top() { (cd "$(dirname "$0")/.." && pwd); }

# lab_plan: build/plan, whose tables (lab/common/arch.c, catalog.c) the
# scripts read instead of keeping case lists of their own.
lab_plan() {
	lp=$(lab_top)/build/plan
	[ -x "$lp" ] || die "no $lp (the architecture table and catalog reader): make build-all"
	echo "$lp"
}

# arch_info ARCH KEY: one value of ARCH's row of the architecture table
# (Debian's or uname's name; "" is this machine's), "" when it has none.
# An unknown ARCH exits 2, naming the known ones.
arch_info() {
	# lab_plan's die ends only its own $(...): stop here, not run "".
	ai_plan=$(lab_plan) || exit 2
	ai_out=$("$ai_plan" --arch-info "$1" "$2") || [ $? -eq 1 ] || exit 2
	echo "$ai_out"
}

# plan_value FILE KEY: KEY's value in a plan file of "key TAB value" lines
# (plan/bench.conf, plan/UNIT.plan; lab/plan/write.c), the first line's;
# empty when the key is absent.  The cell runner (lab/runner/conf.c) has its own reader: it
# reads its plan file before it knows where this one is.
plan_value() { awk -F '\t' -v k="$2" '$1 == k { print $2; exit }' "$1"; }
# plan_values FILE KEY: everything after KEY's TAB on each of its lines, in
# order (a unit's reserve and cell lines, whose values hold TABs).
plan_values() { awk -v k="$2" 'index($0, k "\t") == 1 { print substr($0, length(k) + 2) }' "$1"; }

# kapt_arch: the kernels' architecture (Debian's name) from ARCH, else
# KAPT_ARCH (exported by the caller), else this machine's.
kapt_arch() { arch_info "${ARCH:-${KAPT_ARCH:-}}" name; }

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

# data_var NAME: dies when the variable NAME (a path or a list of them
# from make's command line: RUN, RUNS, OUT, INVENTORY) holds a control
# character.  make hands these to scripts through the environment, as
# data; a newline or an escape in one would still split the lines of what
# is written from it or reach a terminal.
data_var() {
	eval "dv_val=\${$1:-}"
	# shellcheck disable=SC2154 # dv_val is set by the eval above
	case $dv_val in
	*[[:cntrl:]]*) die "$1 holds a control character (newline, tab, escape): give a plain path" ;;
	esac
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

# lab_revision TOP: the lab's revision, as the Makefile stamps it into the
# binaries: .lab-revision where reproduce.sh unpacked an attachment's
# source (no .git there), git describe --dirty where TOP is a checkout's
# top (not a directory inside some other repository), unknown otherwise.
lab_revision() {
	if [ -f "$1/.lab-revision" ]; then
		head -n 1 "$1/.lab-revision"
	elif [ "$(git -C "$1" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$1" && pwd -P)" ]; then
		git -C "$1" describe --always --dirty 2>/dev/null || echo unknown
	else
		echo unknown
	fi
}

# lab_record_source TOP DIR: when TOP's tree has uncommitted changes, the
# run's code is not any commit: DIR/lab-dirty.patch gets them as they are
# now (tracked changes, then untracked files as new files), so that an
# attachment can enclose them instead of pretending the commit ran.  In
# source unpacked by an attachment's reproduce.sh they are the patch it
# applied (.lab-dirty.patch).
lab_record_source() {
	case $(lab_revision "$1") in *-dirty) ;; *) return 0 ;; esac
	if [ -f "$1/.lab-dirty.patch" ]; then
		cp "$1/.lab-dirty.patch" "$2/lab-dirty.patch"
		return 0
	fi
	{
		git -C "$1" diff --binary HEAD
		# shellcheck disable=SC2016 # $0 and $1 are the inner sh's: TOP, a file
		git -C "$1" ls-files --others --exclude-standard -z |
			xargs -0 -r -n 1 sh -c 'cd "$0" && git diff --binary --no-index /dev/null "$1" || true' "$1"
	} > "$2/lab-dirty.patch" 2>/dev/null || true
	[ -s "$2/lab-dirty.patch" ] || rm -f "$2/lab-dirty.patch"
}
