#!/bin/sh
# Reads the guest's result channel (the host file behind its second serial
# port; protocol in lab/runner/main.c) and writes every complete run whose
# length and sha256 check out to RUNS/<id>.json, and every log block (the
# guest's pgbench progress and server logs) to LOGS/<name>, by default
# RUNS/../logs, and every profile (gzipped `perf script` text of a
# bufbench cell) to PERF/<id>.perf.txt, by default RUNS/../perf, where
# scripts/flamegraph-fold.sh finds it.  Safe to call again and
# again while the guest runs: finished runs land as soon as they arrive, and
# a truncated last block (crash, kill) is simply not written.
# Prints one status line per event to stdout:
#   ready RELEASE MODELS... | start ID | ok ID | pass ID DOCUMENTS |
#   fail ID REASON | bad ID | log NAME | perf ID | profile on|off ... | done
# (ok: a run's JSON arrived whole; pass: a pgbench cell, whose documents
# came as JSON blocks of their own, ended well; log: a log file arrived;
# perf: a cell's profile arrived; profile: whether the guest profiles.)
# Usage: scripts/qemu-channel.sh CHANNEL RUNS [LOGS [PERF]]
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
case $# in 2|3|4) ;; *) die "usage: $0 CHANNEL RUNS [LOGS [PERF]]" ;; esac
chan=$1 runs=$2 logs=${3:-$2/../logs} perf=${4:-$2/../perf}
[ -f "$chan" ] || exit 0
perf_mb=${PREEMPTLAB_PERF_MAX_MB:-256}
case $perf_mb in '' | *[!0-9]*) die "PREEMPTLAB_PERF_MAX_MB=$perf_mb is not a number of MB" ;; esac
perf_max=$((perf_mb << 20))
mkdir -p "$runs" "$logs"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

# awk splits the stream; each complete block goes to its own base64 file
# named after its kind and id (a cell's JSON and its profile share the id),
# with "bytes sha256" beside it.  A name that is not a plain file name (at
# most 200 bytes of [A-Za-z0-9._+,:=@~-], no leading dot) is refused for
# its block alone, and the reason goes to refused: one name over 255 bytes
# once made awk fail and lost every block of the boot.
tr -d '\r' < "$chan" | LC_ALL=C awk -v dir="$tmp" '
	function refusal(kind, name,   shown) {
		if (length(name) <= 200 && name ~ /^[A-Za-z0-9_+,:=@~-][A-Za-z0-9._+,:=@~-]*$/)
			return ""
		shown = substr(name, 1, 40)
		gsub(/[^A-Za-z0-9._+,:=@~-]/, "?", shown)
		return "channel: refused a " kind " block: its name (" length(name) " characters, \047" \
			shown (length(name) > 40 ? "..." : "") "\047) is not a plain file name of at most " \
			"200 characters from [A-Za-z0-9._+,:=@~-] (no leading dot); its data is dropped"
	}
	$1 != "@@PL" { if (cur != "") print >> (dir "/" key ".b64"); next }
	$2 == "READY" { $1 = ""; $2 = ""; sub(/^ +/, ""); print "ready " $0; next }
	$2 == "START" { print "start " $3; next }
	$2 == "PASS"  { print "pass " $3 " " $4; next }
	$2 == "FAIL"  { $1 = ""; $2 = ""; sub(/^ +/, ""); print "fail " $0; next }
	$2 == "DONE"  { print "done"; next }
	$2 == "PROFILE" { $1 = ""; $2 = ""; sub(/^ +/, ""); print "profile " $0; next }
	$2 == "JSON" || $2 == "LOG" || $2 == "PERF" {
		cur = $3; kind = tolower($2); key = kind "." cur
		why = refusal($2, cur)
		if (why != "") { print why > (dir "/refused"); cur = ""; next }
		printf "" > (dir "/" key ".b64"); print $4, $5 > (dir "/" key ".sum"); close(dir "/" key ".sum"); next }
	$2 == "END"   { if (cur == $3) { close(dir "/" key ".b64"); print "end " kind " " cur }; cur = ""; next }
' > "$tmp/events"

# This runs every second while a guest runs: each refusal is said once,
# and kept in LOGS/channel-refused.txt.
if [ -s "$tmp/refused" ]; then
	touch "$logs/channel-refused.txt"
	while IFS= read -r why; do
		grep -qxF -- "$why" "$logs/channel-refused.txt" && continue
		printf '%s\n' "$why" >> "$logs/channel-refused.txt"
		note "$why"
	done < "$tmp/refused"
fi

while read -r ev id rest; do
	if [ "$ev" != end ]; then echo "$ev $id $rest" | sed 's/ *$//'; continue; fi
	kind=$id id=$rest key=$kind.$rest
	read -r bytes sum < "$tmp/$key.sum"
	case $kind in
	log) dest=$logs/$id ok=log ;;
	perf) dest=$perf/$id.perf.txt ok=perf ;;
	*) dest=$runs/$id.json ok=ok ;;
	esac
	# Profiles are large and this runs every second: one checked once is done.
	if [ "$kind" = perf ] && [ -f "$dest" ]; then echo "$ok $id"; continue; fi
	if [ "$kind" = perf ] && [ -f "$logs/perf-refused-$id.txt" ]; then echo "bad $id"; continue; fi
	base64 -d < "$tmp/$key.b64" > "$tmp/$key.out" 2>/dev/null || true
	if [ "$(wc -c < "$tmp/$key.out")" = "$bytes" ] &&
		[ "$(sha256sum < "$tmp/$key.out" | cut -d' ' -f1)" = "$sum" ]; then
		if [ "$kind" = perf ]; then
			mkdir -p "$perf"
			# A guest's gzip may unpack to anything (100 MB from 97 KB): at most
			# PREEMPTLAB_PERF_MAX_MB (default 256) of text, else refused.
			if ! gzip -t < "$tmp/$key.out" 2>/dev/null; then echo "bad $id"; continue; fi
			gzip -dc < "$tmp/$key.out" 2>/dev/null | head -c $((perf_max + 1)) > "$tmp/$key.txt" || true
			if [ "$(wc -c < "$tmp/$key.txt")" -gt "$perf_max" ]; then
				rm -f "$tmp/$key.txt"
				why="channel: profile $id unpacks to over PREEMPTLAB_PERF_MAX_MB=$((perf_max >> 20)) MB: refused"
				printf '%s\n' "$why" > "$logs/perf-refused-$id.txt"
				note "$why"
				echo "bad $id"
				continue
			fi
			mv "$tmp/$key.txt" "$dest"
		else
			[ -f "$dest" ] || mv "$tmp/$key.out" "$dest"
		fi
		echo "$ok $id"
	else
		echo "bad $id"
	fi
done < "$tmp/events"
