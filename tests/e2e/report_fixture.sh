#!/bin/sh
# build/report on the recorded fixture run (tests/data/run-fixture): the
# headline and the table agree with the ratio of geometric means computed
# here with jq (the estimator the star tests: Welch on log tps), report.txt fits 80 columns, the regzbot
# suggestion for a drop across two kernels (6.12/none -> 7.0/lazy) is the
# range to bisect, names no commit, and cites the comparison Results prints
# (issue 37: version and build are confounded there), and bad input gets
# clear errors.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_fixture run-fixture report
report=$top/build/report

check "report runs on the fixture" "$report" "$run"
txt=$run/report.txt
check "report.txt and report.md written" test -s "$txt" -a -s "$run/report.md"
check "report.txt within 80 columns" test "$(awk 'length > 80' "$txt" | wc -l)" -eq 0
check "report.txt is ASCII" test "$(LC_ALL=C grep -c '[^ -~]' "$txt")" -eq 0

# geometric-mean tps of a cell, from the documents themselves
gm() {
	jq -s --arg k "$1" --arg m "$2" --argjson p "$3" --argjson c "$4" '
	  map(select(.tool == "bufbench" and .provenance.kernel_label == $k and
	      .provenance.preempt_model == $m and .provenance.page_size_kb == $p and
	      .config.clients == $c) | .results.tps | log) | add / length | exp' \
	  "$run"/runs/*.json
}
b=$(gm 6.12 none 4 4)
n=$(gm 7.0 lazy 4 4)
want=$(awk -v b="$b" -v n="$n" 'BEGIN { printf "%+.1f%%", 100 * (n - b) / b }')
row=$(awk '/-> C[0-9]+ 7.0\/lazy: bufbench select-only, 4 clients, 4 KB/ { f = 1 } f && / tps$/ { print; exit }' "$txt")
case $row in
*"$want*"*) pass "4 KB, 4 clients, 7.0/lazy tps row shows $want with a star" ;;
*) fail "4 KB, 4 clients, 7.0/lazy tps row: want $want*, got: $row" ;;
esac
check "headline names the same change" grep -q "falls ${want#-}" "$txt"
# ... between the two values it is the ratio of, not the medians.
ends=$(awk -v b="$b" -v n="$n" 'BEGIN { printf "geometric means %.0f -> %.0f", b, n }')
check "headline gives the values of that change ($ends)" \
	sh -c "tr '\n' ' ' < '$txt' | tr -s ' ' | grep -q '$ends'"
row=$(awk '/-> C[0-9]+ 7.0\/lazy: bufbench select-only, 4 clients, 2 MB/ { f = 1 } f && / tps$/ { print; exit }' "$txt")
case $row in
*"%*"*) fail "2 MB lazy tps difference is noise (p ~ 0.3) but is starred: $row" ;;
*"%"*) pass "2 MB lazy tps row has no star" ;;
*) fail "2 MB lazy tps row missing" ;;
esac
check "a drop across two kernels suggests the range: #regzbot introduced: v6.12..v7.0" \
	grep -qx '#regzbot introduced: v6.12..v7.0' "$txt"
joined=$(tr '\n' ' ' < "$txt" | tr -s ' ')
check "...names no commit anywhere (version and build are confounded)" \
	sh -c "! grep -q '7dadeaa6e851' '$txt' '$run/report.md' '$run/report.html'"
case $joined in
*"version, build and model change together, so this names no commit; bisect between them (v6.12..v7.0)"*)
	pass "...and says to bisect between them" ;;
*) fail "...no 'bisect between them' in the suggestion" ;;
esac
# The fixture ran under QEMU TCG: the suggestion says an emulator made it.
case $joined in
*"Measured under an emulator (tcg): how much of the drop is the emulator's this run cannot tell; confirm it under KVM or on hardware before sending."*)
	pass "...and that it was measured under an emulator (tcg), to confirm under KVM or on hardware" ;;
*) fail "...no emulator caveat in the suggestion of a TCG run" ;;
esac
check "...in report.md and report.html too" \
	sh -c "grep -q 'bisect between them (v6.12..v7.0)' '$run/report.md' && tr '\\n' ' ' < '$run/report.html' | grep -q 'v6.12..v7.0</code> &mdash; 6.12/none is good and .* bisect between them'"
# The suggestion rests on a comparison the report prints: its cells, its
# change (the same figure as the Results row) and its test.
why=$(sed -n '/^#regzbot introduced:/,$p' "$txt" | tr '\n' ' ' | tr -s ' ')
pair=$(echo "$why" | sed -n 's/.* is bad: Results, \(C[0-9]* 6.12\/[a-z]* -> C[0-9]* 7.0\/[a-z]*\): \(bufbench\|pgbench\) .* \([-+][0-9.]*%\) (p .*/\1|\3/p')
case $pair in
*"|"*) pass "the suggestion cites a Results comparison: ${pair%|*}, ${pair#*|}" ;;
*) fail "the suggestion cites no Results comparison: $why" ;;
esac
cmp=${pair%|*} pct=${pair#*|}
block=$(awk -v h="$cmp:" 'index($0, h) == 1 { f = 1 } f && / tps$/ { print; exit }' "$txt")
case $block in
*" $pct"*) pass "...and Results prints that comparison with the same change ($block)" ;;
*) fail "...Results' row for '$cmp' does not show $pct: '$block'" ;;
esac
check "the environment says emulated (TCG)" grep -q 'emulated (TCG)' "$txt"
check "reproduce command from manifest.json" grep -q 'make bench KERNEL=6.12,7.0' "$txt"
check "provenance line for every cell" test "$(grep -c '^C[0-9]\{1,3\} ' "$txt")" -ge 14

for s in "$run"/*.svg; do
	check "$(basename "$s") is well-formed XML" xmllint --noout "$s"
	check "report.md links $(basename "$s")" grep -q "($(basename "$s"))" "$run/report.md"
done
check "comparison chart: a row per bufbench cell, stars where significant" \
	sh -c "test \$(grep -c '>C[0-9]* [0-9.]*/[a-z]*<' '$run/compare-bufbench.svg') -eq 12 &&
		grep -q 'x \\*<' '$run/compare-bufbench.svg'"
check "the comparison chart is the report's first chart" \
	test "$(grep -m1 -o '([a-z-]*\.svg)' "$run/report.md")" = "(compare-bufbench.svg)"
html=$run/report.html
check "report.html inlines every chart" \
	test "$(grep -c '^<svg ' "$html")" -eq "$(find "$run" -maxdepth 1 -name '*.svg' | wc -l)"
check "report.html is self-contained: no script, nothing fetched" \
	sh -c "! sed 's|xmlns=\"http://www.w3.org/2000/svg\"||' '$html' | grep -Eqi '<script|src=|https?://'"
check "report.html holds the finding, tables and the reproduce command" \
	sh -c "grep -q 'falls ${want#-}' '$html' && grep -q '<table>' '$html' && grep -q 'make bench KERNEL=6.12,7.0' '$html'"
check "no tps-against-clients chart for pgbench's one client count" test ! -e "$run/tps-pgbench.svg"
check "tps chart has a panel per page size" test "$(grep -c '>[0-9]* [KMG]B pages<' "$run/tps-bufbench.svg")" -eq 2

# An explicit baseline: 7.0/full vs 7.0/lazy is not a kernel range (the
# pgbench cells have no 7.0/full and would fall back to 6.12/none).
mkdir -p "$tmp/bb"
cp -r "$run" "$tmp/bb/run"
rm "$tmp/bb/run"/runs/pgbench-*.json
check "report --baseline 7.0/full" "$report" "$tmp/bb/run" --baseline 7.0/full
check "no regzbot line without a kernel change" sh -c "! grep -q '#regzbot' '$tmp/bb/run/report.txt'"
check "C1 is now compared against the 7.0/full baseline" grep -q -- '-> C1 6.12/none' "$tmp/bb/run/report.txt"
if "$report" "$run" --baseline 9.9/none 2> "$tmp/err"; then
	fail "unknown baseline accepted"
else
	check "unknown baseline names the cells there" grep -q 'this run has: 6.12/none' "$tmp/err"
fi

# One repetition: significance cannot be computed, and the report says so.
rm "$run"/runs/pgbench-7.0-lazy-off-s_lock-c8-r[23].json
"$report" "$run" 2>/dev/null
row=$(awk '/-> C[0-9]+ 7.0\/lazy: pgbench/ { f = 1 } f && / tps$/ { print; exit }' "$txt")
case $row in
*"%?"*) pass "single repetition marked not computable" ;;
*) fail "single repetition row: $row" ;;
esac
check "report.md says not computable" grep -q 'not computable (n=3, 1)' "$run/report.md"

# Bad input.
echo '{"tool": "bufbench", "config": ' > "$run/runs/broken.json"
check "a truncated document is skipped, the report still made" sh -c "'$report' '$run' 2> '$tmp/err'"
check "the skipped file is named with the problem" grep -q 'broken.json: line [0-9]* column [0-9]*: .*truncated' "$tmp/err"
mkdir -p "$tmp/empty/runs"
if "$report" "$tmp/empty" 2> "$tmp/err"; then fail "empty run accepted"; else
	check "empty run: one-line error naming make bench" sh -c "test \$(wc -l < '$tmp/err') -eq 1 && grep -q 'make bench' '$tmp/err'"
fi
if "$report" "$tmp/nowhere" 2> "$tmp/err"; then fail "missing directory accepted"; else
	check "missing directory: clear error" grep -q 'no runs/ directory' "$tmp/err"
fi
tests_done
