#!/bin/sh
# make model RUN= names the code that measured its inputs (issue 37: a
# calibration recorded "lab a85a679-dirty", code that is no commit).  On
# tests/data/run-model relabelled: runs of a dirty tree without the diff
# their runner saves (logs/lab-dirty.patch) are refused and nothing is
# written, also when only one run of the family is dirty; with the diff,
# its sha256 (as sha256sum computes it) stands beside the revision; a
# clean run's source names its commit alone.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run model_dirty run-model model

dirty() { # dirty DIR [FILE-GLOB]: those documents ran lab a85a679-dirty
	for f in "$1"/runs/${2:-*}.json; do
		jq '.provenance.lab_revision = "a85a679-dirty"' "$f" > "$f.new" && mv "$f.new" "$f"
	done
}
refused() { # refused DIR WHAT
	rc=0
	"$top/build/model" "$1" > "$tmp/out" 2> "$tmp/err" || rc=$?
	cat "$tmp/err"
	check "$2: refused (exit 2), naming the missing logs/lab-dirty.patch, nothing written" \
		sh -c "[ $rc -eq 2 ] && grep -q 'ran lab .*a85a679-dirty, a tree with uncommitted changes, and .*logs/lab-dirty.patch, which would record them, is missing' '$tmp/err' &&
			[ -z \"\$(find '$1' -name 'model-inputs-*')\" ]"
}

cp -r "$run" "$tmp/clean"
check "a clean run: make model writes its inputs" "$top/build/model" "$tmp/clean"
check "...whose source names the commit alone" \
	jq -e '.source | endswith("lab 42f5497)")' "$tmp/clean/model-inputs-4k-c21.json"

cp -r "$run" "$tmp/all"
dirty "$tmp/all"
refused "$tmp/all" "every run dirty, no diff recorded"

cp -r "$run" "$tmp/one"
dirty "$tmp/one" 'bufbench-6.12-full-4k-tas-c21-r2'
refused "$tmp/one" "one run of six dirty, no diff recorded"

# The runner's diff, as scripts/common.sh lab_record_source leaves it.
mkdir -p "$tmp/all/logs"
printf 'diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n' > "$tmp/all/logs/lab-dirty.patch"
want=$(sha256sum "$tmp/all/logs/lab-dirty.patch" | cut -d' ' -f1)
check "with logs/lab-dirty.patch: make model writes its inputs" "$top/build/model" "$tmp/all"
# shellcheck disable=SC2016 # jq variables
check "...and their source records the diff's sha256 ($want)" \
	jq -e --arg h "$want" '.source | endswith("lab a85a679-dirty, diff sha256 \($h) in logs/lab-dirty.patch)")' \
	"$tmp/all/model-inputs-4k-c21.json"
: > "$tmp/all/logs/lab-dirty.patch"
rm -f "$tmp/all"/model-inputs-*
refused "$tmp/all" "an empty logs/lab-dirty.patch"
tests_done
