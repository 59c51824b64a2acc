#!/bin/sh
# The report as a reader sees it, in a real browser (Debian's chromium,
# headless): report.html and every SVG of the fixture run load without
# errors, no text leaves its chart (getBBox of each <text> against the
# chart's canvas), report.html is no wider than its window, and each
# screenshot has ink (pixels other than the background, build/tests/pngcount).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
browser=$(command -v chromium || true)
if [ -z "$browser" ]; then
	skip "report_browser: no chromium; run ./configure --install-deps (Debian's chromium) to run it"
	exit 0
fi
fixture_run report_browser run-fixture report tests/pngcount
"$top/build/report" "$run" 2>/dev/null

chrome() {
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--no-first-run --user-data-dir="$tmp/profile" "$@" 2>/dev/null
}
size_of() {
	grep -o '<svg [^>]*' "$1" | head -n1 | sed 's/.* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/'
}

# One page: each SVG as an image (does it load?) and inline (measured).
page=$tmp/svgs.html
{
	echo '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
	for s in "$run"/*.svg; do
		echo "<img src=\"file://$s\">"
		sed -n '/^<svg /,$p' "$s"
	done
	echo '<script>'; cat "$top/tests/browser/textbox.js"; echo '</script></body></html>'
} > "$page"
{
	sed 's|</body></html>||' "$run/report.html"
	echo '<script>'; cat "$top/tests/browser/textbox.js"; echo '</script></body></html>'
} > "$run/report-check.html"

for p in "$page" "$run/report-check.html"; do
	nm=$(basename "$p")
	chrome --window-size=1280,900 --dump-dom "file://$p" > "$tmp/dom" || true
	out=$(sed -n '/<pre id="browser-check">/,/END/p' "$tmp/dom")
	texts=$(printf '%s\n' "$out" | sed -n 's/.*TEXTS \([0-9]*\).*/\1/p')
	check "$nm: the browser ran the measuring script" test "${texts:-0}" -gt 0
	bad=$(printf '%s\n' "$out" | grep -E '^(OVERFLOW|ERROR)' || true)
	if [ -z "$bad" ]; then
		pass "$nm: $texts texts measured, none outside its chart, no load errors"
	else
		fail "$nm: $bad"
	fi
done
rm -f "$run/report-check.html"

for f in "$run"/*.svg "$run/report.html"; do
	nm=$(basename "$f")
	case $nm in *.svg) size=$(size_of "$f") ;; *) size=1280,2000 ;; esac
	chrome --window-size="$size" --screenshot="$tmp/$nm.png" "file://$f" > /dev/null || true
	# shellcheck disable=SC2046 # the three numbers, split on purpose
	set -- $("$top/build/tests/pngcount" "$tmp/$nm.png" 2>/dev/null || echo 0 0 0)
	check "$nm: screenshot has ink ($3 of $(($1 * $2)) pixels)" test "$3" -gt $(($1 * $2 / 200 + 100))
done
