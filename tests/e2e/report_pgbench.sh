#!/bin/sh
# build/report on pgbench documents as build/pgsample writes them
# (tests/data/run-pgbench: 6.12/none and 7.0/lazy guests under TCG,
# huge_pages off and on): tps and SpinDelay compared by kernel/model, the
# SpinDelay share of active samples, the top wait events and the page size
# the server got, a finding with the 2 MB comparison, within 80 columns.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_pgbench run-pgbench report
report=$top/build/report
txt=$run/report.txt

check "report runs on the pgbench fixture" "$report" "$run"
check "report.txt within 80 columns" test "$(awk 'length > 80' "$txt" | wc -l)" -eq 0
check "report.txt is ASCII" test "$(LC_ALL=C grep -c '[^ -~]' "$txt")" -eq 0

sel() { # kernel huge_pages -> jq filter over the cell's documents
	echo "map(select(.provenance.kernel_label == \"$1\" and .config.huge_pages == \"$2\"))"
}
med() { # kernel huge_pages expr
	jq -s "$(sel "$1" "$2") | map($3) | sort | .[length / 2 | floor]" "$run"/runs/*.json
}

gm() { # kernel huge_pages expr: the geometric mean, the change the report tests
	jq -s "$(sel "$1" "$2") | map($3 | log) | add / length | exp" "$run"/runs/*.json
}
want=$(pct "$(gm 6.12 off .results.tps)" "$(gm 7.0 off .results.tps)")
r=$(row "-> C2 7.0/lazy: pgbench simple-update, 8 clients, 4 KB" tps)
case $r in
*"$want*"*) pass "4 KB 7.0/lazy tps row: $want with a star" ;;
*) fail "4 KB 7.0/lazy tps row: want $want*, got: '$r'" ;;
esac
r=$(row "-> C2 7.0/lazy: pgbench" "SpinDelay samples")
swant=$(pct "$(gm 6.12 off .sampler.spindelay_samples)" "$(gm 7.0 off .sampler.spindelay_samples)")
case $r in
*"$swant*"*) pass "SpinDelay samples row: $swant with a star" ;;
*) fail "SpinDelay samples row: want $swant*, got: '$r'" ;;
esac
share=$(med 7.0 off '100 * .sampler.spindelay_samples / .sampler.active_backend_samples' |
	awk '{ printf "%.2f", $1 }')
r=$(row "-> C2 7.0/lazy: pgbench" "SpinDelay % of active")
case $r in
*" $share +-"*) pass "SpinDelay share row shows the median share $share" ;;
*) fail "SpinDelay share row: want $share, got: '$r'" ;;
esac
check "the 2 MB comparison is in the finding" sh -c "tr '\n' ' ' < '$txt' | grep -q 'With 2 MB pages the same comparison gives'"
check "a drop across two kernels suggests the range to bisect, no commit" \
	sh -c "grep -qx '#regzbot introduced: v6.12..v7.0' '$txt' && ! grep -q 7dadeaa6e851 '$txt'"

# Side by side: one group per kernel/model and page size obtained.
check "four kernel/model x page-size groups" test "$(grep -c '^[0-9.]*/[a-z]* (.*), [0-9]* [KM]B pages obtained$' "$txt")" -eq 4
sd=$(jq -s -r "$(sel 7.0 off) | map(.sampler) |
	\"\((map(.spindelay_samples) | add) / length | round) (\(100 * (map(.spindelay_samples) | add) /
	(map(.active_backend_samples) | add) * 10 | round / 10)%)\"" "$run"/runs/*.json)
r=$(grep '^  C2 *pgbench' "$txt" || true)
case $r in
*"$sd") pass "7.0/lazy 4 KB row: SpinDelay per run and share $sd" ;;
*) fail "7.0/lazy 4 KB row: want '$sd', got: '$r'" ;;
esac
check "wait events beside it" sh -c "grep -A1 '^  C2 *pgbench' '$txt' | grep -q 'waits: on CPU [0-9]*%; IO:DataFileRead [0-9.]*%, LWLock:BufferMapping'"
check "Timeout:SpinDelay is not repeated among the waits" sh -c "! grep -q 'waits:.*SpinDelay' '$txt'"
check "environment: emulated" grep -q '^Virtualization: tcg, emulated (TCG)' "$txt"
check "environment: PostgreSQL version" grep -q 'PostgreSQL 15.20' "$txt"
check "environment: page sizes the server got" grep -q '^Pages: huge_pages=off -> 4 KB (smaps' "$txt"
check "environment: no bufmicro said so" grep -q '^Uncontended ns: not measured' "$txt"
check "report.md lists SpinDelay share per cell" grep -q '^| 7.0/lazy | .* | 4 KB | C2 | pgbench | .* | 110 (3.8%) |' "$run/report.md"

# huge_pages=try that fell back to 4 KB is named as such.
f=$run/runs/pgbench-7.0-lazy-hpon-s_lock-simple-update-c8-r1.json
jq '.provenance.page_policy = "huge_pages=try" | .provenance.page_size_kb = 4' "$f" > "$tmp/x" && mv "$tmp/x" "$f"
"$report" "$run" 2>/dev/null
check "a fallback to 4 KB is flagged in Cells" sh -c "tr '\\n' ' ' < '$txt' | sed 's/  */ /g' | grep -q 'asked huge_pages=off, huge_pages=try: huge pages NOT obtained'"
# 7.0 has no none: the baseline is another kernel, and the report says the
# change is the version's and the model's together.
check "the kernel-and-model confound is named" sh -c \
	"tr '\n' ' ' < '$txt' | grep -q 'differs in kernel (6.12 -> 7.0) as well as model (none -> lazy)'"
check "... and how to separate them: the baseline kernel runs full too" sh -c \
	"tr '\n' ' ' < '$txt' | sed 's/  */ /g' | grep -q 'BASELINE_MODELS=none,full also runs 6.12/full'"
# A baseline kernel built with one model (Debian's arm64 ones, which the
# plan in the manifest lists with one model offered) cannot run full: the
# way to separate them is a kernel with every model, for that architecture.
for f in "$run"/runs/*-6.12-*.json; do
	jq '.provenance.arch = "aarch64"' "$f" > "$tmp/x" && mv "$tmp/x" "$f"
done
jq '.plan.settings.baseline.models_offered = ["voluntary"]' "$run/manifest.json" > "$tmp/x" &&
	mv "$tmp/x" "$run/manifest.json"
"$report" "$run" 2>/dev/null
check "a one-model arm64 baseline: no BASELINE_MODELS advice, the arm64 7.2-lab instead" sh -c \
	"tr '\n' ' ' < '$txt' | sed 's/  */ /g' | grep -q '6.12 on aarch64 is built with voluntary only, so no other model runs on it; .*make kernel KERNEL=7.2-lab ARCH=arm64' && ! grep -q 'BASELINE_MODELS=none,full' '$txt'"
tests_done
