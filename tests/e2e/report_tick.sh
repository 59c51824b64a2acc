#!/bin/sh
# The kernel's tick in every run's provenance and in the report (issue 36):
# bufbench, given a plan file naming a kernel config (a guest's
# kernel_config), records its CONFIG_HZ and tick mode: Debian 6.12's
# config (HZ 250, NO_HZ_FULL) and 7.2-lab's (HZ 1000, NO_HZ_IDLE), from
# tests/data/kconfig.  report.txt, .md and .html print them beside the
# model, and each cell its own where the runs' ticks differ; documents
# from before the field say "HZ not recorded", a config
# nobody could read says why; and on a recorded fixture the field changes
# one line of each report, no other.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_tick run-fixture bufbench report
TAB=$(printf '\t')
kc=$top/tests/data/kconfig
d=$tmp/tick
mkdir -p "$d/runs"
for k in 6.12:config-6.12-debian 7.2-lab:config-7.2-lab; do
	label=${k%%:*} cfg=$kc/${k#*:}
	printf 'label%s%s\nkernel_config%s%s\n' "$TAB" "$label" "$TAB" "$cfg" > "$tmp/$label.conf"
	"$top/build/bufbench" --clients 2 --duration 0.3 --pool 8M --relation 32M --unit-conf "$tmp/$label.conf" \
		--json "$d/runs/bufbench-$label.json" > /dev/null 2>&1 ||
		{ fail "report_tick: bufbench with $label's config failed"; exit 1; }
done
prov() { jq -r ".provenance | \"\(.kernel_hz) \(.kernel_nohz) \(.kernel_tick_source)\"" "$d/runs/bufbench-$1.json"; }
check "bufbench records 6.12's config: HZ 250, NO_HZ_FULL, and the file read" \
	test "$(prov 6.12)" = "250 full $kc/config-6.12-debian"
check "bufbench records 7.2-lab's config: HZ 1000, NO_HZ_IDLE, and the file read" \
	test "$(prov 7.2-lab)" = "1000 idle $kc/config-7.2-lab"

check "build/report exits 0" sh -c "'$top/build/report' '$d' > '$tmp/out' 2>&1"
# report.txt wraps a long line: its paragraph, joined.
para() { awk -v h="$1" 'index($0, h) == 1 { p = 1; printf "%s", $0; next } p && /^    / { sub(/^ +/, " "); printf "%s", $0; next } { p = 0 }' "$2"; }
want="6.12: HZ 250, NO_HZ_FULL (from $kc/config-6.12-debian), 7.2-lab: HZ 1000, NO_HZ_IDLE (from $kc/config-7.2-lab)"
check "report.txt: Tick: $want" test "$(para 'Tick: ' "$d/report.txt")" = "Tick: $want"
check "report.md: the tick row" grep -qxF -- "- tick (CONFIG_HZ, NO_HZ; source): $want" "$d/report.md"
check "report.html: the tick row" grep -qxF -- "<li>tick (CONFIG_HZ, NO_HZ; source): $want</li>" "$d/report.html"
# Two ticks in one run: each cell says its own (report.txt's Cells, report.md's release column).
rel=$(jq -r .provenance.kernel_release "$d/runs/bufbench-6.12.json")
for k in 6.12:250 7.2-lab:1000; do
	check "report.txt: the ${k%%:*} cell says HZ ${k#*:}" grep -qE "^C[0-9]+ +bufbench ${k%%:*}/[a-z]+ $rel HZ ${k#*:}," "$d/report.txt"
	check "report.md: the ${k%%:*} cell's release says HZ ${k#*:}" grep -qF "| bufbench | ${k%%:*} | $rel, HZ ${k#*:} |" "$d/report.md"
done

# Before the field: said so.  A config nobody could read: unknown, and why.
for f in "$d"/runs/*.json; do
	jq 'del(.provenance.kernel_hz, .provenance.kernel_nohz, .provenance.kernel_tick_source)' "$f" > "$f.new" && mv "$f.new" "$f"
done
jq '.provenance.kernel_hz = null | .provenance.kernel_nohz = "unknown" |
	.provenance.kernel_tick_source = "unknown: /plan/kernel.config: No such file or directory"' \
	"$d/runs/bufbench-7.2-lab.json" > "$tmp/x" && mv "$tmp/x" "$d/runs/bufbench-7.2-lab.json"
"$top/build/report" "$d" > /dev/null 2>&1 || true
check "an older document: HZ not recorded; an unreadable config: HZ unknown and why" \
	test "$(para 'Tick: ' "$d/report.txt")" = "Tick: 6.12: HZ not recorded, 7.2-lab: HZ unknown: /plan/kernel.config: No such file or directory"

# A recorded fixture: with the field, one line of each report changes.
mkdir -p "$tmp/with"
cp -r "$run" "$tmp/with/run"
for f in "$tmp"/with/run/runs/*.json; do
	jq '.provenance += { kernel_hz: 250, kernel_nohz: "idle", kernel_tick_source: "/boot/config-x" }' "$f" > "$f.new" && mv "$f.new" "$f"
done
"$top/build/report" "$run" > /dev/null 2>&1
"$top/build/report" "$tmp/with/run" > /dev/null 2>&1
# strip FILE: without the tick's line (report.txt's, with its wrapped rest).
strip() { awk '/^(Tick: |- tick \(|<li>tick \()/ { p = 1; next } p && /^    / { next } { p = 0; print }' "$1"; }
for r in report.txt report.md report.html; do
	# The run's own directory is named in the reports: the same name for both.
	sed "s|$tmp/with/run|$run|g" "$tmp/with/run/$r" > "$tmp/with.$r"
	strip "$run/$r" > "$tmp/a.$r"
	strip "$tmp/with.$r" > "$tmp/b.$r"
	check "run-fixture's $r: the tick line is the only difference" cmp -s "$tmp/a.$r" "$tmp/b.$r"
	check "run-fixture's $r: HZ not recorded before, HZ 250 with the field" \
		sh -c "grep -q '6.12: HZ not recorded' '$run/$r' && grep -q '6.12: HZ 250, NO_HZ_IDLE (from /boot/config-x)' '$tmp/with.$r'"
done
tests_done
