#!/bin/sh
# Untrusted strings in report.txt, summary.txt and report.md (issue 15,
# defect 9): documents (a guest's come over its serial channel), profiles
# and logs carrying ESC and BEL sequences, C1 controls, bidi overrides,
# invalid UTF-8, fake markdown headings, table pipes and HTML.  They
# reached the reports raw; now the text files hold no control byte but
# newlines and only valid UTF-8, and report.md no markup of theirs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_hostile run-fixture report
mkdir "$tmp/clean"
cp -r "$top/tests/data/run-fixture" "$tmp/clean/run"

# The payload: a terminal title and colour, a bell, CSI as C1, a bidi
# override, a newline into a fake heading, a table pipe, HTML and a link.
# Documents are JSON, which holds only valid UTF-8 (jq and jansson see to
# it); profiles and logs are raw bytes, and theirs add bytes that are not
# UTF-8 (bad).
evil=$(printf 'E\033]0;owned\007\033[31mred\302\233m\342\200\256rev|a|b<script>x</script>\n# FAKE HEADING [l](http://x)')
bad=$(printf 'bad\377\376\300\257')
for d in "$run"/runs/*.json; do
	jq --arg e "$evil" '.provenance.kernel_release += $e | .provenance.hostname = $e |
		.provenance.cpu_model = $e | .provenance.kernel_version = $e |
		.provenance.versions.compiler = $e | .provenance.preempt_model_source = $e |
		.provenance.page_size_source = $e | .provenance.command_line = ("bufbench " + $e) |
		if .sampler.wait_events then .sampler.wait_events += {($e): 50} else . end' \
		"$d" > "$d.new"
	mv "$d.new" "$d"
done
# A failed run whose error is the payload, a failed cell (the manifest's)
# named and worded with it, and a profile whose symbols carry it.
jq --arg e "$evil" '.results.error = $e' "$run/runs/bufbench-7.0-lazy-4k-tas-c4-r1.json" > "$run/runs/bufbench-7.0-lazy-4k-tas-c4-r9.json"
mkdir -p "$run/logs" "$run/perf"
jq --arg e "$evil" --arg id "bufbench-7.0-x$(printf '\033[1m')" \
	'.cells.outcomes = [{id: $id, status: "failed", reason: $e}]' "$run/manifest.json" > "$run/m.new"
mv "$run/m.new" "$run/manifest.json"
sym=$(printf '%s%s' "$bad" "$evil" | tr '\n' ' ')
mkdir -p "$tmp/clean/run/perf"
for r in 1 2 3; do
	printf 'bufbench;main;%s 30\nbufbench;main;s_lock 10\n' "$sym" > "$run/perf/bufbench-7.0-lazy-4k-tas-c4-r$r.folded"
	printf 'bufbench;main;s_lock 5\n' > "$run/perf/bufbench-6.12-none-4k-tas-c4-r$r.folded"
	cp "$run/perf/bufbench-6.12-none-4k-tas-c4-r$r.folded" "$tmp/clean/run/perf/"
	printf 'bufbench;main;f 30\nbufbench;main;s_lock 10\n' > "$tmp/clean/run/perf/bufbench-7.0-lazy-4k-tas-c4-r$r.folded"
done
check "build/report on hostile documents" sh -c "'$top/build/report' '$run' > '$tmp/out' 2>&1"
"$top/build/report" "$tmp/clean/run" > /dev/null 2>&1

# ok_text FILE: no control byte but newline, no DEL, valid UTF-8 without
# C1 controls or bidi overrides.
ok_text() {
	! LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$1" &&
		iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1 &&
		! grep -q "$(printf '\302[\200-\237]')" "$1" &&
		! grep -q "$(printf '\342\200\256')" "$1"
}
for f in report.txt summary.txt report.md; do
	check "$f holds no control bytes and only valid UTF-8" ok_text "$run/$f"
done
check "report.txt shows where the payload was" grep -q 'E?]0;owned??\[31mred?m?rev|a|b<script>' "$run/report.txt"
check "report.txt still fits 80 columns" test "$(awk 'length > 80' "$run/report.txt" | wc -l)" -eq 0
check "report.txt lists the payload's symbol, its bad bytes as ?" grep -q '^ *[0-9.]* *[0-9.]*  bad????E?]0$' "$run/report.txt"
check "summary.txt names the failed run, escaped" grep -q 'left out: bufbench-7.0-lazy-4k-tas-c4-r9: E?]0;owned' "$run/summary.txt"
check "summary.txt names the manifest's failed cell, escaped" grep -q '^failed: bufbench-7.0-x?\[1m: E?]0;owned' "$run/summary.txt"

md=$run/report.md
check "report.md: the same headings as without the payload" \
	sh -c "grep '^#' '$md' > '$tmp/h1'; grep '^#' '$tmp/clean/run/report.md' > '$tmp/h2'; cmp -s '$tmp/h1' '$tmp/h2'"
check "report.md: no HTML tag of the payload" sh -c "! grep -q '<script' '$md'"
check "report.md: its pipes cannot split a table cell" grep -qF '\|a\|b&lt;script>' "$md"
check "report.md: its link is no link" sh -c "grep -qF '\[l](http://x)' '$md' && ! grep -qF ' [l](http://x)' '$md'"
# columns_kept FILE: every table row has as many unescaped pipes as the
# header row of its table.
columns_kept() {
	sed 's/\\\\//g; s/\\|//g' "$1" | awk '
		/^\|/ { n = gsub(/\|/, "|"); if (!inrow) { want = n; inrow = 1 } else if (n != want) bad++; next }
		{ inrow = 0 }
		END { exit bad > 0 }'
}
check "report.md: every table row keeps its column count" columns_kept "$md"
check "the report's stderr holds no control bytes" ok_text "$tmp/out"
# A regzbot line is a command to a bot: only release-like labels make its
# range ("v6.12..v7.0"), never a document's other words.
cp -r "$top/tests/data/run-fixture" "$tmp/label"
for d in "$tmp"/label/runs/*-7.0-*.json; do
	jq '.provenance.kernel_label = "next #regzbot ignore"' "$d" > "$d.new" && mv "$d.new" "$d"
done
"$top/build/report" "$tmp/label" > /dev/null 2>&1
check "a kernel label that is no release makes no regzbot range" \
	sh -c "test -s '$tmp/label/report.txt' && ! grep -q '^#regzbot' '$tmp/label/report.txt'"

# The writers print strings only through the sanitiser (txt_printf,
# md_printf, tw_*): a plain fprintf with a %s would bring the hole back.
check "no writer prints a %s with plain fprintf" sh -c "! grep -n 'fprintf(f, .*%[-0-9.*]*s' \
	'$top'/lab/report/report_txt.c '$top'/lab/report/report_md.c \
	'$top'/lab/report/summary.c '$top'/lab/report/fillphase.c"
tests_done
