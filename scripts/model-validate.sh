#!/bin/sh
# Leave-out validation of the strategy-lock model (issue 27, docs/scale.md).
#
#   scripts/model-validate.sh predict [--fault-around-pages F] [--base-slice-us U] INPUTS RUN MODELS CELL...
#       writes RUN/predictions.tsv before RUN is measured: for each CELL
#       (PAGES:CLIENTS or PAGES:CLIENTS:CPUS, e.g. 4k:64 or 2m:21:1) and
#       each model of MODELS (comma list) build/predict --extrapolate's
#       ratio against none, its interval and the p_f and T the rules gave;
#       the header has the time, the commit and the inputs' checksum, so
#       the file proves it came first.  --fault-around-pages: RUN will be
#       measured with FAULT_AROUND_BYTES = F x 4 KB (a knob that moves p_f
#       without more CPUs), and the predictions are for that window;
#       --base-slice-us: RUN will have BASE_SLICE_US = U (it moves T).
#   scripts/model-validate.sh grid INPUTS RUNBASE KERNEL [MODELS]
#       the issue's grid from calibrated inputs (a 7.2-lab run's, say):
#       clients 8 21 64 256, 4 KB and 2 MB, every model the inputs have a q
#       for (or MODELS), one run directory per vCPU count, RUNBASE-v1 and
#       RUNBASE-v2, each with its predictions.tsv written now and
#       bench-command.txt, the command that measures it afterwards (same
#       pool as the calibration, EVIDENCE on, 5 runs a cell); the grid is
#       build/plan --validation-grid's (docs/scenarios.md, validate).
#   scripts/model-validate.sh capacity DOC H_US RUNBASE [KERNEL]
#       the lock-capacity law's grid (issue 36, build/capacity): fault-around
#       4K/64K/256K x ICOUNT_SHIFT 0/2/3 under none, calibrated on DOC (a
#       hot-lock cell's bufbench document, EVIDENCE=on) with H_US its hold
#       without a fault; RUNBASE/capacity-predictions.tsv written now, and
#       RUNBASE/bench-command.txt, one hot-lock run per cell afterwards
#       (KERNEL default 7.2-lab, the kernel with none); the grid is
#       build/plan --capacity-grid's.
#   scripts/model-validate.sh compare RUN...
#       build/model --validate for each RUN: predicted against measured,
#       hit or miss with tolerance max(mde at 80% power, 2 points), into
#       RUN/validation.txt.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
top=$(lab_top)

usage() {
	die "usage: $0 predict [--fault-around-pages F] [--base-slice-us U] INPUTS RUN MODELS PAGES:CLIENTS[:CPUS]... | grid INPUTS RUNBASE KERNEL [MODELS] | capacity DOC H_US RUNBASE [KERNEL] | compare RUN..."
}

# whole OPTION VALUE MIN MAX WHAT: VALUE, checked before predictions.tsv is
# begun (build/predict would refuse it only after the header is written).
whole() {
	case $2 in '' | *[!0-9]* | 0*) die "$1 $2: expected $5, $3 to $4" ;; esac
	if [ "$2" -lt "$3" ] || [ "$2" -gt "$4" ]; then die "$1 $2: expected $5, $3 to $4"; fi
	echo "$2"
}

# Refuse a run that already holds measurements: predictions come first.
fresh_run() {
	[ ! -d "$1/runs" ] || [ -z "$(ls "$1/runs")" ] ||
		die "$1 already holds runs: a prediction must come before the measurement"
	mkdir -p "$1"
}

# tsv_row PAGES CLIENTS MODEL CPUS < build/predict --tsv: the row of
# predictions.tsv, its numbers found by the table's column names (tsv_get);
# fails unless the table has those columns and exactly one row.
tsv_row() {
	r_num=$(tsv_get ratio lo hi p_f t_us) || return 1
	[ "$(printf '%s\n' "$r_num" | wc -l)" -eq 1 ] && [ -n "$r_num" ] || return 1
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$r_num" "$4"
}

# predict_cells INPUTS RUN MODELS CELL...; $fa_pages: the fault-around the
# run will have ("": the kernel's, as measured in the calibration);
# $slice_us: its BASE_SLICE_US ("": the kernel's).
predict_cells() {
	inputs=$1 run=$2 models=$3
	shift 3
	[ -f "$inputs" ] || die "$inputs: no such inputs file"
	fresh_run "$run"
	out=$run/predictions.tsv
	mcpus=$("$top/build/jget" cpus "$inputs")
	{
		echo "# written $(date -u +%Y-%m-%dT%H:%M:%SZ), lab $(lab_revision "$top"), before any run in $run"
		echo "# inputs $inputs sha256 $(sha256sum "$inputs" | cut -d' ' -f1)"
		echo "# build/predict --inputs INPUTS --cpus C --clients N --extrapolate --pages P --model M${fa_pages:+ --fault-around-pages $fa_pages}${slice_us:+ --base-slice-us $slice_us}"
		printf 'pages\tclients\tmodel\tpredicted\tlo\thi\tp_f\tt_us\tcpus\n'
	} >"$out"
	for cell in "$@"; do
		pages=${cell%%:*} rest=${cell#*:}
		clients=${rest%%:*} cpus=$mcpus
		[ "$rest" = "$clients" ] || cpus=${rest#*:}
		case $pages:$clients:$cpus in
		*[!0-9a-z:]* | :* | *::* | *:) die "$cell: not PAGES:CLIENTS[:CPUS]" ;;
		esac
		for model in $(echo "$models" | tr ',' ' '); do
			# Its table first, so that a refusal stops here instead of
			# reaching the file as an empty row through a pipe.
			said=$("$top/build/predict" --tsv --inputs "$inputs" --cpus "$cpus" --clients "$clients" \
				--extrapolate --pages "$pages" --model "$model" ${fa_pages:+--fault-around-pages "$fa_pages"} \
				${slice_us:+--base-slice-us "$slice_us"}) ||
				die "build/predict refused cell $cell, model $model; $out is incomplete"
			row=$(printf '%s\n' "$said" | tsv_row "$pages" "$clients" "$model" "$cpus") ||
				die "build/predict --tsv gave no row with ratio, lo, hi, p_f and t_us for cell $cell, model $model; $out is incomplete"
			printf '%s\n' "$row" >>"$out"
		done
	done
	echo "preemptlab: predictions in $out"
}

# The grid's predictions and, beside them, the commands that measure them:
# the cells, the models and each run's make bench variables are the
# planner's (build/plan --validation-grid, lab/plan/validate_grid.c).
grid() {
	fa_pages="" slice_us=""
	inputs=$1 base=$2
	[ -f "$inputs" ] || die "$inputs: no such inputs file"
	# lab_plan's die ends only its own $(...): stop here.
	plan=$(lab_plan) || exit 1
	table=$("$plan" --validation-grid "$inputs" "$3" "${4:-}") || exit 1
	runs=$(printf '%s\n' "$table" | tsv_get run | uniq)
	# Both directories checked before either is written: no half-rewritten grid.
	for r in $runs; do fresh_run "$base-$r"; done
	for r in $runs; do
		run=$base-$r
		models=$(printf '%s\n' "$table" | tsv_get "run=$r" models | sed -n 1p)
		bench=$(printf '%s\n' "$table" | tsv_get "run=$r" bench | sed -n 1p)
		# shellcheck disable=SC2046 # one word a cell
		predict_cells "$inputs" "$run" "$models" $(printf '%s\n' "$table" | tsv_get "run=$r" cell)
		cat >"$run/bench-command.txt" <<-EOC
			# Measure after the predictions above ($(date -u +%Y-%m-%dT%H:%M:%SZ)); from the checkout:
			make build-all
			$bench scripts/bench.sh $run
			scripts/model-validate.sh compare $run
		EOC
		echo "preemptlab: measure with $run/bench-command.txt"
	done
}

# The capacity grid's predictions, then the commands that measure them:
# its cells and runs are the planner's (build/plan --capacity-grid).
capacity() {
	doc=$1 h_us=$2 base=$3
	[ -f "$doc" ] || die "$doc: no such document"
	plan=$(lab_plan) || exit 1
	table=$("$plan" --capacity-grid "${4:-}") || exit 1
	fresh_run "$base"
	out=$base/capacity-predictions.tsv
	# shellcheck disable=SC2046 # one word a cell
	said=$("$top/build/capacity" --calibration "$doc" --h-us "$h_us" $(printf '%s\n' "$table" | tsv_get cell)) ||
		die "build/capacity refused the calibration; nothing written"
	{
		echo "# written $(date -u +%Y-%m-%dT%H:%M:%SZ), lab $(lab_revision "$top"), before any run in $base"
		echo "# calibration $doc sha256 $(sha256sum "$doc" | cut -d' ' -f1)"
		printf '%s\n' "$said"
	} >"$out"
	{
		echo "# Measure after the predictions in $out; from the checkout, one run a cell:"
		echo "make build-all"
		printf '%s\n' "$table" | tsv_get run bench |
			while IFS=$(printf '\t') read -r r b; do echo "$b scripts/bench.sh $base/$r"; done
	} >"$base/bench-command.txt"
	echo "preemptlab: predictions in $out; measure with $base/bench-command.txt"
}

[ $# -ge 1 ] || usage
case $1 in
predict)
	shift
	fa_pages="" slice_us=""
	while :; do
		case ${1:-} in
		--fault-around-pages)
			fa_pages=$(whole "$1" "${2:-}" 1 512 "a page count") || exit 1
			shift 2 ;;
		--base-slice-us)
			slice_us=$(whole "$1" "${2:-}" 100 100000 microseconds) || exit 1
			shift 2 ;;
		*) break ;;
		esac
	done
	[ $# -ge 4 ] || usage
	predict_cells "$@"
	;;
grid)
	if [ $# -lt 4 ] || [ $# -gt 5 ]; then usage; fi
	shift
	grid "$@"
	;;
capacity)
	if [ $# -lt 4 ] || [ $# -gt 5 ]; then usage; fi
	shift
	capacity "$@"
	;;
compare)
	[ $# -ge 2 ] || usage
	shift
	for run in "$@"; do
		echo "== $run"
		"$top/build/model" --validate "$run/predictions.tsv" "$run" | tee "$run/validation.txt"
	done
	# Every run's cells pooled, against the null "1.000x" (build/model --skill).
	if [ $# -gt 1 ]; then
		echo "== all"
		# Rotate each RUN into RUN/validation.txt (the list is expanded once).
		for run in "$@"; do
			set -- "$@" "$run/validation.txt"
			shift
		done
		"$top/build/model" --skill "$@" | tail -n 1
	fi
	;;
*) usage ;;
esac
