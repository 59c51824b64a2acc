#!/bin/sh
# summary.txt (build/report): the median and spread over repetitions and the
# ratio to the baseline cell (baseline kernel, model none, same
# pages/lock/clients), checked on run documents with known tps; failed and
# interrupted runs are left out of every figure and listed.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
mkdir -p "$tmp/runs" "$tmp/logs"

# doc KERNEL MODEL PAGES REP TPS: one bufbench document with the fields the
# summary reads, as docs/json.md lays them out.
doc() {
	jq -n --arg k "$1" --arg m "$2" --arg p "$3" --argjson t "$5" \
		'{tool: "bufbench", schema: "preemptlab.bufbench/1",
		  config: {clients: 8, pages: $p, lock: "tas"},
		  provenance: {kernel_label: $k, kernel_release: "\($k).1-test", preempt_model: $m,
		    page_policy: $p, page_size_kb: (if $p == "2m" then 2048 else 4 end),
		    virtualization: "tcg", emulated: true},
		  results: {tps: $t}}' > "$tmp/runs/bufbench-$1-$2-$3-tas-c8-r$4.json"
}
doc 6.12 none 4k 1 100; doc 6.12 none 4k 2 120; doc 6.12 none 4k 3 110
doc 7.0 lazy 4k 1 50;   doc 7.0 lazy 4k 2 60;   doc 7.0 lazy 4k 3 55
doc 7.0 lazy 2m 1 90;   doc 7.0 lazy 2m 2 100
# The failed cell as build/manifest records it (cells.outcomes).
echo '{"schema": "preemptlab.manifest/1", "cells": {"outcomes": [{"id": "bufbench-7.0-full-4k-tas-c8-r1",
  "status": "failed", "reason": "bufbench exit 3: no pages", "log": "logs/console.log"}]}}' > "$tmp/manifest.json"
# A run that failed and one cut short: neither may move the 7.0 lazy 4k cell.
doc 7.0 lazy 4k 4 1
jq '.results.error = "stuck spinlock"' "$tmp/runs/bufbench-7.0-lazy-4k-tas-c8-r4.json" > "$tmp/x"
mv "$tmp/x" "$tmp/runs/bufbench-7.0-lazy-4k-tas-c8-r4.json"
doc 7.0 lazy 4k 5 9999
jq '.results.interrupted = true' "$tmp/runs/bufbench-7.0-lazy-4k-tas-c8-r5.json" > "$tmp/x"
mv "$tmp/x" "$tmp/runs/bufbench-7.0-lazy-4k-tas-c8-r5.json"

"$top/build/report" "$tmp" --baseline 6.12/none 2> /dev/null
row() { grep -E "^$1 +[^ ]+ +$2 +$3 " "$tmp/summary.txt" | tr -s ' '; }
check "summary: baseline median 110, min 100, max 120, spread 18.2%, 1x" \
	test "$(row 6.12 none 4k | cut -d' ' -f9-13,16)" = "3 110.0 100.0 120.0 18.2 1.000x"
check "summary: 7.0 lazy 4k median 55 of the 3 good runs is 0.5x the baseline" \
	test "$(row 7.0 lazy 4k | cut -d' ' -f9,10,16)" = "3 55.0 0.500x"
check "summary: the failed and the interrupted run are listed as left out" \
	sh -c "grep -q '^left out: bufbench-7.0-lazy-4k-tas-c8-r4: stuck spinlock' '$tmp/summary.txt' && grep -q '^left out: bufbench-7.0-lazy-4k-tas-c8-r5: interrupted' '$tmp/summary.txt'"
check "summary: and report.txt says runs were left out" grep -q 'left out of every' "$tmp/report.txt"
check "summary: an even count takes the middle two (95), no baseline cell for 2m" \
	test "$(row 7.0 lazy 2m | cut -d' ' -f5,9,10,16)" = "2M 2 95.0 -"
check "summary: says the runs were emulated" grep -q 'TCG: emulated' "$tmp/summary.txt"
check "summary: lists the failed cell" grep -q '^failed: bufbench-7.0-full-4k-tas-c8-r1: bufbench exit 3' "$tmp/summary.txt"
tests_done
