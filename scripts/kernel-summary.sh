#!/bin/sh
# Writes RUNDIR/summary.txt: bufbench tps per kernel / model / page size /
# lock / clients, as median and spread over the repetitions, and the ratio of
# each median to the baseline cell (BASELINE_LABEL with model none, same
# pages, lock and clients); then, when pgbench documents exist, the same
# for real PostgreSQL per kernel / model / huge_pages / builtin / clients,
# with the Timeout:SpinDelay samples the wait-event sampler counted.
# Computed with jq from RUNDIR/runs/*.json.
# Usage: scripts/kernel-summary.sh RUNDIR [BASELINE_LABEL]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
[ $# -ge 1 ] || die "usage: $0 RUNDIR [BASELINE_LABEL]"
rundir=$1 base=${2:-}
out=$rundir/summary.txt
# Align the tab-separated table (column(1) is not on every machine).
align() {
	awk -F'\t' '
	{ line[NR] = $0; nf[NR] = NF; if (NF > 1) for (i = 1; i <= NF; i++) if (length($i) > w[i]) w[i] = length($i) }
	END { for (r = 1; r <= NR; r++) {
		if (nf[r] < 2) { print line[r]; continue }
		n = split(line[r], f, "\t"); s = ""
		for (i = 1; i <= n; i++) s = s sprintf(i < n ? "%-" w[i] "s  " : "%s", f[i])
		print s } }'
}
: > "$out"
set -- "$rundir"/runs/*.json
if [ ! -f "$1" ]; then
	echo "no runs in $rundir/runs" > "$out"
elif jq -e -s 'any(.[]; .tool == "bufbench")' "$@" > /dev/null; then
jq -L "$here" -r -s --arg base "$base" '
  include "summary";
  [ .[] | select(.tool == "bufbench") |
    { k: .provenance.kernel_label, m: .provenance.preempt_model,
      p: (.config.pages // .provenance.page_policy), l: (.config.lock // .provenance.lock),
      c: .config.clients, tps: .results.tps, got: (.provenance.page_size_kb | psize),
      virt: .provenance.virtualization, rel: .provenance.kernel_release } ] as $runs |
  ($runs | group_by([.k, .m, .p, .l, .c]) | map(
      { k: .[0].k, m: .[0].m, p: .[0].p, l: .[0].l, c: .[0].c, rel: .[0].rel,
        got: (map(.got) | unique | join(",")), n: length,
        med: (map(.tps) | median), min: (map(.tps) | min), max: (map(.tps) | max) })) as $cells |
  ($runs | map(.virt) | unique | join(",")) as $virt |
  def basecell($x): $cells | map(select(.k == $base and .m == "none" and .p == $x.p
    and .l == $x.l and .c == $x.c)) | first;
  "bufbench tps per cell: median of n runs, spread = (max - min) / median",
  "virtualization: \($virt)" + (if $virt | test("tcg") then
    " (TCG: emulated, times are those of an emulator, compare cells with each other only)" else "" end),
  "baseline: " + (if $base == "" then "none" else "\($base) with model none" end),
  "",
  (["kernel", "release", "model", "pages", "got", "lock", "clients", "n", "tps_median",
    "min", "max", "spread%", "vs_baseline"] | @tsv),
  def porder: {"4k": 0, "thp": 1, "try-2m": 2, "2m": 3, "try-1g": 4, "1g": 5}[.] // 9;
  ($cells | sort_by(.k != $base, .k, (.p | porder), .l, .c, .m)[] | . as $x |
    (basecell($x)) as $b |
    [ .k, .rel, .m, .p, .got, .l, .c, .n, (.med | r1), (.min | r1), (.max | r1),
      (if .med > 0 then ((.max - .min) / .med * 100 | r1) else "-" end),
      (if $b != null and $b.med > 0 then ((.med / $b.med * 1000 | round) / 1000 | tostring) + "x"
       else "-" end) ] | @tsv)
' "$@" | align > "$out"
fi

# Real PostgreSQL: one row per kernel / model / huge_pages / builtin /
# clients.  The baseline cell is the baseline kernel under model none
# with the same huge_pages, builtin and clients.
if [ -f "$1" ] && jq -e -s 'any(.[]; .tool == "pgbench" and .complete != false)' "$@" > /dev/null; then
	[ -s "$out" ] && echo >> "$out"
	jq -L "$here" -r -s --arg base "$base" '
  include "summary";
  [ .[] | select(.tool == "pgbench" and .complete != false) |
    { k: .provenance.kernel_label, m: .provenance.preempt_model, hp: .config.huge_pages,
      b: .config.builtin, c: .config.clients, tps: .results.tps,
      got: (.provenance.page_size_kb | psize), rel: .provenance.kernel_release,
      spin: (.sampler.spindelay_samples // 0), samples: (.sampler.samples // 0),
      ival: .sampler.interval_ms_achieved, sb: .config.shared_buffers, scale: .config.scale,
      virt: .provenance.virtualization } ] as $runs |
  ($runs | group_by([.k, .m, .hp, .b, .c]) | map(
      { k: .[0].k, m: .[0].m, hp: .[0].hp, b: .[0].b, c: .[0].c, rel: .[0].rel,
        got: (map(.got) | unique | join(",")), n: length,
        med: (map(.tps) | median), min: (map(.tps) | min), max: (map(.tps) | max),
        spin: (map(.spin) | add), samples: (map(.samples) | add),
        ival: (map(.ival | select(. != null)) | median) })) as $cells |
  def basecell($x): $cells | map(select(.k == $base and .m == "none" and .hp == $x.hp
    and .b == $x.b and .c == $x.c)) | first;
  "pgbench tps per cell (real PostgreSQL \($runs | map("shared_buffers \(.sb), scale \(.scale)") | unique | join("; "))): median of n runs",
  "spindelay = Timeout:SpinDelay samples of all wait-event samples, summed over the n runs; ms/sample = achieved sampling interval" +
    (if $runs | map(.virt) | any(. == "tcg") then " (TCG: emulated)" else "" end),
  "",
  (["kernel", "release", "model", "huge_pages", "got", "builtin", "clients", "n", "tps_median",
    "min", "max", "spread%", "spindelay", "samples", "ms/sample", "vs_baseline"] | @tsv),
  def horder: {"off": 0, "try": 1, "on": 2}[.] // 9;
  ($cells | sort_by(.k != $base, .k, (.hp | horder), .b, .c, .m)[] | . as $x |
    (basecell($x)) as $bc |
    [ .k, .rel, .m, .hp, .got, .b, .c, .n, (.med | r1), (.min | r1), (.max | r1),
      (if .med > 0 then ((.max - .min) / .med * 100 | r1) else "-" end),
      .spin, .samples, (if .ival == null then "-" else (.ival | r1) end),
      (if $bc != null and $bc.med > 0 then ((.med / $bc.med * 1000 | round) / 1000 | tostring) + "x"
       else "-" end) ] | @tsv)
' "$@" | align >> "$out"
fi

# Cells that produced nothing are part of the answer too.
for f in "$rundir"/logs/failed-*.txt "$rundir"/logs/unavailable-*.txt; do
	[ -f "$f" ] || continue
	kind=${f##*/}; kind=${kind%%-*}
	id=${f##*/"$kind"-}; id=${id%.txt}
	echo "$kind: $id: $(head -n1 "$f")"
done > "$out.tmp"
if [ -s "$out.tmp" ]; then { echo; cat "$out.tmp"; } >> "$out"; fi
rm -f "$out.tmp"
cat "$out"
