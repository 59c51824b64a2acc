#!/bin/sh
# `make bench`: one results directory per invocation.  KERNEL=host runs on
# this machine; any other KERNEL boots it in QEMU (scripts/bench-kernel.sh).
# Real PostgreSQL + pgbench follow unless PGBENCH=off, then the report.
# What finished is kept even when a later step fails or is interrupted.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
top=$(lab_top)

KERNEL=${KERNEL:-host}
export KERNEL
rundir=$(new_run_dir "$KERNEL")
echo "preemptlab: results in $rundir"

status=0
case $KERNEL in
host) "$here/bench-host.sh" "$rundir" || status=$? ;;
*) "$here/bench-kernel.sh" "$rundir" || status=$? ;;
esac
# An interrupted bufbench stage ends the bench; its results are kept.
if [ "$status" -eq 0 ] && [ "$KERNEL" = host ] && [ "${PGBENCH:-on}" != off ]; then
	"$here/pg-bench.sh" "$rundir" || status=$?
fi
if ls "$rundir"/runs/*.json >/dev/null 2>&1 && [ -x "$top/build/report" ]; then
	"$here/report.sh" "$rundir" || note "report failed; the raw results are in $rundir/runs"
fi
[ -f "$rundir/summary.txt" ] && cat "$rundir/summary.txt"
[ -f "$rundir/report.txt" ] && echo "report: $rundir/report.txt"
echo "preemptlab: results in $rundir"
exit "$status"
