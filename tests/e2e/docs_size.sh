#!/bin/sh
# The docs stay readable and connected (issue 39): every reference page
# (a tracked .md under docs/, but not docs/measurements/, whose dated
# notebooks grow by campaign) is at most 500 lines, so a page that grows
# past it is split rather than left to mix reference with notebook; and
# every relative markdown link [..](path) in docs/ and README.md names a
# tracked file or a directory of tracked files, so moving a section or a
# page cannot leave a link pointing nowhere.  The #anchor part is ignored:
# headings are checked by reading, not here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
git_checkout_or_skip docs_size
cd "$top"
max_lines=500
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
git ls-files > "$tmp/files"
# Directories: every proper prefix of a tracked path.
awk -F/ '{ p = $1; for (i = 2; i <= NF; i++) { print p; p = p "/" $i } }' "$tmp/files" |
	sort -u > "$tmp/dirs"
npass=0 nfail=0
ok() { pass "$1"; npass=$((npass + 1)); }
ko() { fail "$1"; nfail=$((nfail + 1)); }

# tracked PATH: a tracked file or a directory holding tracked files.
tracked() {
	p=${1%/}
	grep -qxF "$p" "$tmp/files" || grep -qxF "$p" "$tmp/dirs"
}

# long DOC...: the pages over max_lines, as "DOC (N lines)", one a line.
long() {
	for d in "$@"; do
		n=$(wc -l < "$d")
		[ "$n" -le "$max_lines" ] || echo "$d ($n lines)"
	done
}

# links DOC: the targets of DOC's relative links, resolved against DOC's
# directory (anchor and title dropped), one a line.  Fenced code blocks are
# skipped: they show commands and output, not links.
links() {
	dir=$(dirname "$1")
	awk '/^[ \t]*```/ { fence = !fence; next } !fence' "$1" |
		grep -o '\](<\{0,1\}[^) >]*' | sed 's/^](<\{0,1\}//' |
		grep -v -e '^[a-z][a-z0-9+.-]*:' -e '^#' -e '^$' | sed 's/#.*//' |
		while IFS= read -r t; do
			case $t in /*) echo "${t#/}" ;; *) echo "$dir/$t" ;; esac
		done | awk -F/ '{
			# Normalise: drop "." and fold "x/.." so the path matches git ls-files.
			n = 0
			for (i = 1; i <= NF; i++) {
				if ($i == "." || $i == "") continue
				if ($i == ".." && n > 0 && s[n] != "..") { n--; continue }
				s[++n] = $i
			}
			p = ""; for (i = 1; i <= n; i++) p = p (i > 1 ? "/" : "") s[i]
			print p
		}'
}

# Every reference page: at most max_lines.
grep -E '^docs/.*\.md$' "$tmp/files" | grep -v '^docs/measurements/' > "$tmp/pages"
npages=$(wc -l < "$tmp/pages")
[ "$npages" -gt 0 ] || ko "docs_size: no docs/*.md tracked (the listing broke?)"
# shellcheck disable=SC2046 # page names have no spaces (git ls-files above)
long $(cat "$tmp/pages") > "$tmp/long"
if [ -s "$tmp/long" ]; then
	ko "docs_size: pages over $max_lines lines (split reference from dated notes, docs/measurements/): $(tr '\n' ' ' < "$tmp/long")"
else
	ok "docs_size: all $npages reference pages under docs/ are at most $max_lines lines"
fi

# Every relative link in docs/ and README.md names a tracked path.
{ grep -E '^docs/.*\.md$' "$tmp/files"; echo README.md; } > "$tmp/docs"
nlinks=0 missing=""
while IFS= read -r d; do
	links "$d" > "$tmp/links"
	nlinks=$((nlinks + $(wc -l < "$tmp/links")))
	while IFS= read -r t; do
		tracked "$t" || missing="$missing $d->$t"
	done < "$tmp/links"
done < "$tmp/docs"
[ "$nlinks" -gt 0 ] || ko "docs_size: no relative link found at all (the extraction broke?)"
if [ -z "$missing" ]; then
	ok "docs_size: all $nlinks relative links in docs/ and README.md name tracked paths"
else
	ko "docs_size: links to paths git does not track:$missing"
fi

# The checkers themselves: a link to a missing file fails, links to tracked
# files and directories (with anchors, from a subdirectory, in angle
# brackets) pass, external links and fenced code are not links, and a page
# one line over the limit is long while one at it is not.
mkdir -p "$tmp/probe/docs/measurements"
cat > "$tmp/probe/docs/measurements/p.md" <<'EOF'
[a](../kernels.md#the-catalog-kernels) [b](../no_such_page.md) [c](../../lab/plan/README)
[d](<../measurements/>) [e](https://example.org/x.md) [f](#local) [g](mailto:x@y)
```
[h](../in_a_fence.md)
```
EOF
(cd "$tmp/probe" && links docs/measurements/p.md) > "$tmp/probe/got"
printf '%s\n' docs/kernels.md docs/no_such_page.md lab/plan/README docs/measurements > "$tmp/probe/want"
awk -v m="$max_lines" 'BEGIN { for (i = 0; i <= m; i++) print "x" }' > "$tmp/probe/over.md"
awk -v m="$max_lines" 'BEGIN { for (i = 1; i <= m; i++) print "x" }' > "$tmp/probe/at.md"
if cmp -s "$tmp/probe/got" "$tmp/probe/want" && tracked docs/kernels.md &&
	! tracked docs/no_such_page.md && tracked lab/plan/README && tracked docs/measurements &&
	[ "$(long "$tmp/probe/over.md" "$tmp/probe/at.md")" = "$tmp/probe/over.md ($((max_lines + 1)) lines)" ]; then
	ok "docs_size: the checkers refuse a missing link and a long page, and accept the rest"
else
	ko "docs_size: the checkers' own probe (links: $(tr '\n' ' ' < "$tmp/probe/got"))"
fi

echo "$npass passed, $nfail failed"
tests_done
