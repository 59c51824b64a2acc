#!/bin/sh
# "A page read inside a fault: the folio channel" on a real guest run
# (tests/data/run-wakefolio: 6.12 none and full, 7.0 full and lazy, one
# vCPU, icount shift 0, COSTBENCH=on; docs/measurements/2026-12-07-folio-channel.md).
# Each row's counts are recomputed here from the documents' trials (a wake
# inside the fault: 0 <= wake_after_touch_ns < fault_ns; slept:
# competitor_blocked), its interval with the Wilson formula; the traced
# rows from the census in the document; then the thread paragraph of a
# mitigations run quotes the same counts.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_wakefolio run-wakefolio report
txt=$run/report.txt
check "report_wakefolio: build/report exits 0" sh -c "'$top/build/report' '$run' > '$tmp/out' 2>&1"
check "report_wakefolio: report.txt and report.md have the section" \
	sh -c "grep -q '^A page read inside a fault: the folio channel' '$txt' &&
		grep -q '^## A page read inside a fault: the folio channel' '$run/report.md'"
check "report_wakefolio: 4 kernel/models x 4 readers, a row each" \
	test "$(grep -cE '^(6\.12|7\.0) +(none|full|lazy) +(RT|fair|RT, map|RT, traced) +[0-9]' "$txt")" = 16

# slept FILE: "SLEPT/N" of the plain arm's wakes inside the fault, from the trials.
slept() {
	jq -r '.fault_ns as $f | [.arms.plain.trials[] | select(.wake_after_touch_ns >= 0 and .wake_after_touch_ns < $f)] |
		"\(map(select(.competitor_blocked)) | length)/\(length)"' "$1"
}
# controls FILE: "SLEPT/N" of the wakes before the touch and after the fault.
controls() {
	jq -r '.fault_ns as $f | [.arms.plain.trials[] | select(.wake_after_touch_ns < 0 or .wake_after_touch_ns >= $f)] |
		"\(map(select(.competitor_blocked)) | length)/\(length)"' "$1"
}
for km in 6.12-none 6.12-full 7.0-full 7.0-lazy; do
	k=${km%-*} m=${km#*-}
	for pr in "wakefolio:RT" "wakefoliofair:fair" "wakefoliomap:RT, map" "wakefoliotrace:RT, traced"; do
		f=$run/logs/${pr%%:*}-$km.json label=${pr#*:}
		kn=$(slept "$f") ctl=$(controls "$f")
		row=$(grep -E "^$k +$m +$label +[0-9]" "$txt" || true)
		says="slept on the holder's folio"
		[ "${kn%/*}" != 0 ] || says="never slept"
		check "report_wakefolio: $k $m $label: $kn slept $(wilson "${kn%/*}" "${kn#*/}"), controls $ctl, $says" \
			sh -c "echo \"\$1\" | grep -q ' $kn ' && echo \"\$1\" | grep -qF '$(wilson "${kn%/*}" "${kn#*/}")' &&
				echo \"\$1\" | grep -q ' $ctl ' && echo \"\$1\" | grep -qF \"$says\"" _ "$row"
	done
done
check "report_wakefolio: none never slept, with either reader" \
	test "$(grep -cE "^6\.12 +none +(RT|fair) +.*never slept" "$txt")" = 2
check "report_wakefolio: a page the fault only maps: the reader slept less often than on one it allocates (7.0 full)" \
	sh -c "[ \$(grep -E '^7\.0 +full +RT, map ' '$txt' | awk '{ print \$7 }' | tr -d %) -lt \$(grep -E '^7\.0 +full +RT +[0-9]' '$txt' | awk '{ print \$6 }' | tr -d %) ]"
check "report_wakefolio: lazy's fair reader never slept, its RT reader did" \
	sh -c "grep -E '^7\.0 +lazy +fair ' '$txt' | grep -q 'never slept' &&
		grep -E '^7\.0 +lazy +RT +[0-9]' '$txt' | grep -q 'slept on the holder'"

# The traced twin's census row: waits, joined, holder preempted, from the document.
for km in 6.12-none 6.12-full 7.0-full 7.0-lazy; do
	k=${km%-*} m=${km#*-} f=$run/logs/wakefoliotrace-$km.json
	want=$(jq -r '.trace.census.folios | "\(.waits) \(.joined) \(.holder_preempted)"' "$f")
	got=$(sed -n '/^The traced twin/,/^$/!p' "$txt" | grep -E "^$k +$m +[0-9]+/[0-9]+ " | awk '{ print $4, $5, $6 }' | head -n1)
	check "report_wakefolio: $k $m traced: waits, joined, preempted $want" test "$got" = "$want"
done
check "report_wakefolio: every traced sleep a folio wait joined to a preempted holder (7.0 full)" \
	test "$(jq -r '[(.arms.plain.wake_in_fault.competitor_blocked + .arms.plain.wake_before_touch.competitor_blocked + .arms.plain.wake_after_fault.competitor_blocked), .trace.census.folios.joined, .trace.census.folios.holder_preempted] | unique | length' "$run/logs/wakefoliotrace-7.0-full.json")" = 1

# The thread paragraph quotes it: a mitigations run with these documents.
cp -r "$top/tests/data/run-mitigations" "$tmp/mit"
cp "$run"/logs/wakefolio*.json "$tmp/mit/logs/"
"$top/build/report" "$tmp/mit" > /dev/null 2>&1 || true
n612=$(slept "$run/logs/wakefolio-6.12-none.json")
check "report_wakefolio: the thread paragraph of a mitigations run quotes the counts" \
	sh -c "tr '\\n' ' ' < '$tmp/mit/report.txt' | tr -s ' ' | grep -qF 'A read of the holder'\"'\"'s page timed inside its fault (costbench --contend-page): 6.12 none, RT reader: never slept (<= 6%) (${n612%/*} of ${n612#*/})'"
check "report_wakefolio: the paragraph leaves the traced twin out" \
	sh -c "! tr '\\n' ' ' < '$tmp/mit/report.txt' | grep -q 'RT, traced reader'"
tests_done
