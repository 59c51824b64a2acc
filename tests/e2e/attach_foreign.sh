#!/bin/sh
# make attach copies only the run's own files (issue 28, S3 and D1): a
# FIFO named runs/*.json hung it, a link to /dev/zero was copied without
# end, a link in runs/ to a file outside the run put that file in the
# tarball, and a manifest naming /etc/passwd as a kernel config put its
# lines (all of it with ATTACH_FULL_CONFIG=1) in an attachment meant for a
# public list.  Now attach finishes, leaves each out with a note, and
# takes kernel configs only from the lab's kernel cache.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run attach_foreign run-fixture report stackfold flamegraph

# A secret outside the run, a document-shaped one so that a reader of
# runs/*.json would take it; a FIFO; a link to a device.
mkdir -p "$tmp/outside" "$tmp/cache/build/7.0"
jq '.provenance.hostname = "SECRET-OUTSIDE-THE-RUN"' "$run/runs/bufbench-7.0-lazy-4k-tas-c4-r1.json" > "$tmp/outside/doc.json"
ln -s "$tmp/outside/doc.json" "$run/runs/bufbench-zz-outside.json"
mkfifo "$run/runs/bufbench-zz-fifo.json"
ln -s /dev/zero "$run/runs/bufbench-zz-zero.json"
# A config in the lab's cache (taken) and one anywhere else (not).
printf 'CONFIG_PREEMPT_LAZY=y\nCONFIG_HZ=1000\nCACHE_CONFIG_MARKER=1\n' > "$tmp/cache/build/7.0/config"
printf 'CONFIG_PREEMPT_NONE=y\nFOREIGN_MARKER=1\n' > "$tmp/outside/config"
ln -s "$tmp/outside/config" "$tmp/cache/build/7.0/config-link"
jq --arg c "$tmp/cache/build/7.0/config" --arg l "$tmp/cache/build/7.0/config-link" --arg o "$tmp/outside/config" \
	'.units = [{config: "/etc/passwd"}, {config: $c}, {config: $l}, {config: $o}]' \
	"$run/manifest.json" > "$tmp/m" && mv "$tmp/m" "$run/manifest.json"

rc=0
PREEMPTLAB_CACHE=$tmp/cache ATTACH_FULL_CONFIG=1 timeout 300 sh "$top/scripts/attach.sh" "$run" > "$tmp/out" 2>&1 || rc=$?
check "attach finishes despite a FIFO and /dev/zero (rc $rc)" test "$rc" = 0
[ "$rc" = 0 ] || tail -n 5 "$tmp/out"
mkdir "$tmp/x"
tar -C "$tmp/x" -xzf "$run/attachment.tar.gz"
x=$(echo "$tmp"/x/*)
tar -tzvf "$run/attachment.tar.gz" > "$tmp/list"
check "no link, FIFO or device in the tarball" sh -c "! grep -q '^[lpcb]' '$tmp/list'"
check "the run's own documents are in it" test -f "$x/runs/bufbench-7.0-lazy-4k-tas-c4-r1.json"
check "the FIFO, the device and the link out are not" \
	sh -c "! ls '$x'/runs/bufbench-zz-* > /dev/null 2>&1"
check "nothing of the file outside the run, in the documents or the reports" sh -c "! grep -rq SECRET-OUTSIDE-THE-RUN '$x'"
check "each is named on stderr" sh -c "grep -q 'bufbench-zz-fifo.json is not a regular file' '$tmp/out' &&
	grep -q 'bufbench-zz-outside.json is not a regular file' '$tmp/out'"
check "no line of /etc/passwd" sh -c "! grep -rq '^root:' '$x'"
check "no config from outside the cache, not through a link in it either" sh -c "! grep -rq FOREIGN_MARKER '$x'"
check "the cache's config is taken, whole and as an excerpt" sh -c "grep -rq CACHE_CONFIG_MARKER '$x/kernel-configs' &&
	grep -rqx 'CONFIG_PREEMPT_LAZY=y' '$x'/kernel-configs/*.excerpt"
check "/etc/passwd is named as outside the cache" grep -q 'passwd lies outside' "$tmp/out"
tests_done
