#!/bin/sh
# A guest's result channel with bad block names (issue 15, defect 6): a
# name over 255 characters made awk fail, and scripts/run-plan.sh's
# "|| true" hid it, so one bad header lost every result of the boot.  Now
# each bad name is refused on its own, with a message naming the block,
# and every good block before and after it lands.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

echo '{"a":1}' > "$tmp/j.json"
echo 'a log line' > "$tmp/l.log"
# block KIND NAME FILE: one checked block, as the cell runner (lab/runner/) sends it.
block() {
	echo "@@PL $1 $2 $(wc -c < "$3") $(sha256sum < "$3" | cut -d' ' -f1)"
	base64 "$3"
	echo "@@PL END $2"
}
long=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "x" }')
esc=$(printf 'esc\033]0;title\007')
{
	echo "@@PL READY 7.0.13 none (full) lazy"
	block JSON cellA "$tmp/j.json"
	block JSON "$long" "$tmp/j.json"
	block LOG "$long.log" "$tmp/l.log"
	block PERF "$long" "$tmp/j.json"
	block JSON "$esc" "$tmp/j.json"
	# shellcheck disable=SC2016 # a name that would run a command, literally
	block JSON '$(touch${IFS}PWNED)' "$tmp/j.json"
	block JSON ../escape "$tmp/j.json"
	block JSON .hidden "$tmp/j.json"
	block JSON cellB "$tmp/j.json"
	block LOG pgbench-7.0-lazy-hpoff.progress.log "$tmp/l.log"
	echo "@@PL DONE"
} > "$tmp/chan"

ch=$tmp/ch
run_channel() { "$top/scripts/qemu-channel.sh" "$tmp/chan" "$ch/runs" "$ch/logs" "$ch/perf" > "$tmp/ev" 2> "$tmp/err"; }
check "qemu-channel.sh exits 0 with bad names in the stream" run_channel
check "the good block before the bad ones lands" cmp "$tmp/j.json" "$ch/runs/cellA.json"
check "the good block after them lands" cmp "$tmp/j.json" "$ch/runs/cellB.json"
check "a good log block after them lands" cmp "$tmp/l.log" "$ch/logs/pgbench-7.0-lazy-hpoff.progress.log"
check "their events are listed" sh -c "grep -qx 'ok cellA' '$tmp/ev' && grep -qx 'ok cellB' '$tmp/ev' && grep -qx 'done' '$tmp/ev'"
check "a 300-character name is refused with a message" grep -q 'refused a JSON block: its name (300 characters' "$tmp/err"
check "so is a name with control bytes, shown without them" \
	sh -c "grep -q 'refused a JSON block.*esc?' '$tmp/err' && ! grep -q \"\$(printf '\\033')\" '$tmp/err'"
check "so are \$(...), ../ and a leading dot" \
	test "$(grep -c 'refused a JSON block' "$tmp/err")" -eq 5
check "refused blocks are written nowhere" \
	test "$(find "$ch" -type f ! -name channel-refused.txt | wc -l)" -eq 3
check "the refusals are kept in logs/channel-refused.txt" test "$(wc -l < "$ch/logs/channel-refused.txt")" -eq 7
check "nothing ran" test -z "$(find "$tmp" -name 'PWNED*')"
# run-plan.sh reads the channel every second: each refusal is said once.
check "a second read exits 0" run_channel
check "and does not repeat the refusals" test ! -s "$tmp/err"
tests_done
