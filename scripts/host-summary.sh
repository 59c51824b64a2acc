#!/bin/sh
# Writes RUNDIR/summary.txt for a host bench: per page size / lock /
# clients, tps median and spread ((max-min)/median over the repetitions),
# minor faults per 1000 transactions, strategy-lock spin share, and the ratio of
# the tps median to the 4 KB cell with the same lock and clients.
# Usage: scripts/host-summary.sh RUNDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
[ $# -eq 1 ] || die "usage: $0 RUNDIR"
rundir=$1
set -- "$rundir"/runs/bufbench-*.json
[ -f "$1" ] || { echo "no bufbench runs in $rundir/runs" > "$rundir/summary.txt"; exit 0; }
jq -L "$here" -r -s '
  include "summary";
  def fmt(d): if . == null then "-" else (. * pow(10; d) | round) / pow(10; d) | tostring end;
  [ .[] | select(.results.error == "" and (.results.interrupted | not)) |
    { p: .config.pages, got: .provenance.page_size_kb, l: .config.lock,
      c: .config.clients, tps: .results.tps, f: .results.minor_faults_per_txn,
      s: .results.spin_share } ] |
  group_by([.p, .l, .c]) |
  map({ p: .[0].p, got: .[0].got, l: .[0].l, c: .[0].c, n: length,
        tps: (map(.tps) | median), lo: (map(.tps) | min), hi: (map(.tps) | max),
        f: (map(.f) | median), s: (map(.s) | median) }) as $cells |
  "pages  got(kB)  lock  clients  n  tps(median)  spread%  faults/ktxn  spin%  vs_4k",
  ( $cells[] | . as $x |
    ([ $cells[] | select(.p == "4k" and .l == $x.l and .c == $x.c) ][0].tps) as $b |
    [ .p, (.got | tostring), .l, (.c | tostring), (.n | tostring), (.tps | fmt(0)),
      (if .tps > 0 then ((.hi - .lo) / .tps * 100 | fmt(1)) else "-" end),
      (.f * 1000 | fmt(2)), (.s * 100 | fmt(3)),
      (if $b != null and $b > 0 then (.tps / $b | fmt(3)) + "x" else "-" end) ] | join("  ") )
' "$@" | column -t > "$rundir/summary.txt"
if [ -f "$rundir/logs/skipped.txt" ]; then
	cat "$rundir/logs/skipped.txt" >> "$rundir/summary.txt"
fi
if [ -f "$rundir/logs/failed.txt" ]; then
	echo "failed runs (logs/*.err): $(tr '\n' ' ' < "$rundir/logs/failed.txt")" >> "$rundir/summary.txt"
fi
