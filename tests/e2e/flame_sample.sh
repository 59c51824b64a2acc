#!/bin/sh
# The stack folder against a recorded `perf script` of build/bufbench
# (tests/data/perf-script-bufbench.txt), the flame graph renderer's SVG
# (xmllint, one frame per folded tree node), a differential graph through
# make flamegraph's script, and, where perf works, a live profile.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
sample=$top/tests/data/perf-script-bufbench.txt
for b in stackfold flamegraph report; do
	[ -x "$top/build/$b" ] || { fail "flame_sample: build/$b missing (make first)"; exit 1; }
done
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

"$top/build/stackfold" -q "$sample" > "$tmp/s.folded"
check "folding the recorded sample gives the checked-in folded file" \
	cmp "$tmp/s.folded" "$top/tests/data/perf-script-bufbench.folded"
samples=$(grep -c '^[^[:space:]#]' "$sample")
got=$(awk '{ s += $NF } END { print s }' "$tmp/s.folded")
check "every sample counted once ($samples)" test "$got" -eq "$samples"
# Frame count of the first sample, from the text: frame lines + the comm.
first=$(awk 'NR > 1 && /^$/ { exit } NR > 1 { n++ } END { print n + 1 }' "$sample")
check "stacks keep every frame (first sample: $first)" \
	test "$(awk -F';' -v n="$first" 'NF == n' "$tmp/s.folded" | wc -l)" -ge 1
check "kernel frames are marked _[k]" grep -q 'exc_page_fault_\[k\]' "$tmp/s.folded"
check "root frame is the process name" test "$(cut -d';' -f1 "$tmp/s.folded" | sort -u)" = bufbench

"$top/build/flamegraph" --minwidth 0 --title "sample" "$tmp/s.folded" > "$tmp/s.svg" 2>/dev/null
check "flame graph is well-formed XML" xmllint --noout "$tmp/s.svg"
nodes=$(awk '{ $NF = ""; sub(/ $/, ""); n = split($0, a, ";"); p = "";
	for (i = 1; i <= n; i++) { p = p ";" a[i]; seen[p] = 1 } } END { print length(seen) + 1 }' "$tmp/s.folded")
check "one frame per folded tree node ($nodes)" test "$(grep -c 'class="frame"' "$tmp/s.svg")" -eq "$nodes"
check "no script in the SVG" sh -c "! grep -qi '<script' '$tmp/s.svg'"
check "tooltips carry counts" grep -q '<title>all ('"$samples"' samples, 100.00%)</title>' "$tmp/s.svg"

# Differential: one cell of the fixture gets the sample, the other the
# sample plus extra page-fault time.
cp -r "$top/tests/data/run-fixture" "$tmp/run"
mkdir -p "$tmp/run/perf"
for r in 1 2 3; do
	cp "$tmp/s.folded" "$tmp/run/perf/bufbench-6.12-none-4k-tas-c4-r$r.folded"
	{ cat "$tmp/s.folded"; echo "bufbench;main;s_lock;asm_exc_page_fault_[k] 200"; } \
		> "$tmp/run/perf/bufbench-7.0-lazy-4k-tas-c4-r$r.folded"
done
out=$(DIFF=6.12/none/4k,7.0/lazy/4k sh "$top/scripts/flamegraph.sh" "$tmp/run" 2>/dev/null)
d=$tmp/run/flame-diff-6.12_none_4k-vs-7.0_lazy_4k.svg
check "make flamegraph DIFF=A,B writes the differential" test -s "$d"
check "differential is well-formed XML" xmllint --noout "$d"
check "the added frames are red" grep -q 's_lock (before 0 samples, 0.00%; after 600 samples.*fill="rgb(255,0,0)"' "$d"
case $out in *flame-C*-bufbench-7.0-lazy-4096k*|*flame-C*) pass "per-cell flame graphs listed" ;; *) fail "per-cell flame graphs: $out" ;; esac
check "report.txt lists s_lock first in the lazy cell's top symbols" \
	sh -c "awk '/^C6 7.0\\/lazy/ { f = 1 } f && /symbol\$/ { getline; print; exit }' '$tmp/run/report.txt' | grep -q 's_lock'"
check "report.txt links the headline differential" grep -q 'flame-diff-C4-C6.svg' "$tmp/run/report.txt"
check "report.txt still within 80 columns" test "$(awk 'length > 80' "$tmp/run/report.txt" | wc -l)" -eq 0
if DIFF=9.9/none,7.0/lazy sh "$top/scripts/flamegraph.sh" "$tmp/run" 2> "$tmp/err" >/dev/null; then
	fail "DIFF with an unknown cell accepted"
else
	check "DIFF with an unknown cell names the profiles there" grep -q "no profile matches '9.9/none'" "$tmp/err"
fi

# Live: profile a short bufbench run where perf works.
. "$top/scripts/common.sh"
. "$top/scripts/report-lib.sh"
why=$(perf_unusable)
if [ -n "$why" ]; then
	skip "live profile: $why"
elif [ ! -x "$top/build/bufbench" ]; then
	skip "live profile: build/bufbench not built yet"
else
	mkdir -p "$tmp/live/runs"
	PROFILE=on sh "$top/scripts/profile.sh" "$tmp/live/perf/bufbench-host-x-4k-tas-c2-r1" -- \
		"$top/build/bufbench" --clients 2 --duration 1 --pool 32M \
		--json "$tmp/live/runs/bufbench-host-x-4k-tas-c2-r1.json" 2>/dev/null
	f=$tmp/live/perf/bufbench-host-x-4k-tas-c2-r1.folded
	check "PROFILE=on folds a live bufbench profile" test -s "$f"
	check "live profile reaches bench_client" grep -q 'bench_client' "$f"
	check "perf.data removed after folding" test ! -e "${f%.folded}.perf.data"
fi
tests_done
