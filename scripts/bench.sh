#!/bin/sh
# `make bench`: plan, run, report.  build/plan validates every variable and
# writes results/RUN/plan.json (and the flat files the runners read)
# before anything is fetched, reserved or booted; scripts/run-plan.sh
# carries the plan out, unit by unit (the host, or one guest boot each);
# build/report writes the summary and the reports from what arrived.
# What finished is kept even when a later step fails or is interrupted.
# Usage: scripts/bench.sh [RUNDIR]   (default: a new results/<time>-<kernel>)
# Exit: 0 every cell settled, 1 a cell failed, 2 bad input (nothing made),
# 130/143/129 interrupted (what finished is kept).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
top=$(lab_top)
plan=$top/build/plan
[ -x "$plan" ] || die "$plan is missing; run make"

# The first plan: its summary and files, or bad input refused in well
# under a second, leaving no run directory that this call made.
made=1
if [ $# -ge 1 ]; then
	rundir=$1
	[ -e "$rundir" ] && made=0
	mkdir -p "$rundir/runs" "$rundir/logs"
else
	rundir=$(new_run_dir "${KERNEL:-host}")
fi
if ! "$plan" --check --top "$top" --out "$rundir"; then
	[ "$made" = 1 ] && rm -rf "$rundir"
	exit 2
fi
bconf() { plan_value "$rundir/plan/bench.conf" "$1"; }
# A kernel the planner chose (SCENARIO=mitigations: 7.2-lab where built)
# names the directory, as a KERNEL given would; the plan holds no path to it.
if [ $# -eq 0 ] && [ -z "${KERNEL:-}" ] && [ "$(bconf kernel)" != host ]; then
	named=${rundir%-host}-$(bconf kernel | tr '/ ' '__')
	[ ! -e "$named" ] && mv "$rundir" "$named" && rundir=$named
fi
echo "preemptlab: results in $rundir"

# The servers and guest kernels the plan names, had once (logs/pg-*.tsv,
# logs/kernel-ROLE.env).
"$here/materials.sh" "$rundir" || exit 1

initrd=""
trap 'rm -f "$initrd"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
if [ "$(bconf host)" != 1 ]; then
	# What the final plan needs from outside the planner, found once: the
	# initramfs (its size is part of the guests' RAM), and under
	# ACCEL=auto whether KVM boots the kernel under test (the probe the
	# plan wrote, plan/probe.qemu).
	initrd=$(mktemp --suffix=.cpio.gz)
	# The servers go in at their host paths: PG_VERSION's fetched root and
	# MITIGATIONS' roots, the host's own 15 where a MITIGATIONS cell runs it.
	fetched=$(cut -f3 "$rundir/logs/pg-version.tsv" "$rundir/logs/pg-roots.tsv" | sed '/^$/d' | tr '\n' ' ')
	with_system=0
	cut -f3 "$rundir/logs/pg-roots.tsv" | grep -q '^$' && with_system=1
	ARCH=$(bconf arch) PGBENCH=$(bconf pgbench) PROFILE=$(bconf profile) PG_FETCHED=${fetched% } PG_WITH_SYSTEM=$with_system \
		"$here/initramfs.sh" "$initrd"
	probed=""
	if [ -f "$rundir/plan/probe.qemu" ]; then
		# shellcheck disable=SC1091 # written just above
		image=$(. "$rundir/logs/kernel-main.env" && echo "$K_IMAGE")
		probed=$("$here/qemu-accel.sh" "$rundir/plan/probe.qemu" "$image" "$initrd" "$(bconf probe_timeout_s)" \
			"$(bconf probe_fail_text)")
	fi
	"$plan" --top "$top" --out "$rundir" --initramfs-bytes "$(wc -c < "$initrd")" \
		${probed:+--accel-probed "$probed"}
fi

# The runner is a background job so that a signal here reaches it at once:
# it stops the running unit, settles what arrived and writes the manifest.
# (A background job ignores SIGINT in sh: USR1 carries Ctrl-C on, so that
# the run records which signal stopped it; TERM and HUP go as they came.)
status=0
"$here/run-plan.sh" "$rundir" ${initrd:+"$initrd"} &
runner=$!
trap 'kill -USR1 "$runner" 2>/dev/null || true' INT
trap 'kill -TERM "$runner" 2>/dev/null || true' TERM
trap 'kill -HUP "$runner" 2>/dev/null || true' HUP
while :; do
	rc=0; wait "$runner" || rc=$?
	kill -0 "$runner" 2>/dev/null || { status=$rc; break; }
done
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
# One analysis: build/report writes summary.txt beside report.txt.
if ls "$rundir"/runs/*.json >/dev/null 2>&1; then
	"$here/report.sh" "$rundir" > /dev/null || note "report failed; the raw results are in $rundir/runs"
fi
[ -f "$rundir/summary.txt" ] && cat "$rundir/summary.txt"
[ -f "$rundir/report.txt" ] && echo "report: $rundir/report.txt"
echo "preemptlab: results in $rundir"
exit "$status"
