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

# pick SPEC: the folded files a cell name matches, one per line.
pick() {
	pat=-$(echo "$1" | tr '/' '-')-
	for f in "$dir"/perf/*.folded; do
		case $(basename "$f") in
		*"$pat"*) echo "$f" ;;
		esac
	done
}

if [ -n "${DIFF:-}" ]; then
	case $DIFF in
	*,*) a=${DIFF%%,*}; b=${DIFF#*,} ;;
	*) die "DIFF=$DIFF: give two cells, DIFF=KERNEL/MODEL,KERNEL/MODEL (e.g. DIFF=6.12/none,7.0/lazy)" ;;
	esac
	tmp=$(mktemp -d)
	# shellcheck disable=SC2016 # expanded when the trap runs
	on_exit 'rm -rf "$tmp"'
	for side in a b; do
		eval "spec=\$$side"
		# shellcheck disable=SC2154 # spec is set by the eval above
		files=$(pick "$spec")
		if [ -z "$files" ]; then
			have=$(for f in "$dir"/perf/*.folded; do basename "$f" .folded; done | tr '\n' ' ')
			die "DIFF: no profile matches '$spec'; profiles here: $have"
		fi
		echo "$files" | while IFS= read -r f; do cat "$f"; done > "$tmp/$side.folded"
		note "DIFF side $side ($spec): $(echo "$files" | wc -l) profile(s)"
	done
	out="$dir/flame-diff-$(echo "$a" | tr '/' '_')-vs-$(echo "$b" | tr '/' '_').svg"
	"$top/build/flamegraph" --diff "$tmp/a.folded" "$tmp/b.folded" \
		--title "Differential flame graph: $b against $a" \
		--subtitle "shape of $b; red = larger share of samples than in $a, blue = smaller" > "$tmp/diff.svg"
	t=$(tmp_beside "$out")
	cat "$tmp/diff.svg" > "$t"
	put_in_place "$t" "$out"
	echo "$out"
fi
for f in "$dir"/flame-*.svg; do
	[ -f "$f" ] && echo "$f"
done
