#!/bin/sh
# `make bench` with PGBENCH not off, host side: real PostgreSQL + pgbench
# beside bufbench, one private cluster per huge_pages setting
# (scripts/pg-run.sh), results in RUNDIR/runs/pgbench-*.json.
# Usage: scripts/pg-bench.sh RUNDIR
# Environment (all optional):
#   HUGEPAGES   off | on | try | compare (= off and on; default compare)
#   CLIENTS     client counts (default 8)
#   REPEAT      repetitions (default 1)
#   DURATION    seconds per pgbench run (default 10)
#   POOL        shared_buffers (default 128M, bufbench's pool)
#   PG_BUILTINS pgbench builtins (default "select-only simple-update")
#   PG_SCALE    pgbench scale (default: table about twice shared_buffers)
#   PG_SHARED_BUFFERS  overrides POOL for PostgreSQL only
#   MODELS      preemption models to switch through debugfs between runs
#               (one cluster serves them all); used where debugfs is
#               writable (guests), ignored with a note elsewhere
# KERNEL other than host: pgbench runs inside the guest, so this host side
# has nothing to do.  Inside a guest the runner calls this same script with
# PREEMPTLAB_GUEST=1 (docs/postgres.md), where POOL defaults to 16M so
# that TCG finishes in minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
[ $# -eq 1 ] || die "usage: $0 RUNDIR"
rundir=$1
guest=${PREEMPTLAB_GUEST:-0}
case ${KERNEL:-host} in
host) ;;
*) [ "$guest" = 1 ] || { note "pgbench for KERNEL=$KERNEL runs in the guest; host-side pg-bench.sh skipped"; exit 0; } ;;
esac
if [ "$guest" = 1 ]; then sb_default=16M; else sb_default=128M; fi
models=""
if [ -n "${MODELS:-}" ]; then
	if [ -w /sys/kernel/debug/sched/preempt ]; then
		models=$(split_list "$MODELS")
	else
		note "MODELS=$MODELS ignored for pgbench: /sys/kernel/debug/sched/preempt is not writable here"
	fi
fi
case ${PGBENCH:-on} in
off) exit 0 ;;
on) ;;
*) die "PGBENCH=$PGBENCH must be on or off" ;;
esac
case ${HUGEPAGES:-compare} in
compare) modes="off on" ;;
off | on | try) modes=$HUGEPAGES ;;
*) die "HUGEPAGES=$HUGEPAGES must be off, on, try or compare" ;;
esac
mkdir -p "$rundir/logs"
export PREEMPTLAB_KERNEL="${PREEMPTLAB_KERNEL:-host}"

st=$(mktemp)
trap 'rm -f "$st"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
failed=""
for m in $modes; do
	{
		rc=0
		"$here/pg-run.sh" --huge-pages "$m" \
			--shared-buffers "${PG_SHARED_BUFFERS:-${POOL:-$sb_default}}" \
			${PG_SCALE:+--scale "$PG_SCALE"} ${models:+--models "$models"} \
			--clients "${CLIENTS:-8}" \
			--builtins "${PG_BUILTINS:-select-only simple-update}" \
			--duration "${DURATION:-10}" --repeat "${REPEAT:-1}" \
			"$rundir" || rc=$?
		echo "$rc" > "$st"
	} 2>&1 | tee -a "$rundir/logs/pgbench-summary.txt"
	rc=$(cat "$st")
	case $rc in
	0) ;;
	130 | 143) exit "$rc" ;;
	*) failed="$failed $m" ;;
	esac
done
[ -z "$failed" ] || die "pgbench: huge_pages=${failed# } did not complete (see $rundir/logs/pgbench-summary.txt)"
