#!/bin/sh
# PROFILE=on in a real guest: boot Debian's 7.0 under TCG with the host's
# perf in the initramfs, profile one 3-second bufbench cell, and check its
# perf script text came back over the serial channel, folds into stacks
# with samples (kernel frames from the guest's /proc/kallsyms, bufbench's
# own functions by frame pointers), and renders a flame graph that is
# well-formed XML.  First, without a guest: the channel's PERF blocks are
# written only when whole and checked.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

for b in bufbench-static stackfold flamegraph report; do
	[ -x "$top/build/$b" ] || { fail "guest_profile: build/$b missing (make build-all)"; exit 1; }
done
command -v jq >/dev/null || { skip "guest_profile: jq not installed (apt-get install jq)"; exit 0; }

# --- the channel, from a hand-made stream ---------------------------------
printf 'x 1 [000] 1.000000: 1 cpu-clock:\n\tffffffff81000000 f+0x1 ([kernel.kallsyms])\n\n' > "$tmp/p.txt"
gzip -c "$tmp/p.txt" > "$tmp/p.gz"
echo '{"a":1}' > "$tmp/j.json"
{
	echo "@@PL PROFILE on cpu-clock 99"
	echo "@@PL JSON cellA $(wc -c < "$tmp/j.json") $(sha256sum < "$tmp/j.json" | cut -d' ' -f1)"
	base64 "$tmp/j.json"
	echo "@@PL END cellA"
	echo "@@PL PERF cellA $(wc -c < "$tmp/p.gz") $(sha256sum < "$tmp/p.gz" | cut -d' ' -f1)"
	base64 "$tmp/p.gz"
	echo "@@PL END cellA"
	echo "@@PL PERF cellB $(wc -c < "$tmp/p.gz") 0000"
	base64 "$tmp/p.gz"
	echo "@@PL END cellB"
	echo "@@PL PERF cellC 10 0000"
	echo "AAAA"
} > "$tmp/chan"
"$top/scripts/qemu-channel.sh" "$tmp/chan" "$tmp/ch/runs" "$tmp/ch/logs" "$tmp/ch/perf" > "$tmp/ev"
check "channel: a whole PERF block lands as perf/<id>.perf.txt, unzipped" cmp "$tmp/p.txt" "$tmp/ch/perf/cellA.perf.txt"
check "channel: the cell's JSON, with the same id, lands too" cmp "$tmp/j.json" "$tmp/ch/runs/cellA.json"
check "channel: a PERF block with a wrong sha256 is reported bad, not written" \
	sh -c "grep -qx 'bad cellB' '$tmp/ev' && test ! -e '$tmp/ch/perf/cellB.perf.txt'"
check "channel: a truncated PERF block is not written" test ! -e "$tmp/ch/perf/cellC.perf.txt"
check "channel: the PROFILE line is an event" grep -qx 'profile on cpu-clock 99' "$tmp/ev"

# --- a guest --------------------------------------------------------------
command -v xmllint >/dev/null || { fail "guest_profile: no xmllint (apt-get install libxml2-utils)"; exit 1; }
guest_kernel guest_profile

export KERNEL=7.0 BASELINE=none MODELS=lazy PAGES=4k CLIENTS=2 DURATION=3 REPEAT=1
export PREEMPTLAB_ACCEL=tcg PGBENCH=off POOL=64M RELATION=256M PROFILE=on
run=$tmp/run
id=bufbench-7.0-lazy-4k-tas-c2-r1
start=$(date +%s)
if ! "$top/scripts/bench.sh" "$run" > "$tmp/out" 2>&1; then
	cat "$tmp/out"; fail "guest_profile: 7.0 bench with PROFILE=on"; exit 1
fi
took=$(( $(date +%s) - start ))
# perf that cannot run in this guest (none on the host, a kernel without
# perf events) is said at run time; the test can only skip then.
why=$(sed -n 's/.*PROFILE=on, but 7.0 runs unprofiled: //p' "$tmp/out")
if [ -n "$why" ]; then
	check "guest_profile: the unprofiled run still has its result" test -f "$run/runs/$id.json"
	skip "guest_profile: perf cannot run in the guest: $why"; exit 0
fi
pass "guest_profile: 7.0 bench with PROFILE=on finished (${took}s)"
check "guest_profile: the result arrived" test -f "$run/runs/$id.json"
check "guest_profile: the perf script text arrived as perf/$id.perf.txt" test -s "$run/perf/$id.perf.txt"
check "guest_profile: the manifest records the guest profile (cpu-clock, 99 Hz, 1 profile)" \
	jq -e '.plan.settings.profile.enabled and .plan.settings.profile.freq_hz == 99 and (.profile | .where == "guest" and .event == "cpu-clock" and .profiles == 1)' "$run/manifest.json"

"$top/scripts/flamegraph-fold.sh" "$run" > /dev/null
f=$run/perf/$id.folded
samples=$(awk '{ s += $NF } END { print s + 0 }' "$f" 2>/dev/null || echo 0)
check "guest_profile: the folded profile has samples ($samples)" test "$samples" -gt 0
check "guest_profile: bufbench's frames are symbolized (frame-pointer stacks)" \
	grep -q -e 'bench_client' -e 'read_buffer' -e 'txn_' "$f"
check "guest_profile: kernel frames come from the guest's kallsyms" grep -q '_\[k\]' "$f"

"$top/build/report" "$run" > /dev/null
svg=$(find "$run" -maxdepth 1 -name 'flame-C*.svg' | head -n1)
check "guest_profile: report renders a flame graph for the cell" test -n "$svg"
[ -z "$svg" ] || check "guest_profile: the flame graph is well-formed XML" xmllint --noout "$svg"
# CONTROLS (on with PROFILE): the profiled run has a bare twin, whose
# timings the report uses instead of the profiled run's.
check "guest_profile: the profiled run's bare twin arrived" test -f "$run/runs/$id-ctl.json"
check "guest_profile: the report times the bare twin, not the profiled run" \
	sh -c "tr '\\n' ' ' < '$run/report.txt' | tr -s ' ' | grep -q 'Timings (tps, ratios, waits) are the 1 bare runs'"
tests_done
