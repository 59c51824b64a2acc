#!/bin/sh
# build/report on a host-only run (tests/data/run-host: one kernel, model
# unknown, 4 KB and 2 MB cells of bufbench and pgbench, logs/bufmicro.json):
# with no second kernel/model the report compares page sizes against 4 KB
# (and locks against tas), with Welch stars, a finding sentence, the
# SpinDelay column, the bufmicro costs and the provenance lines, all
# within 80 columns.  Expected numbers are computed here from the documents.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_host run-host report
report=$top/build/report
txt=$run/report.txt

check "report runs on the host fixture" "$report" "$run"
check "report.txt within 80 columns" test "$(awk 'length > 80' "$txt" | wc -l)" -eq 0
check "report.txt is ASCII" test "$(LC_ALL=C grep -c '[^ -~]' "$txt")" -eq 0

# median of a field over one cell's documents
med() { # tool page_kb lock path
	jq -s --arg t "$1" --argjson p "$2" --arg l "$3" "
	  map(select(.tool == \$t and .provenance.page_size_kb == \$p and
	      .provenance.lock == \$l) | $4) | sort |
	  if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end" \
	  "$run"/runs/*.json
}

# geometric mean of a field over one cell's documents: the change the report tests
gm() { # tool page_kb lock path
	jq -s --arg t "$1" --argjson p "$2" --arg l "$3" "
	  map(select(.tool == \$t and .provenance.page_size_kb == \$p and
	      .provenance.lock == \$l) | $4 | log) | add / length | exp" "$run"/runs/*.json
}

want=$(pct "$(gm bufbench 4 tas .results.tps)" "$(gm bufbench 2048 tas .results.tps)")
r=$(row "C1 4 KB -> C2 2 MB: bufbench select-only, 8 clients, host/unknown" tps)
case $r in
*"$want*"*) pass "bufbench 2 MB against 4 KB tps row: $want with a star" ;;
*) fail "bufbench 2 MB against 4 KB tps row: want $want*, got: '$r'" ;;
esac
fwant=$(pct "$(gm bufbench 4 tas .results.minor_faults_per_txn)" "$(gm bufbench 2048 tas .results.minor_faults_per_txn)")
r=$(row "C1 4 KB -> C2 2 MB" "minor faults/txn")
case $r in
*"$fwant*"*) pass "faults/txn row: $fwant with a star" ;;
*) fail "faults/txn row: want $fwant*, got: '$r'" ;;
esac
check "finding: 2 MB pages against 4 KB with tps and faults/txn" \
	sh -c "tr '\n' ' ' < '$txt' | grep -q '2 MB pages against 4 KB: tps $want (.*significant), minor faults/txn $fwant ([0-9.e-]* -> [0-9.e-]*; p [=<] [0-9.e-]*, significant)'"
pwant=$(pct "$(gm pgbench 4 s_lock .results.tps)" "$(gm pgbench 2048 s_lock .results.tps)")
r=$(row "C3 4 KB -> C4 2 MB: pgbench select-only" tps)
case $r in
*"$pwant*"*) fail "pgbench tps difference is noise but starred: $r" ;;
*"$pwant "*) pass "pgbench 2 MB against 4 KB tps row: $pwant, no star" ;;
*) fail "pgbench tps row: want $pwant, got: '$r'" ;;
esac
check "pgbench comparison has a SpinDelay row" sh -c "awk '/C3 4 KB -> C4 2 MB/ { f = 1 } f && /SpinDelay samples\$/ { ok = 1 } END { exit !ok }' '$txt'"
check "pgbench comparison has the SpinDelay share row" sh -c "awk '/C3 4 KB -> C4 2 MB/ { f = 1 } f && /SpinDelay % of active\$/ { ok = 1 } END { exit !ok }' '$txt'"

# Side by side: SpinDelay per run and its share of active samples.
check "side-by-side section with the SpinDelay column" grep -q '^  cell tool .* SpinDelay/run (%act)$' "$txt"
sd=$(jq -s 'map(select(.tool == "pgbench" and .provenance.page_size_kb == 4) | .sampler) |
	"\((map(.spindelay_samples) | add) / length | round) (\(100 * (map(.spindelay_samples) | add) /
	(map(.active_backend_samples) | add) * 10 | round / 10)%)"' -r "$run"/runs/*.json)
case $sd in *.*%*) ;; *) sd=$(echo "$sd" | sed 's/ (\([0-9]*\)%)/ (\1.0%)/') ;; esac
r=$(grep '^  C3 *pgbench' "$txt" || true)
case $r in
*"$sd") pass "pgbench 4 KB row ends with SpinDelay $sd" ;;
*) fail "pgbench 4 KB row: want SpinDelay '$sd', got: '$r'" ;;
esac
check "waits line names the top wait events" grep -q '^ *waits: on CPU [0-9]*%; Client:ClientRead [0-9.]*%, IO:DataFileRead' "$txt"
check "2 MB group says what the server got" grep -q '^host/unknown (6.18.44-fc-v1098), 2 MB pages obtained$' "$txt"

# Provenance and bounds.
for l in 'Kernel: host = 6.18.44-fc-v1098' 'Model: host/unknown (from unknown:' \
	'Pages: 2m -> 2 MB (smaps KernelPageSize)' 'Lock/strategy: bufbench tas/pg, pgbench s_lock/postgresql' \
	'CPUs: 2 x AMD EPYC' 'Virtualization: other:hypervisor, not emulated' 'Clocksource: tsc' \
	'Sleep(1us) costs ns: median' 'Minor fault costs ns: median' 'Versions: compiler gcc' 'Lab revision: fixture'; do
	check "environment line '$l'" grep -qF "$l" "$txt"
done
clock=$(jq '.results.clock_read_ns | round' "$run/logs/bufmicro.json")
tas=$(jq '.results.lock_acquire_release_ns.tas | round' "$run/logs/bufmicro.json")
check "bufmicro costs in the environment (tas $tas ns, clock read $clock ns)" \
	sh -c "tr '\n' ' ' < '$txt' | sed 's/  */ /g' | grep -q 'Uncontended ns: buffer hit [0-9]* ([0-9]* instrumented); lock+unlock tas $tas .*clock read $clock'"
check "report.md has the bufmicro table" grep -q '| clock read | [0-9.]* | - | logs/bufmicro.json |' "$run/report.md"
check "report.md has the side-by-side table with wait events" grep -q '^| host/unknown | .* | C3 | pgbench | .*LWLock:BufferMapping' "$run/report.md"
check "reproduce line carries the matrix" grep -q 'HUGEPAGES=compare PAGES=4k,2m CLIENTS=8' "$txt"

# Several locks: each is compared with tas at the same page size.
for f in "$run"/runs/bufbench-host-4k-tas-*.json; do
	n=$(basename "$f" | sed 's/-tas-/-rseq-/')
	jq '.provenance.lock = "rseq" | .config.lock = "rseq" | .results.tps = .results.tps * 0.8' "$f" > "$run/runs/$n"
done
"$report" "$run" 2>/dev/null
r=$(row "tas -> C" tps)
case $r in
*"-20.0%*"*) pass "lock rseq against tas: -20.0% with a star" ;;
*) fail "lock comparison tps row: want -20.0%*, got: '$r'" ;;
esac
check "lock block names what is held constant" grep -q '^C[0-9]* tas -> C[0-9]* rseq: bufbench select-only, 8 clients, host/unknown, 4 KB' "$txt"
check "finding names the lock comparison" sh -c "tr '\n' ' ' < '$txt' | grep -q 'rseq lock against tas: tps -20.0%'"
rm "$run"/runs/bufbench-host-4k-rseq-*.json

# A second model beside one cell: that cell is compared by model, the
# rest still by page size.
for f in "$run"/runs/bufbench-host-4k-tas-*.json; do
	jq '.provenance.preempt_model = "none"' "$f" > "${f%.json}-none.json"
done
"$report" "$run" 2>/dev/null
check "kernel/model comparison kept where there are two models" grep -q -- '-> C[0-9]* host/unknown: bufbench select-only, 8 clients, 4 KB' "$txt"
check "page-size comparison for the single-model 2 MB cell" grep -q '^C[0-9]* 4 KB -> C[0-9]* 2 MB: bufbench' "$txt"
rm "$run"/runs/bufbench-host-4k-tas-*-none.json

# A noisy machine says so through its spread.
jq '.results.tps = 1500000' "$run/runs/bufbench-host-2m-tas-c8-r3.json" > "$tmp/x" && mv "$tmp/x" "$run/runs/bufbench-host-2m-tas-c8-r3.json"
"$report" "$run" 2>/dev/null
check "spread caveat on noisy repetitions" sh -c "tr '\n' ' ' < '$txt' | grep -q 'Noisy measurements: tps varies by up to [0-9]*% .* (C2 bufbench host/unknown, 2 MB pages, 8 clients)'"

# bufmicro missing or empty (bench-host.sh keeps an empty file when it fails).
: > "$run/logs/bufmicro.json"
check "an empty bufmicro.json does not stop the report" sh -c "'$report' '$run' 2> '$tmp/err'"
check "the empty bufmicro.json is named" grep -q 'bufmicro.json' "$tmp/err"
check "and the costs are said to be missing" grep -q 'Uncontended ns: not measured' "$txt"
tests_done
