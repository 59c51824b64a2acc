#!/bin/sh
# make compare RUNS="results/A results/B ..." [BASELINE=results/A] [OUT=DIR]:
# one report (report.txt, report.md, summary.txt, SVG charts) over the cells
# of several run directories, matched by the same keys, columns named
# kernel/model/host (build/compare).  The bare-metal workflow: boot 6.12,
# make bench; boot 7.0, make bench; make compare RUNS="results/*".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
top=$(lab_top)
usage='make compare RUNS="results/A results/B" [BASELINE=results/A] [OUT=DIR]'
[ -n "${RUNS:-}" ] || die "RUNS is empty: $usage"
# make hands RUNS, OUT and BASELINE over as data (the environment); here
# they are checked (data_var, and each directory below).
data_var OUT
data_var BASELINE
[ -x "$top/build/compare" ] || die "$top/build/compare is missing; run make"
n=0
set -f
for d in $RUNS; do
	case $d in *[[:cntrl:]]*) die "RUNS holds a control character (escape, carriage return): give plain paths" ;; esac
	[ -d "$d/runs" ] || die "RUNS: $d is not a results directory (no runs/ in it): $usage"
	n=$((n + 1))
done
[ "$n" -ge 2 ] || die "RUNS names $n directory; compare wants two or more: $usage"
out=${OUT:-$top/results/compare-$(date -u +%Y%m%dT%H%M%SZ)}
# shellcheck disable=SC2086 # RUNS is a list of directories, split on blanks
"$top/build/compare" --out "$out" ${BASELINE:+--baseline "$BASELINE"} $RUNS
set +f
echo "compare: $out/report.txt"
