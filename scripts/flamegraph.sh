#!/bin/sh
# make flamegraph RUN=DIR [DIFF=A,B]
#
# Folds RUN/perf's profiles, renders one flame graph per profiled cell and
# the headline differential (through build/report), and with DIFF=A,B a
# differential flame graph of B against A: the shape of B, red where B
# spends a larger share of its samples than A, blue where smaller.
# A and B name cells as KERNEL/MODEL[/PAGES[/LOCK[/cCLIENTS]]], matched
# against run names <tool>-<kernel>-<model>-<pages>-<lock>-c<clients>-r<n>,
# e.g. DIFF=6.12/none,7.0/lazy or DIFF=7.0/full/4k,7.0/lazy/4k.  All the
# profiles a name matches (repetitions, client counts) are summed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/report-lib.sh
. "$here/report-lib.sh"
# DIFF (from make, as data): two cell names, nothing but what kernel,
# model and page names hold.
case ${DIFF:-} in
*[!A-Za-z0-9._/,:+-]*) die "DIFF has a character no cell name has (only A-Z a-z 0-9 . _ / , : + -): DIFF=KERNEL/MODEL,KERNEL/MODEL" ;;
esac
report_args "${1:-}" flamegraph

"$here/flamegraph-fold.sh" "$dir" >/dev/null
set -- "$dir"/perf/*.folded
if [ ! -f "$1" ]; then
	why=$(perf_unusable)
	[ -z "$why" ] || die "no profiles in $dir/perf, and none can be made here: $why"
	die "no profiles in $dir/perf: rerun the bench with PROFILE=on (make bench PROFILE=on ...)"
fi
"$top/build/report" "$dir" >/dev/null

# Which profiles each name matches, summed, and the graph's name and
# titles: build/flamegraph --diff-cells (lab/report/flame_cells.c).
[ -z "${DIFF:-}" ] || "$top/build/flamegraph" --diff-cells "$dir" "$DIFF" || exit 1
for f in "$dir"/flame-*.svg; do
	[ -f "$f" ] && echo "$f"
done
