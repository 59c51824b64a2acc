#!/bin/sh
# ACCEL=icount: Debian's 7.0 on instruction-counted virtual time, with
# nothing of the host reaching the guest (no RDRAND/RDSEED, the RTC on
# virtual time from ICOUNT_EPOCH, initramfs archives that depend on their
# contents alone).  Two separate benches of the same plan and epoch, with
# two vCPUs, then execute the same instructions: every run's tps is the
# same to the last digit, and so is the guest's power-down timestamp.  The
# documents say tcg-icount, the shift and the epoch, and the report says
# what a virtual second is.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

guest_kernel icount

export KERNEL=7.0 BASELINE=none MODELS=lazy PAGES=4k CLIENTS=4 DURATION=2 REPEAT=2
export ACCEL=icount VCPUS=2 PGBENCH=off POOL=64M RELATION=256M ICOUNT_EPOCH=2026-01-01
for b in 1 2; do
	if "$top/scripts/bench.sh" "$tmp/b$b" > "$tmp/b$b.out" 2>&1; then
		pass "icount: boot $b finished"
	else
		tail -n 20 "$tmp/b$b.out"; fail "icount: boot $b"; tests_done; exit 1
	fi
done
doc() { find "$tmp/b$1/runs" -name "bufbench-*-r$2.json" | head -n1; }
check "icount: the documents say tcg-icount, shift 3, epoch 2026-01-01, emulated" \
	jq -e '.provenance | .virtualization == "tcg-icount" and .icount_shift == 3 and
		.icount_epoch == "2026-01-01T00:00:00" and .emulated' "$(doc 1 1)"
for r in 1 2; do
	a=$(jq .results.tps "$(doc 1 $r)") b=$(jq .results.tps "$(doc 2 $r)")
	check "icount: run $r of two separate benches gives the same tps ($a and $b)" test "$a" = "$b"
done
down() { grep -o '^\[ *[0-9.]*\] reboot: Power down' "$tmp/b$1"/logs/console-*.log; }
check "icount: both guests power down at the same virtual instant ($(down 1))" test "$(down 1)" = "$(down 2)"
check "icount: the report says what a virtual second is" \
	sh -c "tr '\\n' ' ' < '$tmp/b1/report.txt' | tr -s ' ' | grep -q 'one guest instruction = 8 ns'"
tests_done
