#!/bin/sh
# Leave-out validation of the strategy-lock model (issue 27, docs/scale.md).
#
#   scripts/model-validate.sh predict INPUTS RUN MODELS CELL...
#       writes RUN/predictions.tsv before RUN is measured: for each CELL
#       (PAGES:CLIENTS, e.g. 4k:64) and each model of MODELS (comma list)
#       build/predict --extrapolate's ratio against none, its interval and
#       the p_f and T the rules gave; the header has the time, the commit
#       and the inputs' checksum, so the file proves it came first.
#   scripts/model-validate.sh compare RUN
#       build/model --validate: predicted against measured, hit or miss,
#       into RUN/validation.txt.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
top=$(lab_top)
TAB=$(printf '\t')

usage() { die "usage: $0 predict INPUTS RUN MODELS PAGES:CLIENTS... | compare RUN"; }

predict_cells() {
	inputs=$1 run=$2 models=$3
	shift 3
	[ -f "$inputs" ] || die "$inputs: no such inputs file"
	[ ! -d "$run/runs" ] || [ -z "$(ls "$run/runs")" ] ||
		die "$run already holds runs: a prediction must come before the measurement"
	mkdir -p "$run"
	out=$run/predictions.tsv
	cpus=$("$top/build/jget" cpus "$inputs")
	{
		echo "# written $(date -u +%Y-%m-%dT%H:%M:%SZ), lab $(lab_revision "$top"), before any run in $run"
		echo "# inputs $inputs sha256 $(sha256sum "$inputs" | cut -d' ' -f1)"
		echo "# build/predict --inputs INPUTS --cpus $cpus --clients N --extrapolate --pages P --model M"
		printf 'pages\tclients\tmodel\tpredicted\tlo\thi\tp_f\tt_us\n'
	} >"$out"
	for cell in "$@"; do
		pages=${cell%%:*} clients=${cell#*:}
		for model in $(echo "$models" | tr ',' ' '); do
			"$top/build/predict" --inputs "$inputs" --cpus "$cpus" --clients "$clients" \
				--extrapolate --pages "$pages" --model "$model" |
				awk -v p="$pages" -v c="$clients" -v m="$model" -v OFS="$TAB" '
					$1 == "p_f" { pf = $4 }
					$1 == "T" { t = $4 }
					$1 == "closed" {
						for (i = 2; i <= NF; i++) {
							if ($i ~ /^[0-9.]+x$/) { r = $i; sub(/x$/, "", r) }
							if ($i ~ /^[0-9.]+\.\.[0-9.]+$/) split($i, iv, /\.\./)
						}
					}
					END { print p, c, m, r, iv[1], iv[2], pf, t }' >>"$out"
		done
	done
	echo "preemptlab: predictions in $out"
}

[ $# -ge 1 ] || usage
case $1 in
predict)
	[ $# -ge 5 ] || usage
	shift
	predict_cells "$@"
	;;
compare)
	[ $# -eq 2 ] || usage
	"$top/build/model" --validate "$2/predictions.tsv" "$2" | tee "$2/validation.txt"
	;;
*) usage ;;
esac
