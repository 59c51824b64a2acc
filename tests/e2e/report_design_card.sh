#!/bin/sh
# The design card's run, `make bench KERNEL=7.0 HUGEPAGES=on`, as the lab
# now plans it (tests/data/run-design-card: bufbench on 2 MB pages in
# 6.12/none, 6.12/full, 7.0/full and 7.0/lazy guests, 3 runs each, icount):
# the Finding opens with what HUGEPAGES=on means, and with the baseline's
# full beside its none the kernel-and-model confound is split into the
# model's part and the version's part, each with its own test.  Without
# 6.12/full the split is gone and the report suggests BASELINE_MODELS.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_design_card run-design-card report

"$top/build/report" "$run" > /dev/null 2>&1 || fail "report_design_card: build/report failed"
# The Finding's first paragraph, joined into one line.
first=$(awk '/^Finding$/ { f = 1; next } f && /^-+$/ { next } f && NF == 0 && p { exit } f && NF { p = p " " $0 } END { print p }' "$run/report.txt")
case $first in
" HUGEPAGES=on: every bufbench cell ran on 2 MB pages, the cure the report names"*)
	pass "report_design_card: the Finding opens with what HUGEPAGES=on means" ;;
*) fail "report_design_card: the Finding's first paragraph is: $first" ;;
esac
check "report_design_card: ... and names the 4 KB comparison (HUGEPAGES=compare)" \
	sh -c "tr '\\n' ' ' < '$run/report.txt' | tr -s ' ' | grep -q 'which HUGEPAGES=compare (the default) or HUGEPAGES=off measures'"
check "report_design_card: report.md opens its Finding the same way" \
	grep -q '^HUGEPAGES=on: every bufbench cell ran on 2 MB pages' "$run/report.md"
joined=$(tr '\n' ' ' < "$run/report.txt" | tr -s ' ')
case $joined in
*"Apart: the model alone, on 6.12, 6.12/none -> 6.12/full: "*"the kernel version alone, at full, 6.12/full -> 7.0/full: "*)
	pass "report_design_card: the change is split into the model's and the version's parts" ;;
*) fail "report_design_card: no model/version split in the caveats" ;;
esac
case $joined in
*"BASELINE_MODELS=none,full also runs"*) fail "report_design_card: suggests BASELINE_MODELS although 6.12/full ran" ;;
*) pass "report_design_card: no BASELINE_MODELS suggestion when 6.12/full ran" ;;
esac

# Without 6.12/full: the old suggestion, and no split.
rm -f "$run"/runs/bufbench-6.12-full-*.json
"$top/build/report" "$run" > /dev/null 2>&1 || fail "report_design_card: build/report failed without 6.12/full"
joined=$(tr '\n' ' ' < "$run/report.txt" | tr -s ' ')
case $joined in
*"Apart: the model alone"*) fail "report_design_card: a split without 6.12/full" ;;
*"BASELINE_MODELS=none,full also runs 6.12/full"*) pass "report_design_card: without 6.12/full the report suggests BASELINE_MODELS=none,full" ;;
*) fail "report_design_card: without 6.12/full, neither split nor suggestion" ;;
esac

# A 4 KB run is not told that huge pages were the cure.
for f in "$run"/runs/bufbench-*.json; do
	jq '.provenance.page_size_kb = 4 | .provenance.pages = "4k" | .config.pages = "4k"' "$f" > "$f.new" && mv "$f.new" "$f"
done
jq '.plan.settings.hugepages = "off"' "$run/manifest.json" > "$run/m.json" && mv "$run/m.json" "$run/manifest.json"
"$top/build/report" "$run" > /dev/null 2>&1 || fail "report_design_card: build/report failed on 4 KB"
if grep -q 'HUGEPAGES=on: every bufbench cell' "$run/report.txt"; then
	fail "report_design_card: the HUGEPAGES=on sentence on a 4 KB run"
else
	pass "report_design_card: no HUGEPAGES=on sentence on a 4 KB run"
fi
tests_done
