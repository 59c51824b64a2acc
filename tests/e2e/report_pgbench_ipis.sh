#!/bin/sh
# build/report on pgbench documents that carry the machine's interrupts
# over each run (tests/data/run-pgbench-ipis: 7.2-lab none/full/lazy,
# select-only, 8 clients, SCHED_HRTICK=off, five runs each, a real guest
# run): the per-transaction rows are recomputed from the documents (the
# medians, lazy's rescheduling interrupts' change with its star), and
# lazy's are below a tenth of none's, the count the IPI-less wakeup makes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_pgbench_ipis run-pgbench-ipis report
txt=$run/report.txt

check "report runs on the fixture" "$top/build/report" "$run"
check "report.txt within 80 columns" test "$(awk 'length > 80' "$txt" | wc -l)" -eq 0

docs() { # model -> that cell's pgbench documents
	for f in "$run"/runs/pgbench-*.json; do
		[ "$(jq -r .provenance.preempt_model "$f")" = "$1" ] && echo "$f"
	done
}
# per MODEL FIELD: median over the cell's runs of results.interrupts.FIELD
# per transaction, printed as the report prints it (3 significant digits).
per() {
	# shellcheck disable=SC2046 # one argument per document
	jq -s "map(.results.interrupts.$2 / .results.transactions) | sort | .[length / 2 | floor]" \
		$(docs "$1") | awk '{ printf "%.3g", $1 }'
}
# mean_change MODEL FIELD: the change of the means against none's (the
# report's estimator for a metric that can be 0), one decimal.
mean_change() {
	# shellcheck disable=SC2046
	b=$(jq -s "map(.results.interrupts.$2 / .results.transactions) | add / length" $(docs none))
	# shellcheck disable=SC2046
	n=$(jq -s "map(.results.interrupts.$2 / .results.transactions) | add / length" $(docs "$1"))
	pct "$b" "$n"
}

title="-> C6 7.2-lab/lazy: pgbench select-only"
for m in "resched resched IPIs/txn" "call_function call-function IPIs/txn" "local_timer timer irqs/txn"; do
	field=${m%% *} label=${m#* }
	r=$(row "$title" "$label")
	b=$(per none "$field") n=$(per lazy "$field")
	case $r in
	*" $b +-"*" $n +-"*) pass "lazy's $label row: medians $b (none) and $n (lazy) from the documents" ;;
	*) fail "lazy's $label row: want medians $b and $n, got: '$r'" ;;
	esac
done
r=$(row "$title" "resched IPIs/txn")
want=$(mean_change lazy resched)
case $r in
*"$want*"*) pass "lazy's rescheduling interrupts per transaction: $want with a star" ;;
*) fail "lazy's resched row: want $want*, got: '$r'" ;;
esac
# The mechanism, counted: a remote wakeup that preempts a busy CPU's task
# sends the IPI under none and not under lazy (kernel/sched/core.c
# __resched_curr), so lazy's count is a small fraction of none's.
check "lazy's rescheduling interrupts are under a tenth of none's ($(per lazy resched) against $(per none resched))" \
	awk -v l="$(per lazy resched)" -v n="$(per none resched)" 'BEGIN { exit !(n > 0 && l < n / 10) }'
r=$(row "-> C5 7.2-lab/full: pgbench select-only" "resched IPIs/txn")
check "full's rescheduling interrupts are not marked different from none's" \
	sh -c "echo '$r' | grep -q ' -*[0-9.]*% ' && ! echo '$r' | grep -q '%\\*'"
# A document without the interrupts (an older run, or a kernel without IPI
# lines) leaves the rows to the others: no row claims a value it lacks.
for f in $(docs lazy); do
	jq 'del(.results.interrupts)' "$f" > "$tmp/x" && mv "$tmp/x" "$f"
done
"$top/build/report" "$run" 2>/dev/null
check "without lazy's interrupts, its comparison has no resched row" \
	sh -c "[ -z \"\$(awk -v t='$title' 'index(\$0, t) { f = 1 } f && /resched IPIs\\/txn\$/ { print; exit } f && /^\$/ { exit }' '$txt')\" ]"
tests_done
