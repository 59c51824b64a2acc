#!/bin/sh
# Leave-out validation of the strategy-lock model (issue 27, docs/scale.md).
#
#   scripts/model-validate.sh predict [--fault-around-pages F] [--base-slice-us U] INPUTS RUN MODELS CELL...
#       RUN/predictions.tsv, written before RUN is measured (build/predict
#       --predictions, lab/model/predictions.h): for each CELL (PAGES:CLIENTS
#       or PAGES:CLIENTS:CPUS, e.g. 4k:64 or 2m:21:1) and model of MODELS
#       (comma list), the predicted ratio against none, its interval and the
#       p_f and T the rules gave, for a RUN with FAULT_AROUND_BYTES = F x 4 KB
#       and BASE_SLICE_US = U when given.
#   scripts/model-validate.sh grid INPUTS RUNBASE KERNEL [MODELS]
#       build/plan --validation-grid's cells from calibrated inputs, one run
#       a vCPU count (RUNBASE-v1, RUNBASE-v2), each with its predictions.tsv
#       written now and bench-command.txt, the command that measures it
#       afterwards (build/predict --predictions-grid).
#   scripts/model-validate.sh capacity DOC H_US RUNBASE [KERNEL]
#       the lock-capacity law's grid (issue 36, build/plan --capacity-grid),
#       calibrated on DOC (a hot-lock cell's bufbench document, EVIDENCE=on)
#       with H_US its hold without a fault: RUNBASE/capacity-predictions.tsv
#       and RUNBASE/bench-command.txt, one hot-lock run a cell afterwards
#       (build/capacity --write; KERNEL default 7.2-lab).
#   scripts/model-validate.sh compare RUN...
#       build/model --validate for each RUN: predicted against measured,
#       hit or miss with tolerance max(mde at 80% power, 2 points), into
#       RUN/validation.txt; then every run's cells pooled.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
top=$(lab_top)

usage() {
	die "usage: $0 predict [--fault-around-pages F] [--base-slice-us U] INPUTS RUN MODELS PAGES:CLIENTS[:CPUS]... | grid INPUTS RUNBASE KERNEL [MODELS] | capacity DOC H_US RUNBASE [KERNEL] | compare RUN..."
}

[ $# -ge 2 ] || usage
cmd=$1
shift
rev=$(lab_revision "$top")
case $cmd in
predict) exec "$top/build/predict" --predictions --lab-revision "$rev" "$@" ;;
grid | capacity)
	if [ $# -lt 3 ] || [ $# -gt 4 ]; then usage; fi
	[ -f "$1" ] || die "$1: no such $([ "$cmd" = grid ] && echo inputs file || echo document)"
	# lab_plan's die ends only its own $(...): stop here.
	plan=$(lab_plan) || exit 1
	if [ "$cmd" = grid ]; then
		table=$("$plan" --validation-grid "$1" "$3" "${4:-}") || exit 1
		printf '%s\n' "$table" | "$top/build/predict" --predictions-grid --lab-revision "$rev" "$1" "$2"
	else
		table=$("$plan" --capacity-grid "${4:-}") || exit 1
		printf '%s\n' "$table" |
			"$top/build/capacity" --calibration "$1" --h-us "$2" --write "$3" --lab-revision "$rev"
	fi
	;;
compare)
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
