#!/bin/sh
# "A wakeup inside a fault" on a real guest run (tests/data/run-wakefault:
# 7.2-lab and 7.2-rseqfault, none, full and lazy, one vCPU, icount shift 0,
# SLICE_EXT_US=50, COSTBENCH=on; docs/measurements/2026-12-06-wake-in-fault-0002.md).
# Each row's counts are recomputed here from the documents' trials (a wake
# inside the fault: 0 <= wake_after_touch_ns < fault_ns), its interval
# with the Wilson formula, and the verdict from the interval; then the
# thread paragraph of a mitigations run quotes the same counts.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_wakefault run-wakefault report
txt=$run/report.txt
check "report_wakefault: build/report exits 0" sh -c "'$top/build/report' '$run' > '$tmp/out' 2>&1"
check "report_wakefault: report.txt and report.md have the section" \
	sh -c "grep -q '^A wakeup inside a fault' '$txt' && grep -q '^## A wakeup inside a fault' '$run/report.md'"
check "report_wakefault: 2 kernels x 3 models x 2 arms, a row each" \
	test "$(grep -cE '^7\.2-(lab|rseqfault) +(none|full|lazy) +(plain|slice requested) ' "$txt")" = 12

# in_fault FILE ARM: "OFF/N", from the trials themselves.
in_fault() {
	jq -r --arg a "$2" '.fault_ns as $f | [.arms[$a].trials[] | select(.wake_after_touch_ns >= 0 and .wake_after_touch_ns < $f)] |
		"\(map(select(.off_cpu_before_release)) | length)/\(length)"' "$1"
}
for k in 7.2-lab 7.2-rseqfault; do
	for m in none full lazy; do
		for a in plain slice_requested; do
			f=$run/logs/wakefault-$k-$m.json
			kn=$(in_fault "$f" $a)
			label=$(echo "$a" | tr _ ' ')
			row=$(grep -E "^$k +$m +$label " "$txt" || true)
			check "report_wakefault: $k $m $label: $kn in the fault, off CPU, $(wilson "${kn%/*}" "${kn#*/}")" \
				sh -c "echo '$row' | grep -q ' $kn ' && echo '$row' | grep -qF '$(wilson "${kn%/*}" "${kn#*/}")'"
		done
	done
done
check "report_wakefault: none with a slice requested is 'released first' (its interval below 10%)" \
	sh -c "grep -E '^7\.2-lab +none +slice requested ' '$txt' | grep -q 'released first\$'"
check "report_wakefault: 7.2-rseqfault full with a slice requested is 'mixed' (its interval spans 10%)" \
	sh -c "grep -E '^7\.2-rseqfault +full +slice requested ' '$txt' | grep -q 'mixed\$'"

# Each kernel/model's provenance, from its document.
d=$run/logs/wakefault-7.2-rseqfault-full.json
prov=$(jq -r '.provenance | "\(.kernel_release), logs/wakefault-7.2-rseqfault-full.json (1 document), \(.virtualization) (icount shift \(.icount_shift)), \(.cpus) CPU, slice_ext_ns \(.slice_ext_ns)"' "$d")
check "report_wakefault: 7.2-rseqfault/full names its release, document, accelerator, CPUs and grant length ($prov)" \
	sh -c "tr '\\n' ' ' < '$txt' | tr -s ' ' | grep -qF '7.2-rseqfault/full: $prov'"

# A fair waker's documents (logs/wakefair-*, costbench --competitor fair):
# rows of their own, ", fair", after the SCHED_FIFO ones.  Made here from
# 7.2-lab/lazy's document with its requested arm's in-fault wakes all
# released first (what a lazy request left to the exit would give).
cp -r "$run" "$tmp/fair"
jq '.competitor = "fair" | .arms.slice_requested.wake_in_fault.off_cpu_before_release = 0 |
    .arms.slice_requested.wake_in_fault.granted = .arms.slice_requested.wake_in_fault.trials' \
	"$run/logs/wakefault-7.2-lab-lazy.json" > "$tmp/fair/logs/wakefair-7.2-lab-lazy.json"
"$top/build/report" "$tmp/fair" > /dev/null 2>&1
ft=$tmp/fair/report.txt
fn=$(jq -r '.arms.slice_requested.wake_in_fault.trials' "$tmp/fair/logs/wakefair-7.2-lab-lazy.json")
check "report_wakefault: a fair waker's document: its two rows, the FIFO rows unchanged" \
	sh -c "[ \$(grep -cE '^7\.2-lab +lazy +(plain|requested), fair ' '$ft') = 2 ] &&
		[ \$(grep -cE '^7\.2-(lab|rseqfault) +(none|full|lazy) +(plain|slice requested) ' '$ft') = 12 ]"
check "report_wakefault: the fair requested row: 0/$fn, released first" \
	sh -c "grep -E '^7\.2-lab +lazy +requested, fair ' '$ft' | grep -q ' 0/$fn .*released first\$'"
check "report_wakefault: the section says what the fair rows are" \
	sh -c "tr '\n' ' ' < '$ft' | tr -s ' ' | grep -qF \"Rows ', fair' (logs/wakefair-*.json)\""
check "report_wakefault: without a fair document the section does not mention one" \
	sh -c "! grep -q 'wakefair' '$txt'"

# The thread paragraph quotes it: a mitigations run with these documents.
cp -r "$top/tests/data/run-mitigations" "$tmp/mit"
cp "$run"/logs/wakefault-*.json "$tmp/mit/logs/"
"$top/build/report" "$tmp/mit" > /dev/null 2>&1 || true
check "report_wakefault: the thread paragraph of a mitigations run quotes the counts" \
	sh -c "tr '\\n' ' ' < '$tmp/mit/report.txt' | tr -s ' ' | grep -q 'A wakeup timed inside a holder.s fault (costbench --wake-in-fault): 7.2-lab none, plain: off CPU before release (65 of 65); 7.2-lab none, slice requested: released first (0 of 78)'"
tests_done
