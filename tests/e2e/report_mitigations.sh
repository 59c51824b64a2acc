#!/bin/sh
# build/report on a SCENARIO=mitigations run (tests/data/run-mitigations,
# real documents as written: the host's 6.18, 21 clients, pool 64 MB,
# 2 repetitions; rseq failed there for want of the slice extension and
# 1 GB pages could not be reserved): the report opens with the mitigations
# table, before the Finding; its numbers are the documents' (recomputed
# here with jq); a mitigation without a document says why; the paragraph
# for the thread gives the prefault cost at the report's 120 GB and the
# reproduce line with MITIGATIONS; a run without mitigations has no such
# section.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_mitigations run-mitigations report
txt=$run/report.txt
check "report runs on the mitigations fixture" "$top/build/report" "$run"
check "the mitigations table opens the report, before the Finding" \
	sh -c "awk '/^Mitigations: every fix/ { m = NR } /^Finding/ { f = NR } END { exit !(m && f && m < f) }' '$txt'"
sect=$tmp/sect
sed -n '/^Mitigations: every fix/,/^Finding/p' "$txt" > "$sect"
check "the section stays within 80 columns" test "$(awk 'length > 80' "$sect" | wc -l)" -eq 0

# fill tps of a mitigation's runs, as jq sees the documents
fills() { jq -s --arg m "$1" --argjson p "${2:-4}" '[.[] | select(.config.mitigation == $m and
	.provenance.page_size_kb == $p) | .results.phases[] | select(.name == "fill") | .tps]' "$run"/runs/*.json; }
median() { jq -r 'sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end | round'; }
for m in none prefault touch-before-lock pg19 partitioned:8; do
	med=$(fills "$m" | median)
	check "$m: its row shows the median fill tps of its runs ($med)" \
		sh -c "grep -E '^$m +unknown +$med ' '$sect'"
done
med=$(fills hugepages 2048 | median)
check "hugepages 2 MB: its row ($med)" sh -c "grep -E '^hugepages 2 MB +unknown +$med ' '$sect'"
# The ratio: geometric means, as the report's Welch interval is on logs.
gm() { fills "$1" "${2:-4}" | jq '[.[] | log] | add / length'; }
for m in prefault touch-before-lock pg19; do
	r=$(jq -n --argjson a "$(gm "$m")" --argjson b "$(gm none)" '($a - $b) | exp * 100 | round / 100')
	check "$m: against none/none $(printf '%.2f' "$r")x" \
		sh -c "grep -E '^$m ' '$sect' | grep -q ' $(printf '%.2f' "$r")x \\['"
done
# Faulting holds: the trace join's counts, pooled over the runs.
share() { jq -s --arg m "$1" '[.[] | select(.config.mitigation == $m and .provenance.page_size_kb == 4) |
	.evidence.phases[] | select(.name == "fill")] | (map(.holds_with_fault) | add) * 100 / (map(.holds) | add) |
	. * 100 | round / 100' "$run"/runs/*.json; }
for m in none prefault touch-before-lock; do
	s=$(printf '%.2f' "$(share "$m")")
	check "$m: $s% of its fill-phase holds faulted (the trace join's count)" \
		sh -c "grep -E '^$m ' '$sect' | grep -q ' $s% '"
done
# prefault's cost, and at the report's 120 GB: ns a page x 245760 pages.
# Medians over the runs (one run slowed by the machine's load does not move them).
med='sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end'
ms=$(jq -s "[.[] | select(.config.mitigation == \"prefault\") | .results.prefault.ms_mean] | $med" "$run"/runs/*.json)
check "prefault: its cost per backend ($(printf '%.2f' "$ms") ms)" \
	grep -q "$(printf '%.2f' "$ms")ms [0-9]*B PTE" "$sect"
big=$(jq -s "[.[] | select(.config.mitigation == \"prefault\") | .results.prefault.ns_per_page] | $med * 245760 / 1e6 | round" "$run"/runs/*.json)
check "...extrapolated to 120 GB of shared_buffers: about $big ms and 1.88 MB of page tables a backend" \
	sh -c "tr '\\n' ' ' < '$sect' | grep -q 'about $big ms and 1.88 MB of page tables per backend, 1.88 GB for 1024 backends'"
check "rseq's missing rows say why (no slice extension here)" \
	sh -c "tr '\\n' ' ' < '$sect' | grep -q 'No result for .*rseq:20: bufbench exit 9: .*CONFIG_RSEQ_SLICE_EXTENSION'"
check "...and hugepages 1 GB's (none reserved)" \
	sh -c "tr '\\n' ' ' < '$sect' | grep -q 'hugepages 1 GB: cannot reserve'"
check "the paragraph for the thread cites 7.2's Kconfig lines for arm64 and GENERIC_ENTRY" \
	sh -c "tr '\\n' ' ' < '$sect' | tr -s ' ' | grep -q 'For the thread: .*cannot be built for arm64 in 7.2: init/Kconfig:2004 makes RSEQ_SLICE_EXTENSION depend on GENERIC_ENTRY and HAVE_GENERIC_TIF_BITS, and arch/arm64/Kconfig selects GENERIC_IRQ_ENTRY (line 133) but neither'"
check "...and says nothing of releases it did not check" \
	sh -c "! tr '\\n' ' ' < '$sect' | grep -q 'through 7.2'"
check "the reproduce line asks for the same mitigations" \
	sh -c "tr -d '\\\\\\n' < '$sect' | tr -s ' ' | grep -q 'MITIGATIONS=none,prefault,touch-before-lock,rseq:5,rseq:20,rseq:50, *hugepages,pg19,partitioned:8'"
check "...from the same base (PAGES=4k LOCKS=tas STRATEGY=pg), which the planner accepts" \
	sh -c "tr -d '\\\\\\n' < '$sect' | tr -s ' ' | grep -q 'PAGES=4k .*LOCKS=tas STRATEGY=pg '"
# The line itself, run through the planner: it must plan again, not be refused.
vars=$(sed -n '/^Reproduce:/,/^$/p' "$sect" | tr -d '\\\n' | tr -s ' ' | sed 's/.*make bench //')
# shellcheck disable=SC2086 # the words of the line, split on purpose
check "...and the planner plans it again" "$top/build/plan" --check --top "$top" $vars
check "report.md has the table" grep -q '^| mitigation | model | fill tps | x none/none' "$run/report.md"
check "cells differing only in mitigation stay apart (6 cells)" \
	sh -c "head -n1 '$txt' | grep -q '(12 runs in 6 cells)'"
# A run without mitigations: no such section.
cp -r "$top/tests/data/run-fill" "$tmp/fill"
"$top/build/report" "$tmp/fill" > /dev/null 2>&1
check "a run without mitigations has no mitigations section" \
	sh -c "! grep -q '^Mitigations: every fix' '$tmp/fill/report.txt'"
# The thread paragraph quotes "What separates the models" when the run has
# census evidence for two models (here the census fixture's 7.0 full and
# lazy documents beside the mitigations), and says nothing of it otherwise.
cp -r "$top/tests/data/run-mitigations" "$tmp/sep"
cp "$top"/tests/data/run-census/runs/*.json "$tmp/sep/runs/"
"$top/build/report" "$tmp/sep" > /dev/null 2>&1
sect_sentence=$(sed -n '/^What separates the models/,$p' "$tmp/sep/report.txt" | tr '\n' ' ' | tr -s ' ' |
	grep -o 'No channel resolved a difference[^:]*' | head -1)
check "with a census of two models, the thread paragraph quotes the section's sentence ($sect_sentence)" \
	sh -c "[ -n '$sect_sentence' ] && tr '\n' ' ' < '$tmp/sep/report.txt' | tr -s ' ' |
		grep -qF 'What separates the models here: $sect_sentence'"
check "without one, it does not" sh -c "! grep -q 'What separates the models here' '$txt'"
tests_done
