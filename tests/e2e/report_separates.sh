#!/bin/sh
# "What separates the models" (issue 36) on a real guest run with the
# census (tests/data/run-census: 7.0 full and lazy under icount,
# EVIDENCE=on, values as written).  Every expected number is computed here
# from the documents with jq and awk: q_M by route pooled over the runs
# with Wilson's interval, Katz's risk ratio, the census's T_tail against
# bufbench's own, the fill loss and its shares; the sentence follows the
# intervals.  report.html carries the same section from the same numbers:
# its route table's rows, risk ratio, sentence, census tables and fill
# loss are report.txt's.  With one model's documents only, or with no
# census, the section is not written, in any of the three.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_separates run-census report
txt=$run/report.txt
md=$run/report.md
html=$run/report.html
check "build/report exits 0" sh -c "'$top/build/report' '$run' > '$tmp/out' 2>&1"
check "report.txt has What separates the models" grep -q "^What separates the models" "$txt"
check "report.md has ## What separates the models" grep -q "^## What separates the models" "$md"
check "report.html has <h2>What separates the models</h2>" grep -qx "<h2>What separates the models</h2>" "$html"

# The fill phase's evidence of one model, pooled: FIELD summed over its runs.
sum() { jq -s "[.[] | .evidence.phases[] | select(.name == \"fill\") | .$2] | add" "$run"/runs/bufbench-7.0-"$1"-*.json; }
for m in full lazy; do
	n=$(sum $m holds_with_fault)
	for route in any in_fault fault_exit blocked_in_fault other; do
		if [ $route = any ]; then k=$(sum $m q_m.k); label='any (q_M)'; else k=$(sum $m "q_m.$route"); label=$(echo $route | sed 's/_/ /g; s/fault exit/at fault exit/'); fi
		want=$(awk -v k="$k" -v n="$n" 'BEGIN { z = 1.959963984540054; p = k / n; c = (p + z*z/(2*n)) / (1 + z*z/n);
			h = z / (1 + z*z/n) * sqrt(p*(1-p)/n + z*z/(4*n*n)); lo = k == 0 ? 0 : c - h; hi = k == n ? 1 : c + h;
			printf "%.0f of %.0f (%.2f%%, %.2f-%.2f%%)", k, n, 100*p, 100*lo, 100*hi }')
		check "$m, $label: $want" sh -c "grep '^C[0-9]*  *7\.0/$m  *$label ' '$txt' | grep -qF '$want'"
		check "report.html: $m, $label: $want" \
			grep -qF "<td>7.0/$m</td><td>$label</td><td>$want</td>" "$html"
	done
done

# Katz's risk ratio of lazy's q_M against full's (the least preemptible here).
kl=$(sum lazy q_m.k) nl=$(sum lazy holds_with_fault) kf=$(sum full q_m.k) nf=$(sum full holds_with_fault)
rr=$(awk -v a="$kl" -v n1="$nl" -v b="$kf" -v n0="$nf" 'BEGIN {
	if (a == 0 && b == 0) { print "no switch in either"; exit }
	c = ""; if (a == 0 || b == 0 || a == n1 || b == n0) { a += .5; b += .5; n1 += 1; n0 += 1; c = "*" }
	l = log((a/n1)/(b/n0)); s = sqrt(1/a - 1/n1 + 1/b - 1/n0); z = 1.959963984540054
	printf "%.2f [%.2f, %.2f]%s", exp(l), exp(l - z*s), exp(l + z*s), c }')
check "lazy against full, q_M risk ratio: $rr" sh -c "grep '^C[0-9]*  *7\.0/lazy  *any (q_M) ' '$txt' | grep -qF '$rr'"
check "report.html: lazy against full, q_M risk ratio: $rr" \
	grep -qF "<td>7.0/lazy</td><td>any (q_M)</td><td>$(sum lazy q_m.k) of $nl (" "$html"
check "report.html: the same risk ratio in lazy's q_M row" \
	sh -c "grep -F '<td>7.0/lazy</td><td>any (q_M)</td>' '$html' | grep -qF '<td>$rr</td>'"
res=$(awk -v r="$rr" 'BEGIN { if (r ~ /^no/) { print 0; exit } split(r, a, /[][, ]+/); print (a[2] > 1 || a[3] < 1) }')
if [ "$res" = 1 ]; then
	check "the sentence names the difference" grep -q "The models differ in holder descheduling" "$txt"
else
	check "no route resolved q_M: the sentence says no channel resolved a difference" \
		grep -q "No channel resolved a difference in holder descheduling against 7.0/full" "$txt"
fi
# The sentence, word for word, in report.txt (wrapped) and in report.html (escaped).
sent=$(awk '/^(The models differ|No channel resolved)/ { p = 1 } p { printf "%s%s", (n++ ? " " : ""), $0 } p && /\.$/ { exit }' "$txt")
check "report.html: report.txt's sentence, in bold" \
	grep -qF "<p><strong>$(printf '%s' "$sent" | sed "s/'/\&#39;/g")</strong></p>" "$html"
# The census tables: report.txt's numbers, in cells.
for m in full lazy; do
	lock=$(grep -o "7\.0/$m: lock time [0-9.]* ms" "$txt" | head -n1 | sed 's/.*lock time \([0-9.]*\) ms/\1/')
	check "report.html: the freeze table has $m's lock time ($lock ms)" \
		grep -qF "<td>7.0/$m</td><td>$lock</td>" "$html"
	folios=$(grep -A3 "7\.0/$m: D-state switches" "$txt" | tr '\n' ' ' | sed 's/  */ /g' | sed -n 's/.*Contended folios: \([^.]*\.[0-9]* \/ [0-9.]* ms\).*/\1/p')
	check "report.html: the channel table has $m's contended folios ($folios)" \
		sh -c "[ -n '$folios' ] && grep -F '<td>7.0/$m</td>' '$html' | grep -qF '<td>$folios</td>'"
done

# The census's T_tail is bufbench's own, gap for gap, in every document.
for d in "$run"/runs/*.json; do
	# shellcheck disable=SC2016 # jq's own variables
	check "$(basename "$d"): the census's T_tail gaps and ns are results.phases' t_tail" \
		jqt "$d" '([.results.phases[] | select(.name == "fill") | .t_tail][0]) as $t |
		  ([.evidence.phases[] | select(.name == "fill") | .census.tail_by_acquirer][0]) as $c |
		  $c.gaps == $t.count and (($c.ns / 1e6) - $t.total_ms | fabs) < 0.001 and
		  ([$c | to_entries[] | select(.value | type == "object" and has("n")) | .value.ns] | add) == $c.ns'
done

# The fill loss and its shares, per run, lazy minus full.
fill() { jq -s '[.[] | .results.phases[] | select(.name == "fill") | .duration_s] | add / length' "$run"/runs/bufbench-7.0-"$1"-*.json; }
line=$(awk '/against C[0-9]* 7\.0\/full: fill/ { p = 1 } p { printf "%s ", $0 } /unexplained/ { p = 0 }' "$txt")
loss=$(awk -v a="$(fill lazy)" -v b="$(fill full)" 'BEGIN { printf "%+.1f ms", (a - b) * 1e3 }')
echo "$line" > "$tmp/loss"
want="$(fill lazy | awk '{ printf "%.3f", $1 }') s a run against $(fill full | awk '{ printf "%.3f", $1 }') s, $loss"
check "the fill loss of lazy against full: $want" grep -qF -- "$want" "$tmp/loss"
check "report.html: the fill loss of lazy against full: $want" grep -qF -- "$want" "$html"
ms() { echo "$line" | sed -n "s/.* $1 \([-+][0-9.]*\) ms.*/\1/p"; }
check "scheduler + backoff + frozen + unexplained = the loss" \
	awk -v l="$(echo "$loss" | cut -d' ' -f1)" -v a="$(ms scheduler)" -v b="$(ms backoff)" -v c="$(ms 'frozen vCPU')" -v d="$(ms unexplained)" \
	'BEGIN { exit !(a != "" && d != "" && (a + b + c + d - l < 0.25 && l - a - b - c - d < 0.25)) }'

# One model only: no section.
one=$tmp/one
mkdir -p "$one/runs"
cp "$run"/runs/bufbench-7.0-full-*.json "$one/runs/"
"$top/build/report" "$one" > /dev/null 2>&1 || true
check "one model's documents: no What separates the models" \
	sh -c "[ -s '$one/report.txt' ] && ! grep -q 'What separates the models' '$one/report.txt' '$one/report.md' '$one/report.html'"
# Two models without the census (documents from before issue 36): none either.
old=$tmp/old
mkdir -p "$old/runs"
for d in "$run"/runs/*.json; do
	jq 'del(.evidence.phases[].census)' "$d" > "$old/runs/$(basename "$d")"
done
"$top/build/report" "$old" > /dev/null 2>&1 || true
check "two models without a census: no What separates the models" \
	sh -c "[ -s '$old/report.txt' ] && ! grep -q 'What separates the models' '$old/report.txt' '$old/report.md' '$old/report.html'"
tests_done
