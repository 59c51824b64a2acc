#!/bin/sh
# The paths the house's guides name exist, and README's Layout names every
# directory: docs/extending.md's checklists, buffer_pool/README and
# lab/plan/README are lists of paths a newcomer follows, and a renamed or
# removed file would send them nowhere without failing anything else.
#
# A path is a word (letters, digits, _ . * / -) that starts with a name git
# tracks at the top level and holds a /; in the two READMEs also a bare
# NAME.c or NAME.h, relative to the README's directory.  It passes as a
# tracked file, a directory holding tracked files, or a glob matching some.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
git_checkout_or_skip extending_paths
cd "$top"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
git ls-files > "$tmp/files"
cut -d/ -f1 "$tmp/files" | sort -u > "$tmp/top"
# Directories: every proper prefix of a tracked path.
awk -F/ '{ p = $1; for (i = 2; i <= NF; i++) { print p; p = p "/" $i } }' "$tmp/files" |
	sort -u > "$tmp/dirs"
npass=0 nfail=0
ok() { pass "$1"; npass=$((npass + 1)); }
ko() { fail "$1"; nfail=$((nfail + 1)); }

# tracked PATH: a file, a directory of tracked files, or a glob matching some.
tracked() {
	case $1 in
	*'*'*) [ -n "$(git ls-files -- "$1" | head -n 1)" ] ;;
	*) p=${1%/}; grep -qxF "$p" "$tmp/files" || grep -qxF "$p" "$tmp/dirs" ;;
	esac
}

# words DOC DIR: the paths DOC names, one a line (DIR: its bare NAME.c and
# NAME.h are relative to it, or empty for none).
words() {
	tr -c 'A-Za-z0-9_.*/-' '\n' < "$1" | sed 's/\.*$//' | awk -v dir="$2" -v tops="$tmp/top" '
		BEGIN { while ((getline t < tops) > 0) top[t] = 1 }
		/^\// || $0 == "" { next }
		index($0, "/") { split($0, c, "/"); if (c[1] in top) print; next }
		dir != "" && /^[A-Za-z0-9_]+\.[ch]$/ { print dir "/" $0 }' | sort -u
}

for doc in docs/extending.md buffer_pool/README lab/plan/README; do
	if [ ! -f "$doc" ]; then
		ko "extending_paths: $doc exists"
		continue
	fi
	dir=""
	case $doc in */README) dir=${doc%/README} ;; esac
	words "$doc" "$dir" > "$tmp/words"
	n=$(wc -l < "$tmp/words")
	[ "$n" -gt 0 ] || ko "extending_paths: $doc names no path at all (the extraction broke?)"
	missing=""
	while IFS= read -r w; do
		tracked "$w" || missing="$missing $w"
	done < "$tmp/words"
	if [ -z "$missing" ]; then
		ok "extending_paths: all $n paths $doc names are tracked"
	else
		ko "extending_paths: $doc names paths git does not track:$missing"
	fi
done

# The checker itself: a path that does not exist fails, one that does passes.
# shellcheck disable=SC2016 # backquotes as markdown has them, not a command
printf 'see `lab/plan/settings.c`, `lab/plan/no_such_file.c` and `docs/`\n' > "$tmp/probe.md"
words "$tmp/probe.md" "" > "$tmp/probe"
if grep -qxF lab/plan/no_such_file.c "$tmp/probe" && ! tracked lab/plan/no_such_file.c &&
	tracked lab/plan/settings.c && tracked docs/; then
	ok "extending_paths: the checker refuses a missing path and accepts tracked ones"
else
	ko "extending_paths: the checker's own probe ($(tr '\n' ' ' < "$tmp/probe"))"
fi

# README.md's Layout section names every top-level directory and every
# folder of lab/, backquoted with its slash (`lab/plan/`).
sed -n '/^## Layout$/,/^## /p' README.md > "$tmp/layout"
[ -s "$tmp/layout" ] || ko "extending_paths: README.md has a Layout section"
grep '/' "$tmp/files" | cut -d/ -f1 | sort -u > "$tmp/want"
grep '^lab/[^/]*/' "$tmp/files" | cut -d/ -f1,2 | sort -u >> "$tmp/want"
missing=""
while IFS= read -r d; do
	grep -qF "\`$d/\`" "$tmp/layout" || missing="$missing $d/"
done < "$tmp/want"
if [ -z "$missing" ]; then
	ok "extending_paths: README's Layout names all $(wc -l < "$tmp/want") tracked directories (top level and lab/)"
else
	ko "extending_paths: README's Layout does not name:$missing"
fi

echo "$npass passed, $nfail failed"
tests_done
