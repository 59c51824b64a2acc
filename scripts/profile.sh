#!/bin/sh
# Profile one benchmark run with perf when asked (--on, or PROFILE=on by hand).
#
#   scripts/profile.sh [--on] [--freq HZ] [--callgraph dwarf|fp] OUT_STEM -- COMMAND [ARGS...]
#
# The cell runner passes the plan's values as options (--on --freq
# --callgraph); the PROFILE* variables below are the defaults for a run by
# hand.
# On: runs COMMAND under `perf record` with call graphs, then folds
# the stacks into OUT_STEM.folded (build/stackfold), the input of the
# report's flame graphs and top-symbols table.  OUT_STEM is
# RUNDIR/perf/<run name>, the run's JSON being RUNDIR/runs/<run name>.json.
# Otherwise COMMAND simply runs.  COMMAND's exit status is kept either way.
#
# PROFILE_CALLGRAPH=dwarf (default) | fp: the lab builds with frame
#   pointers but glibc does not, so `-g` (fp) loses the callers of libc
#   frames (pread and the faults under it); dwarf unwinding keeps them at
#   more cost (about 1.5 MB/s of perf.data at 99 Hz).
# PROFILE_FREQ=99 samples per second per CPU.
# PROFILE_KEEP=1 keeps OUT_STEM.perf.data (deleted once folded otherwise).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/report-lib.sh
. "$here/report-lib.sh"

on=${PROFILE:-off} freq=${PROFILE_FREQ:-99} callgraph=${PROFILE_CALLGRAPH:-dwarf}
while [ $# -gt 0 ]; do
	case $1 in
	--on) on=on; shift ;;
	--freq) [ $# -ge 2 ] || die "--freq needs a value"; freq=$2; shift 2 ;;
	--callgraph) [ $# -ge 2 ] || die "--callgraph needs a value"; callgraph=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -lt 3 ] || [ "$2" != "--" ]; then
	die "usage: scripts/profile.sh [--on] [--freq HZ] [--callgraph dwarf|fp] OUT_STEM -- COMMAND [ARGS...]"
fi
stem=$1
shift 2

case $on in
on|1|yes) ;;
off|0|no|"") exec "$@" ;;
*) die "PROFILE=$on is not on or off" ;;
esac

top=$(lab_top)
stackfold=$top/build/stackfold
[ -x "$stackfold" ] || die "$stackfold is missing; run make first"

why=$(perf_unusable)
if [ -n "$why" ]; then
	note "PROFILE=on, but no profile for $(basename "$stem"): $why"
	exec "$@"
fi

case $callgraph in
dwarf) cg="--call-graph=dwarf,8192" ;;
fp) cg="-g" ;;
*) die "the call graph $callgraph is not dwarf or fp" ;;
esac
case $freq in '' | *[!0-9]*) die "the sample frequency $freq is not a number" ;; esac

mkdir -p "$(dirname "$stem")"
data=$stem.perf.data
rc=0
# An interrupted run still leaves what perf wrote; fold it below.
trap '' INT
"${PERF:-perf}" record -q "$cg" -F "$freq" -o "$data" -- "$@" || rc=$?
trap - INT
if [ -s "$data" ]; then
	if "${PERF:-perf}" script -i "$data" 2>/dev/null | "$stackfold" -q > "$stem.folded.tmp"; then
		mv "$stem.folded.tmp" "$stem.folded"
		[ "${PROFILE_KEEP:-0}" = 1 ] || rm -f "$data"
	else
		rm -f "$stem.folded.tmp"
		note "could not fold $data (kept it; try: perf script -i $data | build/stackfold)"
	fi
else
	note "perf wrote no data for $(basename "$stem")"
fi
exit "$rc"
