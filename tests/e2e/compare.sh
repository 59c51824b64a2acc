#!/bin/sh
# make compare: one report over several run directories.  First over the
# fixture run from one machine and a second machine's copy of it (host
# name, CPU count, lab revision and throughput changed, as another machine
# would give them); then over two real short host runs, one machine twice.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run compare run-host compare plan bufbench
unset BASELINE OUT RUNS KERNEL MODELS HUGEPAGES 2>/dev/null || true

# A second machine: the same cells, half the throughput, 96 CPUs.
cp -r "$run" "$tmp/big"
for f in "$tmp"/big/runs/*.json; do
	jq '.provenance.hostname = "bigbox" | .provenance.cpus = 96 |
	    .provenance.lab_revision = "v2" | .results.tps /= 2' "$f" > "$f.new"
	mv "$f.new" "$f"
done
jq '.lab_revision = "v2"' "$tmp/big/manifest.json" > "$tmp/m" && mv "$tmp/m" "$tmp/big/manifest.json"

# has FILE TEXT: TEXT is in FILE, its lines wrapped or not.
has() { tr '\n' ' ' < "$1" | tr -s ' ' | grep -q -- "$2"; }
out=$tmp/cmp
rc=0; make -s -C "$top" compare RUNS="$run $tmp/big" OUT="$out" > "$tmp/out" 2>&1 || rc=$?
check "compare: two machines' fixture runs compared (rc $rc)" test "$rc" = 0
[ "$rc" = 0 ] || cat "$tmp/out"
txt=$out/report.txt
check "compare: report.txt, report.md and summary.txt written" test -s "$txt" -a -s "$out/report.md" -a -s "$out/summary.txt"
check "compare: with SVG charts" test "$(find "$out" -name '*.svg' | wc -l)" -ge 1
check "compare: columns are named kernel/model/host" \
	grep -q '^C1 6.18.44-fc-v1098/unknown/vm -> C2 6.18.44-fc-v1098/unknown/bigbox: bufbench' "$txt"
line=$(awk '/^C1 .*-> C2 /{f=1} f && / tps$/ {print; exit}' "$txt")
case $line in
*"-50.0%*"*) pass "compare: the matched cells' tps fell by half, significantly ($line)" ;;
*) fail "compare: the matched cells' tps fell by half, significantly ($line)" ;;
esac
check "compare: the machines that differ are named" has "$txt" 'Machines differ between the runs: vm (vm); bigbox'
check "compare: and their CPU counts" has "$txt" 'CPU counts differ between the runs: 2 (vm); 96 (bigbox)'
check "compare: and their lab revisions" has "$txt" 'Lab revisions differ between the runs: fixture (vm); v2'
check "compare: report.md lists both runs" test "$(grep -c -e '^| vm |' -e '^| bigbox |' "$out/report.md")" = 2

rc=0; make -s -C "$top" compare RUNS="$run $tmp/big" BASELINE="$tmp/big" OUT="$tmp/cmp2" > "$tmp/out" 2>&1 || rc=$?
check "compare: BASELINE=the second run makes it the base (rc $rc)" \
	grep -q '^C2 6.18.44-fc-v1098/unknown/bigbox -> C1 6.18.44-fc-v1098/unknown/vm' "$tmp/cmp2/report.txt"
rc=0; make -s -C "$top" compare RUNS="$run $tmp/big" BASELINE="$tmp/nothere" OUT="$tmp/cmp3" > "$tmp/out" 2>&1 || rc=$?
check "compare: a BASELINE that is not among RUNS is refused, naming the fix (rc $rc)" \
	grep -q 'is not one of RUNS' "$tmp/out"
rc=0; make -s -C "$top" compare RUNS="$run" > "$tmp/out" 2>&1 || rc=$?
check "compare: one run is refused (rc $rc)" grep -q 'compare wants two or more' "$tmp/out"
rc=0; make -s -C "$top" compare RUNS="$run $tmp/none" > "$tmp/out" 2>&1 || rc=$?
check "compare: a directory without runs/ is refused (rc $rc)" grep -q 'is not a results directory' "$tmp/out"
# One directory named twice counted its runs twice: n=2, spread 0.0% (issue 28, D7).
ln -s "$run" "$tmp/runlink"
for twice in "$run $run" "$run $(dirname "$run")/./$(basename "$run")" "$run $tmp/runlink"; do
	rc=0; make -s -C "$top" compare RUNS="$twice" OUT="$tmp/twice" > "$tmp/out" 2>&1 || rc=$?
	check "compare: one directory given twice ($(echo "$twice" | sed "s|$tmp/||g")) is refused (rc $rc)" \
		sh -c "[ $rc -ne 0 ] && grep -q 'are the same directory' '$tmp/out' && [ ! -e '$tmp/twice/report.txt' ]"
done

# Two real runs on this machine: the bare-metal workflow, one boot twice.
for r in a b; do
	rc=0; KERNEL=host PAGES=4k CLIENTS=2 DURATION=1 REPEAT=2 PGBENCH=off POOL=32M RELATION=128M \
		sh "$top/scripts/bench.sh" "$tmp/host-$r" > "$tmp/bench-$r.out" 2>&1 || rc=$?
	check "compare: real host run $r finished (rc $rc)" test "$rc" = 0
done
rc=0; make -s -C "$top" compare RUNS="$tmp/host-a $tmp/host-b" OUT="$tmp/real" > "$tmp/out" 2>&1 || rc=$?
check "compare: two real host runs compared (rc $rc)" test "$rc" = 0
h=$(uname -n)
check "compare: one machine twice: its runs keep apart by directory ($h:host-a, $h:host-b)" \
	has "$tmp/real/report.txt" "C1 [^ ]*/$h:host-a -> C2 [^ ]*/$h:host-b: bufbench"
check "compare: and nothing is said to differ but the columns" \
	has "$tmp/real/report.txt" 'The runs share machine, CPU count'
tests_done
