#!/bin/sh
# Reads the guest's result channel (the host file behind its second serial
# port; protocol in guest/runner.sh) and writes every complete run whose
# length and sha256 check out to RUNS/<id>.json, and every log block (the
# guest's pgbench progress and server logs) to LOGS/<name>, by default
# RUNS/../logs.  Safe to call again and
# again while the guest runs: finished runs land as soon as they arrive, and
# a truncated last block (crash, kill) is simply not written.
# Prints one status line per event to stdout:
#   ready RELEASE MODELS... | start ID | ok ID | pass ID DOCUMENTS |
#   fail ID REASON | bad ID | log NAME | done
# (ok: a run's JSON arrived whole; pass: a pgbench cell, whose documents
# came as JSON blocks of their own, ended well; log: a log file arrived.)
# Usage: scripts/qemu-channel.sh CHANNEL RUNS [LOGS]
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
[ $# -eq 2 ] || [ $# -eq 3 ] || die "usage: $0 CHANNEL RUNS [LOGS]"
chan=$1 runs=$2 logs=${3:-$2/../logs}
[ -f "$chan" ] || exit 0
mkdir -p "$runs" "$logs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# awk splits the stream; each complete block goes to its own base64 file
# named after its id, with "bytes sha256 kind" beside it.  A name that is
# not a plain file name is not written anywhere.
tr -d '\r' < "$chan" | awk -v dir="$tmp" '
	$1 != "@@PL" { if (cur != "") print >> (dir "/" cur ".b64"); next }
	$2 == "READY" { $1 = ""; $2 = ""; sub(/^ +/, ""); print "ready " $0; next }
	$2 == "START" { print "start " $3; next }
	$2 == "PASS"  { print "pass " $3 " " $4; next }
	$2 == "FAIL"  { $1 = ""; $2 = ""; sub(/^ +/, ""); print "fail " $0; next }
	$2 == "DONE"  { print "done"; next }
	$2 == "JSON" || $2 == "LOG" {
		cur = $3
		if (cur == "" || cur ~ /\// || cur ~ /^\./) { cur = ""; next }
		printf "" > (dir "/" cur ".b64"); print $4, $5, ($2 == "LOG" ? "log" : "json") > (dir "/" cur ".sum"); next }
	$2 == "END"   { if (cur == $3) { close(dir "/" cur ".b64"); print "end " cur }; cur = ""; next }
' > "$tmp/events"

while read -r ev id rest; do
	if [ "$ev" != end ]; then echo "$ev $id $rest" | sed 's/ *$//'; continue; fi
	read -r bytes sum kind < "$tmp/$id.sum"
	base64 -d < "$tmp/$id.b64" > "$tmp/$id.out" 2>/dev/null || true
	if [ "$kind" = log ]; then dest=$logs/$id ok=log; else dest=$runs/$id.json ok=ok; fi
	if [ "$(wc -c < "$tmp/$id.out")" = "$bytes" ] &&
		[ "$(sha256sum < "$tmp/$id.out" | cut -d' ' -f1)" = "$sum" ]; then
		[ -f "$dest" ] || mv "$tmp/$id.out" "$dest"
		echo "$ok $id"
	else
		echo "bad $id"
	fi
done < "$tmp/events"
