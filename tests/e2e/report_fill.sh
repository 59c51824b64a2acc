#!/bin/sh
# build/report on a cold pool filling (tests/data/run-fill): the fill
# phase leads the finding and has its own section, with each cell's fill
# and steady figures, the 4 KB / 2 MB and pg / pg19 ratios of fill-phase
# tps with the band their runs allow, the faulting holds counted, and the
# tps-over-time charts with the fill marked.  Expected numbers come from
# the documents, computed here with jq.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_fill run-fill report
txt=$run/report.txt

# The fixture was recorded with --hold-events before issue 24, which read
# the counters inside every hold: the report refuses its timings and keeps
# its counts.
cp -r "$run" "$tmp/inhold"
"$top/build/report" "$tmp/inhold" > /dev/null 2>&1
n=$(find "$tmp/inhold/runs" -name 'bufbench-*.json' | wc -l)
check "in-hold hold events: the $n bufbench runs' timings are refused" \
	test "$(grep -c '^timings refused: bufbench-.*hold_events read inside' "$tmp/inhold/summary.txt")" -eq "$n"
check "...and no fill tps ratio is printed from them" sh -c "! grep -q 'fill tps, 4 KB / 2 MB' '$tmp/inhold/report.txt'"
check "...while their counts are still compared" grep -q ' fill holds w/ fault %$' "$tmp/inhold/report.txt"
# The rest tests the report's fill-phase arithmetic on the same documents,
# declared free of in-hold instruments (config.in_hold_syscalls = []).
for f in "$run"/runs/bufbench-*.json; do
	jq '.config.in_hold_syscalls = []' "$f" > "$f.new" && mv "$f.new" "$f"
done

check "report runs on the fill fixture" "$top/build/report" "$run"
check "report.txt within 80 columns" test "$(awk 'length > 80' "$txt" | wc -l)" -eq 0
check "the fill phase leads the finding" \
	sh -c "sed -n '/^Finding/,/^Fill phase:/p' '$txt' | grep -q '^Fill phase (C1'"
check "the fill phase has its own section" grep -q '^Fill phase: a cold pool filling' "$txt"

# fill-phase tps of one cell's documents: the mean of their logarithms
fill() { # page_kb strategy -> mean log tps
	jq -rs --argjson p "$1" --arg s "$2" '
	  map(select(.tool == "bufbench" and .provenance.page_size_kb == $p and .config.strategy == $s)
	      | .results.phases[] | select(.name == "fill") | .tps | log) | add / length' \
	  "$run"/runs/*.json
}
ratio() { # a b -> the ratio of geometric means as the report prints it, up to its interval
	echo "$1 $2" | awk '{ printf "%.3fx [", exp($1 - $2) }'
}
r=$(ratio "$(fill 4 pg)" "$(fill 2048 pg)")
check "4 KB / 2 MB fill tps (pg) as the documents give it: $r" grep -qF "fill tps, 4 KB / 2 MB (pg): $r" "$txt"
r=$(ratio "$(fill 4 pg)" "$(fill 4 pg19)")
check "pg / pg19 fill tps at 4 KB as the documents give it: $r" grep -qF "fill tps, pg / pg19 (4 KB): $r" "$txt"

# Faulting holds: counted and pooled over the runs, not averaged.
share=$(jq -rs 'map(select(.tool == "bufbench" and .provenance.page_size_kb == 4 and .config.strategy == "pg")
	| .results.phases[] | select(.name == "fill") | .strategy) |
	100 * (map(.holds_with_fault) | add) / (map(.acquisitions) | add) | . * 100 | round / 100' "$run"/runs/*.json)
check "the finding counts the faulting holds of the fill phase ($share%)" \
	grep -q "$share% of its fill-phase strategy-lock holds took" "$txt"
check "pg19 takes the strategy lock once per pass: no faulting holds in its rows" \
	sh -c "grep -E '^C[0-9]+ +(4 KB|2 MB) +pg19 ' '$txt' | awk '{ if (\$12 != 0) exit 1 }'"

# Charts: one panel per cell, one dashed fill line per run that filled.
svg=$run/timeline-bufbench.svg
check "timeline-bufbench.svg is written and well-formed" sh -c "[ -s '$svg' ] && xmllint --noout '$svg'"
filled=$(jq -s 'map(select(.tool == "bufbench" and .results.fill_state == "in-interval")) | length' "$run"/runs/*.json)
check "...with a fill line for each of the $filled runs that filled" \
	test "$(grep -c 'stroke-dasharray="5,3"' "$svg")" -eq "$filled"
psvg=$run/timeline-pgbench.svg
check "timeline-pgbench.svg shows pg_buffercache's curve and the fill" \
	sh -c "xmllint --noout '$psvg' && grep -q 'stroke=\"#999\"' '$psvg' && grep -q 'stroke-dasharray=\"5,3\"' '$psvg'"
check "report.md links both timelines" \
	sh -c "grep -q 'timeline-bufbench.svg' '$run/report.md' && grep -q 'timeline-pgbench.svg' '$run/report.md'"
check "pgbench: the fill of shared_buffers is reported" grep -q 'shared_buffers filled after' "$txt"

# A pgbench run that never filled shared_buffers says so, with how far it got.
mkdir -p "$tmp/nofill/runs"
for f in "$run"/runs/pgbench-*.json; do
	jq '.results.buffer_fill.time_to_fill_s = null | .results.buffer_fill.used |= map(. / 2 | floor)' \
		"$f" > "$tmp/nofill/runs/${f##*/}"
done
most=$(jq -s 'map(.results.buffer_fill | (.used | max) * 100 / .total_buffers) | max | round' "$tmp"/nofill/runs/*.json)
"$top/build/report" "$tmp/nofill" > /dev/null 2>&1
check "pgbench that never filled: 'did not fill', at most $most% in use" \
	sh -c "tr '\n' ' ' < '$tmp/nofill/report.txt' | tr -s ' ' | grep -q 'did not fill within the runs, at most $most% in use'"

# A run without phases (written before them) gets no fill section.
cp -r "$top/tests/data/run-host" "$tmp/old"
"$top/build/report" "$tmp/old" > /dev/null 2>&1
check "older documents: no fill section, no empty table" sh -c "! grep -q '^Fill phase' '$tmp/old/report.txt'"
tests_done
