#!/bin/sh
# Profile one benchmark run with perf when PROFILE=on.
#
#   scripts/profile.sh OUT_STEM -- COMMAND [ARGS...]
#
# PROFILE=on: runs COMMAND under `perf record` with call graphs, then folds
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

if [ $# -lt 3 ] || [ "$2" != "--" ]; then
	die "usage: scripts/profile.sh OUT_STEM -- COMMAND [ARGS...]"
fi
stem=$1
shift 2

case ${PROFILE:-off} in
on|1|yes) ;;
off|0|no|"") exec "$@" ;;
*) die "PROFILE=${PROFILE} is not on or off" ;;
esac

top=$(lab_top)
stackfold=$top/build/stackfold
[ -x "$stackfold" ] || die "$stackfold is missing; run make first"

why=$(perf_unusable)
if [ -n "$why" ]; then
	note "PROFILE=on, but no profile for $(basename "$stem"): $why"
	exec "$@"
fi

case ${PROFILE_CALLGRAPH:-dwarf} in
dwarf) cg="--call-graph=dwarf,8192" ;;
fp) cg="-g" ;;
*) die "PROFILE_CALLGRAPH=${PROFILE_CALLGRAPH} is not dwarf or fp" ;;
esac

mkdir -p "$(dirname "$stem")"
data=$stem.perf.data
rc=0
# An interrupted run still leaves what perf wrote; fold it below.
trap '' INT
"${PERF:-perf}" record -q "$cg" -F "${PROFILE_FREQ:-99}" -o "$data" -- "$@" || rc=$?
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
