#!/bin/sh
# A model comparison on one kernel (7.2-lab: none, full and lazy in one
# PREEMPT_DYNAMIC build), made from the fixture run by giving every cell
# the same kernel and release and the plan's baseline 7.2-lab/none: the
# summary compares with 7.2-lab/none, the headline says only the model
# differs and the kernel-and-model caveat is gone, the regzbot line names
# 7dadeaa6e851, and rseq cells get their table of grants, yields and
# revocations with the kernel's own count beside bufbench's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_same_kernel run-fixture report

# One kernel for every cell; the 2 MB cells become rseq cells with counts.
for f in "$run"/runs/bufbench-*.json; do
	jq '.provenance.kernel_label = "7.2-lab" | .provenance.kernel_release = "7.2.13-lab" |
	    if .provenance.page_size_kb == 2048 then
	      .provenance.lock = "rseq" | .config.lock = "rseq" | .provenance.slice_ext_ns = 50000 |
	      .locks.strategy.rseq_grants = 40 | .locks.strategy.rseq_yields = 31 |
	      .locks.strategy.rseq_revoked = 9 |
	      .results.kernel_rseq = {granted: 41, expired: 9, revoked: 0, yielded: 31, aborted: 0}
	    else . end' "$f" > "$f.new"
	mv "$f.new" "$f"
done
rm -f "$run"/runs/pgbench-*.json
jq '.plan.settings.baseline_variant = "7.2-lab/none" | .plan.settings.baseline_same_kernel = true |
    .plan.settings.baseline = null' "$run/manifest.json" > "$run/m.json"
mv "$run/m.json" "$run/manifest.json"

check "report runs on a one-kernel run" "$top/build/report" "$run"
txt=$run/report.txt sum=$run/summary.txt
check "the summary compares with 7.2-lab/none" grep -q '^compared with: 7.2-lab/none' "$sum"
check "the baseline rows come first, at 1.000x" \
	sh -c "grep -m1 '^7.2-lab .* none ' '$sum' | grep -q '1.000x\$'"
# Wrapped text: read as one line, so where the wrap falls does not matter.
check "the headline says only the model differs" \
	sh -c "tr '\\n' ' ' < '$txt' | tr -s ' ' | grep -q 'Same kernel (7.2-lab, release 7.2.13-lab): only the preemption model'"
check "no caveat about kernel and model changing together" \
	sh -c "! grep -q 'differs in kernel' '$txt'"
check "the regzbot line names 7dadeaa6e851 on one kernel" grep -qx '#regzbot introduced: 7dadeaa6e851' "$txt"
check "...resting on a one-kernel none -> lazy comparison that Results prints" \
	sh -c "sed -n '/^#regzbot introduced:/,\$p' '$txt' | tr '\\n' ' ' | tr -s ' ' |
		grep -q 'is bad: Results, C[0-9]* 7.2-lab/none -> C[0-9]* 7.2-lab/lazy: bufbench .* tps .*%.*runs)\. Only the model differs'"
check "the summary has an rseq table" grep -q '^rseq slice extension per cell' "$sum"
# 3 runs per cell: 120 granted, 93 yielded, 27 revoked; kernel 123/27.
row=$(awk '/^rseq slice extension/ { f = 1 } f && /^7.2-lab +lazy +(2m|on|try)/ { print; exit }' "$sum")
case $row in
*" 120 "*" 93 "*" 27 "*"123/27 "*"50us"*) pass "rseq row: grants, yields, revoked summed, kernel's count, 50 us ($row)" ;;
*) fail "rseq row: want 120 93 27 123/27 50us, got: '$row'"; cat "$sum" ;;
esac
check "the rseq table lists only rseq cells" \
	test "$(awk '/^rseq slice extension/ { f = 1; next } f && /^7.2-lab/' "$sum" | wc -l)" -eq 6
tests_done
