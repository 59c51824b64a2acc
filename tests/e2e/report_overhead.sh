#!/bin/sh
# The instruments' overhead and the timings' source (issue 24) on a recorded
# SCENARIO=overhead run (tests/data/run-overhead: 7.0 full and lazy under
# icount, each cell bare and with each instrument on the same seed; values
# not edited).  Every expected number is computed here from the documents
# with jq and awk: the paired ratio of fill tps per instrument (geometric
# mean, 95% t interval), the cell's tps from the bare runs only, the
# warm-up run left out; then with the bare runs removed (CONTROLS=off) the
# report says its timings carry the instruments' cost.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_overhead run-overhead report
txt=$run/report.txt
md=$run/report.md
check "build/report exits 0" sh -c "'$top/build/report' '$run' > '$tmp/out' 2>&1"

fill() { jq -r '.results.phases[] | select(.name == "fill") | .tps' "$1"; }
# The paired ratios of one instrument (its run-name suffix), model or all:
# "n gmean lo hi" with t_{.975, n-1} from the table (n - 1 = 1..9).
paired() {
	# $2 unquoted: a model, or * for all of them.
	# shellcheck disable=SC2231
	for f in "$run"/runs/*-$2-4k-*-"$1".json; do
		if [ ! -e "$f" ] || [ ! -e "${f%-"$1".json}-ctl.json" ]; then continue; fi
		echo "$(fill "$f") $(fill "${f%-"$1".json}-ctl.json")"
	done | awk '{ d[NR] = log($1 / $2); s += d[NR] } END {
		split("12.706205 4.302653 3.182446 2.776445 2.570582 2.446912 2.364624 2.306004 2.262157", t, " ")
		n = NR; m = s / n; for (i = 1; i <= n; i++) v += (d[i] - m) ^ 2
		se = sqrt(v / (n - 1)) / sqrt(n)
		printf "%d %.3f [%.3f, %.3f]\n", n, exp(m), exp(m - t[n - 1] * se), exp(m + t[n - 1] * se) }'
}
label() {
	case $1 in
	trace) echo "EVIDENCE trace (tracepoint faults)" ;;
	kprobe) echo "EVIDENCE trace (kprobe faults)" ;;
	records) echo "hold records" ;;
	events) echo "hold events (window)" ;;
	profile) echo "perf profile" ;;
	esac
}
models=$(find "$run/runs" -name '*.json' | sed -n 's|.*/bufbench-7\.0-\([a-z]*\)-4k-.*|\1|p' | sort -u)
nmodels=$(echo "$models" | wc -w)
# Pooled over the models where there are several; one model's row is its own.
pooled=all; [ "$nmodels" -gt 1 ] || pooled=""
for inst in trace kprobe records events profile; do
	for m in $models $pooled; do
		g=$m v=7.0/$m
		if [ "$m" = all ]; then g='*' v=all; fi
		want=$(paired "$inst" "$g")
		n=${want%% *} est=${want#* }
		check "overhead: $(label "$inst") on $v: $n pairs, $est" sh -c \
			"grep -F '$(label "$inst")' '$txt' | grep -E ' $v +$n  ' | grep -qF -- '$est'"
	done
	want=$(paired "$inst" '*')
	# Issue 36: an instrument may cost 3% of the tps; the line says which side it is on.
	budget=$(echo "${want#* }" | awk '{ print ($1 < 0.97) ? "over the 3% budget by " : "within the 3% budget)" }')
	check "overhead: the provenance line gives $(label "$inst") pooled: ${want#* }, ${budget%)}" sh -c \
		"sed -n '/^Instrument overhead: [^e]/,/^[A-Z]/p' '$txt' | tr -s ' \n' '  ' | grep -qF -- '$(label "$inst") ${want#* } (${want%% *} pairs, $budget'"
done
first=all; [ "$nmodels" -gt 1 ] || first=7.0/$models
check "report.md carries the table and the provenance line" sh -c \
	"grep -q '^## Instrument overhead' '$md' && grep -qF '| EVIDENCE trace (tracepoint faults) | $first | ' '$md' && grep -q '^- instrument overhead: EVIDENCE trace' '$md'"
check "report.html too" sh -c \
	"grep -q '<h2>Instrument overhead</h2>' '$run/report.html' && grep -q '<li>instrument overhead: ' '$run/report.html'"

# Timings from the bare runs only, counts from the instrumented ones.
ctl=$(find "$run/runs" -name '*-ctl.json' | wc -l)
all=$(find "$run/runs" -name '*.json' | wc -l)
warm=$(find "$run/runs" -name '*-warm.json' | wc -l)
check "the $warm warm-up run(s) are not compared: $((all - warm)) runs in the report" \
	grep -q "($((all - warm)) runs in $nmodels cells)" "$txt"
check "the caveat says timings are the $ctl bare runs'" sh -c \
	"tr -s ' \n' '  ' < '$txt' | grep -qF 'Timings (tps, ratios, waits) are the $ctl bare runs'"
for m in $models; do
	n=$(find "$run/runs" -name "*-$m-4k-*-ctl.json" | wc -l)
	med=$(for f in "$run"/runs/*-"$m"-4k-*-ctl.json; do jq .results.tps "$f"; done |
		sort -g | awk '{ v[NR] = $1 } END { printf "%.1f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	check "7.0/$m's tps median is its $n bare runs' ($med)" sh -c \
		"awk '\$3 == \"$m\" && \$10 == \"$med\" && \$9 == $n' '$run/summary.txt' | grep -q ."
done
check "the counts come from the traced runs: the Why section is there" \
	grep -q '^Why: how holders lost the CPU' "$txt"

# CONTROLS=off: the same instrumented runs with no bare twin.
rm "$run"/runs/*-ctl.json
rm -f "$run/report.txt"
check "without the bare runs build/report exits 0" sh -c "'$top/build/report' '$run' > '$tmp/out' 2>&1"
check "... no overhead table" sh -c "! grep -q '^Instrument overhead: each' '$txt'"
check "... and its provenance line says the timings include the instruments' cost" sh -c \
	"tr -s ' \n' '  ' < '$txt' | grep -qF 'Instrument overhead: $((all - warm - ctl)) run(s) carried an instrument and have no bare twin (CONTROLS=off)'"
tests_done
