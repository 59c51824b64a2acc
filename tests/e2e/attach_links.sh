#!/bin/sh
# Hard links and hostile file names in a run directory (issue 35, N3 and
# section 3).  A hard link passes every path check (its real path is
# inside the run), so `ln /etc/shadow RUN/logs/failed-x.txt` put any file
# of the machine into the attachment, and into the report when the link
# was a document: now make attach leaves such a file out and build/report
# ignores it, each naming why.  attach split the file list on white space
# and expanded globs in it, so its manifest listed files that do not exist
# with exit 0: now names with spaces and glob characters go in whole, a
# name with a newline is left out with a note, and the manifest lists
# exactly the archive's files.  A file dropped to fit went into a sed
# program unquoted: a name holding '|' and sed's e command ran a command.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run attach_links run-fixture report stackfold flamegraph jget attach-manifest

# Secrets outside the run, on the same file system (a hard link needs it):
# a text, a document-shaped one (runs/*.json) and a bufmicro-shaped one
# (logs/bufmicro.json, which build/report reads).
mkdir -p "$tmp/outside" "$run/logs"
echo "SECRET-HARDLINK-TEXT" > "$tmp/outside/secret.txt"
jq '.provenance.hostname = "SECRET-HARDLINK-DOC"' "$run/runs/bufbench-7.0-lazy-4k-tas-c4-r1.json" > "$tmp/outside/doc.json"
jq '.results.buffer_hit_ns = 98765.4321' "$top/tests/data/run-host/logs/bufmicro.json" > "$tmp/outside/bufmicro.json"
ln "$tmp/outside/secret.txt" "$run/logs/failed-x.txt"
ln "$tmp/outside/doc.json" "$run/runs/bufbench-7.0-lazy-4k-tas-c4-r7.json"
ln "$tmp/outside/bufmicro.json" "$run/logs/bufmicro.json"

# make report: the hard-linked documents are ignored, named with why.
"$top/build/report" "$run" > "$tmp/report.out" 2>&1 || true
check "report: the hard-linked run document is named and refused" \
	grep -q 'r7.json: a file with more than one hard link' "$tmp/report.out"
check "report: the hard-linked logs/bufmicro.json is named and refused" \
	grep -q 'bufmicro.json: a file with more than one hard link' "$tmp/report.out"
check "report: nothing of them in report.txt or report.md" \
	sh -c "! grep -q -e SECRET-HARDLINK -e 98765 '$run/report.txt' '$run/report.md'"

# make attach: the hard links are left out, each named.
rc=0
(cd "$tmp" && sh "$top/scripts/attach.sh" "$run") > "$tmp/out" 2>&1 || rc=$?
check "attach with hard links in the run finishes (rc $rc)" test "$rc" = 0
[ "$rc" = 0 ] || tail -n 5 "$tmp/out"
mkdir "$tmp/x"
tar -C "$tmp/x" -xzf "$run/attachment.tar.gz"
check "attach: nothing of the hard-linked files in the attachment" \
	sh -c "! grep -rq -e SECRET-HARDLINK -e 98765 '$tmp/x'"
check "attach: the hard-linked log is named with why" \
	grep -q 'failed-x.txt has 2 hard links' "$tmp/out"
check "attach: so is the hard-linked document" \
	grep -q 'r7.json has 2 hard links' "$tmp/out"
check "attach: the secret itself is untouched" grep -qx SECRET-HARDLINK-TEXT "$tmp/outside/secret.txt"
rm -f "$run/logs/failed-x.txt" "$run/runs/bufbench-7.0-lazy-4k-tas-c4-r7.json" "$run/logs/bufmicro.json"

# File names: a space, glob characters, a newline.
nl='
'
echo '<svg>space</svg>' > "$run/chart one.svg"
echo '<svg>glob</svg>' > "$run/*.svg"
echo '<svg>newline</svg>' > "$run/flame-a${nl}b.svg"
# A file the glob would match in attach's working directory.
echo 'not of the run' > "$tmp/decoy.svg"
rm -rf "$tmp/x"
rc=0
(cd "$tmp" && sh "$top/scripts/attach.sh" "$run") > "$tmp/out" 2>&1 || rc=$?
check "attach with hostile names finishes (rc $rc)" test "$rc" = 0
mkdir "$tmp/x"
tar -C "$tmp/x" -xzf "$run/attachment.tar.gz"
x=$(echo "$tmp"/x/*)
jq -r '.files[].name' "$x/manifest.json" | LC_ALL=C sort > "$tmp/listed"
(cd "$x" && find . -type f ! -name manifest.json) | sed 's|^\./||' | LC_ALL=C sort > "$tmp/archived"
check "attach: the manifest lists exactly the archive's files" cmp "$tmp/listed" "$tmp/archived"
check "attach: 'chart one.svg' is in, whole, and listed" \
	sh -c "grep -q space '$x/chart one.svg' && grep -qx 'chart one.svg' '$tmp/listed'"
check "attach: '*.svg' is in as itself, and listed" \
	sh -c "grep -q glob '$x/*.svg' && grep -qxF '*.svg' '$tmp/listed'"
check "attach: the glob matched nothing in attach's directory" sh -c "! grep -q decoy.svg '$tmp/listed'"
check "attach: every listed file has its size and sha256" \
	jq -e '[.files[] | (.bytes > 0) and (.sha256 | test("^[0-9a-f]{64}$"))] | all' "$x/manifest.json"
check "attach: the name with a newline is left out" sh -c "! ls '$x' | grep -q newline && ! grep -rq newline '$x'"
check "attach: and named, printably" grep -q "'flame-a?b.svg' has a control character" "$tmp/out"
rm -f "$run/chart one.svg" "$run/*.svg" "$run/flame-a${nl}b.svg"

# A file dropped to fit whose name is a sed program: "s|flame-|X|" and
# then sed's e command, which runs the rest of the line in sh.
mkdir -p "$run/perf"
for r in 1 2 3; do
	cp "$top/tests/data/perf-script-bufbench.folded" "$run/perf/bufbench-7.0-lazy-4k-tas-c4-r$r.folded"
done
evil='flame-|X|;1e touch PWNED_sed;#.svg'
head -c 1500000 /dev/urandom | base64 > "$run/$evil"
rm -rf "$tmp/x"
rc=0
(cd "$tmp" && sh "$top/scripts/attach.sh" "$run") > "$tmp/out" 2>&1 || rc=$?
check "attach with a sed-command name to drop finishes (rc $rc)" test "$rc" = 0
check "attach: it was dropped to fit" grep -qF "dropping $evil" "$tmp/out"
check "attach: no command of its name ran (no PWNED file)" \
	test -z "$(find "$tmp" "$top" -name 'PWNED*' 2>/dev/null)"
mkdir "$tmp/x"
tar -C "$tmp/x" -xzf "$run/attachment.tar.gz"
check "attach: report.md, which never names it, is the report's own, line for line" \
	sh -c "cmp '$run/report.md' '$tmp'/x/*/report.md && grep -q flame- '$run/report.md'"
find "$tmp" "$top" -name 'PWNED*' -exec rm -f {} + 2>/dev/null || true
tests_done
