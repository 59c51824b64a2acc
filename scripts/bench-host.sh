#!/bin/sh
# `make bench` on the machine's own kernel: bufbench over 4 KB, 2 MB and
# 1 GB pages (each where it can be had), interleaved by repetition so slow
# drift of a noisy machine spreads over every cell alike.
# Usage: scripts/bench-host.sh RUNDIR
# Environment (all optional):
#   HUGEPAGES  off (4k) | on (2m, must be had) | try (try-2m) |
#              compare (4k, 2m and 1g where reservable; default)
#   PAGES      explicit page policies, overrides HUGEPAGES (e.g. "4k 2m")
#   CLIENTS LOCKS STRATEGY  matrix (default 8, tas, pg)
#   DURATION WARMUP REPEAT  seconds, seconds, repetitions (default 10, 0, 3)
#   POOL RELATION WORKLOAD  bufbench sizes and workload (128M, 512M, select-only)
#   PROFILE=on              perf record each run (scripts/profile.sh)
#   BUFBENCH_ARGS           more bufbench options for every run, e.g.
#                           "--hold-events" or "--reconnect 1000"
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/hugepages.sh
. "$here/hugepages.sh"
[ $# -eq 1 ] || die "usage: $0 RUNDIR"
rundir=$1
top=$(lab_top)
bufbench=$top/build/bufbench
[ -x "$bufbench" ] || die "$bufbench is missing; run make"
command -v jq >/dev/null || die "jq is needed for the summary; apt-get install jq"

CLIENTS=${CLIENTS:-8}
LOCKS=${LOCKS:-tas}
STRATEGY=${STRATEGY:-pg}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-0}
REPEAT=${REPEAT:-3}
POOL=${POOL:-128M}
RELATION=${RELATION:-512M}
WORKLOAD=${WORKLOAD:-select-only}
HUGEPAGES=${HUGEPAGES:-compare}

if [ -n "${PAGES:-}" ]; then
	pages=$(split_list "$PAGES")
else
	case $HUGEPAGES in
	off) pages=4k ;;
	on) pages=2m ;;
	try) pages=try-2m ;;
	compare) pages="4k 2m 1g" ;;
	*) die "HUGEPAGES=$HUGEPAGES: expected off, on, try or compare" ;;
	esac
fi
case $REPEAT in ''|*[!0-9]*) die "REPEAT=$REPEAT is not a count" ;; esac

interrupted=0
trap 'hp_restore_all' EXIT
trap 'interrupted=1' INT TERM

seg_bytes=$("$bufbench" --pool "$POOL" --relation "$RELATION" --segment-size) ||
	die "bad POOL=$POOL or RELATION=$RELATION"

# Reserve once for the whole matrix; a policy that cannot be had is
# skipped under compare and fatal when asked for explicitly.
runnable=""
for p in $pages; do
	case $p in
	2m|1g)
		kb=2048; [ "$p" = 1g ] && kb=1048576
		n=$(hp_pages_for "$seg_bytes" "$kb")
		if hp_reserve "$kb" "$n"; then
			runnable="$runnable $p"
		elif [ "$HUGEPAGES" = compare ] && [ -z "${PAGES:-}" ]; then
			echo "$p: skipped: cannot reserve $n pages of $kb kB ($(hp_sysctl_hint "$kb" "$n"))" |
				tee -a "$rundir/logs/skipped.txt" >&2
		else
			die "$p: cannot reserve $n pages of $kb kB; as root: $(hp_sysctl_hint "$kb" "$n")"
		fi ;;
	*) runnable="$runnable $p" ;;
	esac
done

"$top/build/bufmicro" > "$rundir/logs/bufmicro.json" 2>/dev/null || true

# The command that reruns this matrix: every knob the user set, quoted.
cmd="make bench KERNEL=host"
for v in HUGEPAGES PAGES CLIENTS LOCKS STRATEGY DURATION WARMUP REPEAT POOL RELATION \
	WORKLOAD BUFBENCH_ARGS PGBENCH PROFILE; do
	eval "val=\${$v:-}"
	# shellcheck disable=SC2154 # val is set by the eval above
	[ -n "$val" ] && cmd="$cmd $v='$val'"
done
jq -n --arg cmd "$cmd" --arg pages "$runnable" \
	--arg clients "$CLIENTS" --arg locks "$LOCKS" --arg strategy "$STRATEGY" \
	--arg duration "$DURATION" --arg warmup "$WARMUP" --arg repeat "$REPEAT" \
	--arg pool "$POOL" --arg relation "$RELATION" --arg workload "$WORKLOAD" \
	--arg extra "${BUFBENCH_ARGS:-}" \
	--arg kernel "$(uname -r)" --arg uname "$(uname -a)" \
	--arg rev "$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)" \
	'{command: $cmd, kernel: "host", kernel_release: $kernel, uname: $uname,
	  lab_revision: $rev,
	  matrix: {pages: $pages, clients: $clients, locks: $locks, strategy: $strategy,
	           duration: $duration, warmup: $warmup, repeat: $repeat, pool: $pool,
	           relation: $relation, workload: $workload, bufbench_args: $extra}}' \
	> "$rundir/manifest.json"

ncells=0
for _r in $(seq 1 "$REPEAT"); do for _p in $runnable; do for _c in $(split_list "$CLIENTS"); do
	for _l in $(split_list "$LOCKS"); do ncells=$((ncells + 1)); done; done; done; done
per_cell=$(awk -v d="$DURATION" -v w="$WARMUP" 'BEGIN { printf "%d", d + w + 1 }')

i=0
start=$(date +%s)
for rep in $(seq 1 "$REPEAT"); do
	for p in $runnable; do
		for c in $(split_list "$CLIENTS"); do
			for l in $(split_list "$LOCKS"); do
				[ "$interrupted" = 0 ] || break 4
				i=$((i + 1))
				left=$(( (ncells - i + 1) * per_cell ))
				printf 'preemptlab: [%d/%d] host pages=%s clients=%s lock=%s rep=%d (about %dm%02ds left)\n' \
					"$i" "$ncells" "$p" "$c" "$l" "$rep" $((left / 60)) $((left % 60)) >&2
				name="bufbench-host-$p-$l-c$c-r$rep"
				if ! "$here/profile.sh" "$rundir/perf/$name" -- \
					"$bufbench" --clients "$c" --duration "$DURATION" --warmup "$WARMUP" \
					--pool "$POOL" --relation "$RELATION" --workload "$WORKLOAD" \
					--pages "$p" --lock "$l" --strategy "$STRATEGY" --seed "$rep" \
					${BUFBENCH_ARGS:+$BUFBENCH_ARGS} \
					--json "$rundir/runs/$name.json" 2> "$rundir/logs/$name.err"; then
					note "$name failed: $(tail -n 1 "$rundir/logs/$name.err")"
					echo "$name" >> "$rundir/logs/failed.txt"
				fi
			done
		done
	done
done
note "bufbench matrix took $(( $(date +%s) - start )) s"

"$here/host-summary.sh" "$rundir"
[ "$interrupted" = 0 ] || { note "interrupted: kept $(find "$rundir/runs" -name "*.json" | wc -l) runs in $rundir"; exit 130; }
