#!/bin/sh
# A 20,000-frame stack (runaway recursion, a corrupt unwind) through every
# tool that reads profiles (issue 15, defect 5): build/flamegraph and
# build/report crashed on it (SIGSEGV from recursion) and no report.txt was
# written.  Now the graph is cut at 512 frames with a "[truncated]" frame,
# and stackfold keeps the whole stack in its folded output.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run flame_deep run-fixture report stackfold flamegraph

awk 'BEGIN { for (i = 0; i < 20000; i++) printf "f%d;", i; print "leaf 5"; print "f0;g 1" }' > "$tmp/deep.folded"
check "flamegraph renders a 20,000-frame stack" sh -c "'$top/build/flamegraph' '$tmp/deep.folded' > '$tmp/deep.svg' 2>/dev/null"
check "its graph ends in a [truncated] frame" grep -q '<title>\[truncated\]' "$tmp/deep.svg"
if command -v xmllint >/dev/null; then
	check "its SVG is well-formed" xmllint --noout "$tmp/deep.svg"
fi
check "flamegraph --diff of two deep profiles" \
	sh -c "'$top/build/flamegraph' --diff '$tmp/deep.folded' '$tmp/deep.folded' > '$tmp/diff.svg' 2>/dev/null"

# The report of a run whose profiles are that deep: the headline pair
# (C4 against C6) gets both a flame graph each and the differential.
mkdir -p "$run/perf"
for r in 1 2 3; do
	cp "$tmp/deep.folded" "$run/perf/bufbench-6.12-none-4k-tas-c4-r$r.folded"
	cp "$tmp/deep.folded" "$run/perf/bufbench-7.0-lazy-4k-tas-c4-r$r.folded"
done
check "build/report on deep profiles exits 0" sh -c "'$top/build/report' '$run' > '$tmp/report.out' 2>&1"
check "and writes report.txt" test -s "$run/report.txt"
check "with the profiles' top symbols" grep -q '^Profiles' "$run/report.txt"
check "and the differential flame graph" test -s "$run/flame-diff-C4-C6.svg"

# stackfold: a perf script sample of 20,000 frames folds whole.
awk 'BEGIN { print "deep 1 [000] 1.000000: 1 cpu-clock: "
	for (i = 0; i < 20000; i++) printf "\t%x f%d+0x1 (/x/deep)\n", i + 4096, i
	print "" }' > "$tmp/deep.perf.txt"
check "stackfold folds a 20,000-frame sample" sh -c "'$top/build/stackfold' -q '$tmp/deep.perf.txt' > '$tmp/fold.out'"
check "keeping every frame" test "$(tr ';' '\n' < "$tmp/fold.out" | wc -l)" -eq 20001
tests_done
