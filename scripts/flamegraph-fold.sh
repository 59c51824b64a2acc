#!/bin/sh
# Fold every profile of RUNDIR/perf that has no .folded yet:
#   <name>.perf.data  (perf record, host)  -> perf script | build/stackfold
#   <name>.perf.txt   (perf script text brought back from a guest)
# Usage: scripts/flamegraph-fold.sh RUNDIR.  Prints how many it folded.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
[ $# -eq 1 ] || die "usage: scripts/flamegraph-fold.sh RUNDIR"
dir=$1
stackfold=$(lab_top)/build/stackfold
[ -x "$stackfold" ] || die "$stackfold is missing; run make first"
n=0
[ -d "$dir/perf" ] || { echo 0; exit 0; }
for f in "$dir"/perf/*.perf.txt "$dir"/perf/*.perf.data; do
	[ -f "$f" ] || continue
	case $f in
	*.perf.txt) stem=${f%.perf.txt} ;;
	*) stem=${f%.perf.data} ;;
	esac
	[ -s "$stem.folded" ] && continue
	case $f in
	*.perf.data) command -v "${PERF:-perf}" >/dev/null 2>&1 ||
		{ note "perf is not installed: cannot read $f (apt-get install linux-perf)"; continue; } ;;
	esac
	t=$(tmp_beside "$stem.folded")
	case $f in
	*.perf.txt) "$stackfold" -q "$f" > "$t" || { rm -f "$t"; note "cannot fold $f"; continue; } ;;
	*)
		"${PERF:-perf}" script -i "$f" 2>/dev/null | "$stackfold" -q > "$t" ||
			{ rm -f "$t"; note "cannot fold $f"; continue; } ;;
	esac
	put_in_place "$t" "$stem.folded"
	n=$((n + 1))
done
echo "$n"
