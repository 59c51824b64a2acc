#!/bin/sh
# "A wakeup from another CPU" on a real guest run (tests/data/run-remotewake:
# 7.2-lab, none, full and lazy, two vCPUs, icount shift 0, COSTBENCH=on;
# docs/measurements/2026-12-07-remote-wake-ipi.md).  Each row's late count
# is recomputed here from the documents' trials, its interval with the
# Wilson formula, the difference from none's with Newcombe's, the
# interrupts per wake from the counts; then the thread paragraph of a
# mitigations run quotes the same counts.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_remotewake run-remotewake report
txt=$run/report.txt
check "report_remotewake: build/report exits 0" sh -c "'$top/build/report' '$run' > '$tmp/out' 2>&1"
check "report_remotewake: report.txt and report.md have the section" \
	sh -c "grep -q '^A wakeup from another CPU' '$txt' && grep -q '^## A wakeup from another CPU' '$run/report.md'"
check "report_remotewake: 3 models x 4 arms, a row each" \
	test "$(grep -cE '^7\.2-lab +(none|full|lazy) +(idle spinner|fair spinner|idle target|waker spins) ' "$txt")" = 12

# late FILE ARM and n_of FILE ARM: the trials whose wakee was asleep
# (the test) over 100 us, and all of them, from the trials themselves.
late() {
	jq -r --arg a "$2" '[.arms[$a].trials[] | select(.asleep != false and .latency_ns > 100000)] | length' "$1"
}
n_of() {
	jq -r --arg a "$2" '[.arms[$a].trials[] | select(.asleep != false)] | length' "$1"
}
newcombe() {
	awk -v k1="$1" -v n1="$2" -v k0="$3" -v n0="$4" '
	function w(k, n, side,   z, p, d, c, h) { z = 1.959964; p = k / n; d = 1 + z * z / n
		c = (p + z * z / (2 * n)) / d; h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
		if (side < 0) return k == 0 ? 0 : c - h; return k == n ? 1 : c + h }
	BEGIN { p1 = k1 / n1; p0 = k0 / n0; e = p1 - p0
		lo = e - sqrt((p1 - w(k1, n1, -1)) ^ 2 + (w(k0, n0, 1) - p0) ^ 2)
		hi = e + sqrt((w(k1, n1, 1) - p1) ^ 2 + (p0 - w(k0, n0, -1)) ^ 2)
		printf "%+.0f [%+.0f, %+.0f]", 100 * e, 100 * lo, 100 * hi }'
}
for m in none full lazy; do
	f=$run/logs/remotewake-7.2-lab-$m.json
	for a in idle_spinner fair_spinner idle_target idle_spinner_waker_spins; do
		k=$(late "$f" $a) n=$(n_of "$f" $a)
		case $a in idle_spinner_waker_spins) label="waker spins" ;; *) label=$(echo "$a" | tr _ ' ') ;; esac
		row=$(grep -E "^7\.2-lab +$m +$label " "$txt" || true)
		check "report_remotewake: $m $label: $k/$n late, $(wilson "$k" "$n")" \
			sh -c "echo '$row' | grep -q ' $k/$n ' && echo '$row' | grep -qF '$(wilson "$k" "$n")'"
		ipis=$(jq -r --arg a $a '.arms[$a] | "\(.target_interrupts.resched / ([.trials[] | select(.asleep != false)] | length) * 100 | round / 100)/\(.target_interrupts.call_function / ([.trials[] | select(.asleep != false)] | length) * 100 | round / 100)"' "$f")
		check "report_remotewake: $m $label: the target's interrupts per wake ($ipis, RES/CAL)" \
			sh -c "echo '$row' | awk '{ for (i = 1; i <= NF; i++) if (\$i ~ /^[0-9.]+\\/[0-9.]+\$/) { split(\$i, x, \"/\"); split(\"$ipis\", y, \"/\"); if (x[1] + 0 == y[1] + 0 && x[2] + 0 == y[2] + 0) ok = 1 } } END { exit !ok }'"
		if [ $m != none ]; then
			f0=$run/logs/remotewake-7.2-lab-none.json
			d=$(newcombe "$k" "$n" "$(late "$f0" $a)" "$(n_of "$f0" $a)")
			check "report_remotewake: $m $label against none: $d points" \
				sh -c "echo '$row' | grep -qF -e '$d points'"
		fi
	done
done
# The mechanism itself, counted: lazy's wakes onto a busy target sent no
# rescheduling interrupt, none's sent about one each.
check "report_remotewake: lazy's busy-target arms took no rescheduling interrupt, none's about one a wake" \
	sh -c "jq -e '[.arms.idle_spinner, .arms.fair_spinner, .arms.idle_spinner_waker_spins] | map(.target_interrupts.resched) | add == 0' '$run/logs/remotewake-7.2-lab-lazy.json' > /dev/null &&
	       jq -e '[.arms.idle_spinner, .arms.fair_spinner] | all(.target_interrupts.resched >= 0.9 * (.trials | length))' '$run/logs/remotewake-7.2-lab-none.json' > /dev/null"

# The traced twin names the senders: each row of the list is its document's.
for m in none lazy; do
	t=$run/logs/ipisenders-7.2-lab-$m.json
	want=$(jq -r '.arms.idle_spinner.interrupt_senders.senders | map(if (.callsite | startswith("queue:")) then "\(.callsite) -> \(.callback) \(.count)" else "\(.callsite) \(.count)" end) | join(", ")' "$t")
	check "report_remotewake: the traced twin's senders for $m's idle spinner ($want)" \
		sh -c "tr '\\n' ' ' < '$txt' | tr -s ' ' | grep -qF -e '7.2-lab/$m idle spinner (30 wakes): $want'"
done
check "report_remotewake: lazy's traced wakes sent no rescheduling interrupt (no wakeup_preempt sender), none's one a wake" \
	sh -c "! grep -q wakeup_preempt '$run/logs/ipisenders-7.2-lab-lazy.json' &&
	       jq -e '.arms.idle_spinner.interrupt_senders.senders | map(select(.callsite == \"wakeup_preempt\")) | .[0].count == 30' '$run/logs/ipisenders-7.2-lab-none.json' > /dev/null"

d=$run/logs/remotewake-7.2-lab-lazy.json
prov=$(jq -r '"\(.provenance.kernel_release), logs/remotewake-7.2-lab-lazy.json (1 document), \(.provenance.virtualization) (icount shift \(.provenance.icount_shift)), \(.provenance.cpus) CPUs, HZ \(.provenance.kernel_hz), HRTICK \(.sched_hrtick // "?"), CPUs share a last-level cache: \(.llc_shared)"' "$d")
check "report_remotewake: 7.2-lab/lazy names its release, document, accelerator, CPUs, HZ, HRTICK and cache sharing ($prov)" \
	sh -c "tr '\\n' ' ' < '$txt' | tr -s ' ' | grep -qF '7.2-lab/lazy: $prov'"

# The thread paragraph quotes it: a mitigations run with these documents.
cp -r "$top/tests/data/run-mitigations" "$tmp/mit"
cp "$run"/logs/remotewake-*.json "$tmp/mit/logs/"
"$top/build/report" "$tmp/mit" > /dev/null 2>&1 || true
f=$run/logs/remotewake-7.2-lab-lazy.json f0=$run/logs/remotewake-7.2-lab-none.json
k=$(late "$f" idle_spinner) k0=$(late "$f0" idle_spinner)
tr '\n' ' ' < "$tmp/mit/report.txt" | tr -s ' ' > "$tmp/mit/flat.txt"
check "report_remotewake: the thread paragraph of a mitigations run quotes the test" \
	grep -qF 'A wakeup from another CPU onto a CPU spinning in user space (costbench --remote-wake, idle spinner, late over 100 us): 7.2-lab full (HRTICK on),' "$tmp/mit/flat.txt"
check "report_remotewake: ... with lazy's idle-spinner count against none's ($k and $k0 of 100)" \
	grep -qF "7.2-lab lazy (HRTICK on), $k of 100 late against none's $k0 of 100" "$tmp/mit/flat.txt"
tests_done
