#!/bin/sh
# A guest's PERF block is gzipped `perf script` text that the host unpacks
# (scripts/qemu-channel.sh).  A gzip bomb unpacked without a cap: 100 MB
# from 97 KB (issue 28).  Now a profile that unpacks to over
# PREEMPTLAB_PERF_MAX_MB is refused, said once, and a normal one beside it
# still lands.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

block() {
	echo "@@PL $1 $2 $(wc -c < "$3") $(sha256sum < "$3" | cut -d' ' -f1)"
	base64 "$3"
	echo "@@PL END $2"
}
# 100 MB of zeros: about 100 KB gzipped.
head -c 100000000 /dev/zero | gzip -9 > "$tmp/bomb.gz"
printf 'bufbench 123 [000] 1.0: cpu-clock:\n\tffff s_lock\n\n' | gzip > "$tmp/ok.gz"
{
	echo "@@PL READY 7.0.13 none (full) lazy"
	block PERF cellA "$tmp/bomb.gz"
	block PERF cellB "$tmp/ok.gz"
	echo "@@PL DONE"
} > "$tmp/chan"
ch=$tmp/ch
run() { PREEMPTLAB_PERF_MAX_MB=16 "$top/scripts/qemu-channel.sh" "$tmp/chan" "$ch/runs" "$ch/logs" "$ch/perf" > "$tmp/ev" 2> "$tmp/err"; }
check "qemu-channel.sh exits 0 with a gzip bomb in the stream ($(wc -c < "$tmp/bomb.gz") bytes gzipped)" run
check "the bomb is not unpacked into perf/" test ! -e "$ch/perf/cellA.perf.txt"
check "nothing of it is left on disk over the cap" \
	test "$(du -sk "$ch" | cut -f1)" -lt $((17 * 1024))
check "it is refused by name" grep -q 'profile cellA unpacks to over PREEMPTLAB_PERF_MAX_MB=16 MB' "$tmp/err"
check "its event is bad" grep -qx 'bad cellA' "$tmp/ev"
check "the normal profile beside it lands" grep -q s_lock "$ch/perf/cellB.perf.txt"
run
check "the next pass (every second) does not unpack or say it again" \
	sh -c "grep -qx 'bad cellA' '$tmp/ev' && ! grep -q cellA '$tmp/err'"
tests_done
