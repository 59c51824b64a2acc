#!/bin/sh
# An arm64 guest from this x86 host (ARCH=arm64): Debian's arm64 7.0
# through the private apt, booted on qemu-system-aarch64's virt machine
# under icount, one short bufbench cell over the PCI-serial channel, run
# twice to the same instruction (same tps to the last digit, same console),
# and the architecture recorded in the result and the manifest, with the
# kernel's trace of the holds (EVIDENCE=on through a kprobe).  Then the
# planner's refusals of what cannot run on arm64.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

# Refusals first: they need neither QEMU nor the archive.
plan=$top/build/plan
refused() {
	rc=0; "$plan" --check --top "$top" "$@" > "$tmp/refused" 2>&1 || rc=$?
	[ "$rc" = 2 ] && grep -q "$1" "$tmp/refused"
}
# As an arm64 host plans (PREEMPTLAB_HOST_ARCH=arm64, on any machine):
# arm64 is the default and KVM is allowed; amd64 is the foreign one.
as_arm64() { PREEMPTLAB_HOST_ARCH=arm64 PREEMPTLAB_QEMU_USER=0 "$plan" --check --top "$top" "$@"; }
check "arm64 host: KERNEL=host plans without ARCH (the host's arm64)" as_arm64 KERNEL=host
check "arm64 host: KERNEL=7.0 defaults to arm64's 7.0 (baseline 6.12 voluntary)" \
	sh -c "PREEMPTLAB_HOST_ARCH=arm64 '$plan' --check --top '$top' KERNEL=7.0 2>&1 | grep -q \"arm64 build has no PREEMPT_NONE; the baseline runs its voluntary\""
check "arm64 host: ARCH=amd64 guests are refused, naming the fix" \
	sh -c "PREEMPTLAB_HOST_ARCH=arm64 '$plan' --check --top '$top' ARCH=amd64 KERNEL=7.0 2>&1 | grep -q 'run amd64 guests from an amd64 machine'"
check "arm64 host: ACCEL=kvm is allowed for an arm64 guest" as_arm64 ACCEL=kvm KERNEL=7.0 PGBENCH=off
check "arm64 host: a built kernel without an arm64 recipe is refused for its guests too" \
	sh -c "PREEMPTLAB_HOST_ARCH=arm64 '$plan' --check --top '$top' KERNEL=7.2-rseq 2>&1 | grep -q 'has no arm64 recipe'"
# As an x86 host plans.
export PREEMPTLAB_HOST_ARCH=amd64
check "arm64: KERNEL=host with ARCH=arm64 is refused" refused ARCH=arm64 KERNEL=host
check "arm64: ACCEL=kvm is refused for an arm64 guest" refused ACCEL=kvm KERNEL=7.0 ARCH=arm64
# Under qemu-user (tests/native/arm64_chroot.sh; PREEMPTLAB_QEMU_USER=1
# says so here) hugetlb mappings cannot work: compare keeps 4 KB and says
# why, a huge page size asked by name is refused.
qu() { PREEMPTLAB_QEMU_USER=1 "$plan" --check --top "$top" KERNEL=host "$@" 2>&1; }
check "qemu-user: HUGEPAGES=compare plans 4 KB only, saying why" \
	sh -c "PREEMPTLAB_QEMU_USER=1 '$plan' --check --top '$top' KERNEL=host 2>&1 | grep -q 'compare: 4 KB pages only (under qemu-user'"
qrefused() { rc=0; qu "$@" > "$tmp/refused" || rc=$?; [ "$rc" = 2 ] && grep -q "$1.*qemu-user" "$tmp/refused"; }
check "qemu-user: HUGEPAGES=on is refused, naming qemu-user" qrefused HUGEPAGES=on
check "qemu-user: PAGES=4k,2m is refused, naming qemu-user and PAGES=4k" \
	sh -c "PREEMPTLAB_QEMU_USER=1 '$plan' --check --top '$top' KERNEL=host PAGES=4k,2m 2>&1 | grep -q 'PAGES=2m: under qemu-user.*or PAGES=4k'"
check "qemu-user: PG_HUGE_PAGES=on is refused" qrefused PG_HUGE_PAGES=on HUGEPAGES=off
check "arm64: an unknown ARCH is refused, naming amd64 and arm64" refused ARCH=sparc KERNEL=7.0
check "arm64: ... and the refusal names the fix" grep -q 'use amd64 or arm64' "$tmp/refused"
check "arm64: a kernel with no arm64 package or recipe is refused, naming those that have one" \
	sh -c "'$plan' --check --top '$top' KERNEL=7.2-rseq ARCH=arm64 2>&1 | grep -q 'arm64 packages (6.12 7.0 7.2) or a built series with one (7.2-lab)'"
check "arm64: arm64 7.0 offers full only (Debian builds it without PREEMPT_DYNAMIC)" \
	sh -c "'$plan' --check --top '$top' KERNEL=7.0 ARCH=arm64 MODELS=lazy 2>&1 | grep -q \"offers the models 'full'\""

unset PREEMPTLAB_HOST_ARCH	# the boots below are this machine's own
if under_qemu_user; then
	skip "arm64: guest boots under qemu-user would be qemu-system-aarch64 emulated twice over; boot arm64 guests natively or from x86 (make bench ARCH=arm64)"
	tests_done; exit 0
fi
for tool in qemu-system-aarch64 aarch64-linux-gnu-gcc; do
	if ! command -v "$tool" > /dev/null; then
		skip "arm64: no $tool (./configure --install-deps: qemu-system-arm, gcc-aarch64-linux-gnu)"
		tests_done; exit 0
	fi
done
if ! ARCH=arm64 "$top/scripts/kernel-resolve.sh" 7.0 > "$tmp/k" 2> "$tmp/k.err"; then
	if grep -q -e 'apt-get update of .* failed' -e 'download .* failed' "$tmp/k.err"; then
		skip "arm64: Debian's archive is unreachable and no arm64 7.0 image is cached"
		tests_done; exit 0
	fi
	cat "$tmp/k.err"; fail "arm64: resolve 7.0 for arm64"; exit 1
fi
# shellcheck disable=SC1091 # written just above
. "$tmp/k"
check "arm64: the resolved 7.0 is Debian's arm64 package" \
	sh -c "[ '$K_ARCH' = arm64 ] && echo '$K_PACKAGE' | grep -q -- '-arm64\$'"
make -C "$top" cross-guest > "$tmp/cross.out" 2>&1 || { tail -n 20 "$tmp/cross.out"; fail "arm64: make cross-guest"; exit 1; }

export KERNEL=7.0 ARCH=arm64 BASELINE=none PAGES=4k CLIENTS=2 DURATION=2 REPEAT=1
export PGBENCH=off REPRO_MIN=off POOL=64M RELATION=256M ICOUNT_EPOCH=2026-01-01 EVIDENCE=on
run=$tmp/run
start=$(date +%s)
if "$top/scripts/bench.sh" "$run" > "$tmp/out" 2>&1; then
	pass "arm64: 7.0 arm64 guest bench finished ($(( $(date +%s) - start ))s)"
else
	cat "$tmp/out"; tail -n 25 "$run"/logs/console-*.log; fail "arm64: 7.0 arm64 guest bench"
fi
f=$run/runs/bufbench-7.0-full-4k-tas-c2-r1.json
if [ -f "$f" ]; then
	check "arm64: the result's provenance.arch is aarch64" test "$(jq -r .provenance.arch "$f")" = aarch64
	check "arm64: the result has the arm64 release $K_RELEASE" \
		test "$(jq -r .provenance.kernel_release "$f")" = "$K_RELEASE"
	check "arm64: the static model full is recorded (from the catalog, not unknown)" \
		test "$(jq -r .provenance.preempt_model "$f")" = full
	check "arm64: the cell ran under icount with tps" \
		jqt "$f" '.provenance.virtualization == "tcg-icount" and .results.tps > 0'
	# arm64 has no exceptions:page_fault_user: the evidence's faults come
	# from a kprobe on handle_mm_fault, and the fill phase's holds fault.
	check "arm64: EVIDENCE=on marks faults with the kprobe on handle_mm_fault, and fill holds faulted" \
		jqt "$f" '.evidence.fault_event == "kprobe:handle_mm_fault" and .evidence.trace_lost == 0 and ([.evidence.phases[] | select(.name == "fill") | .holds_with_fault] | add) > 0'
else
	fail "arm64: no result arrived over the channel"
fi
# The same plan and epoch again: arm64 icount boots replay too (-seed for
# the device tree's random seeds, a 16550 rather than a virtio console).
if "$top/scripts/bench.sh" "$tmp/again" > "$tmp/again.out" 2>&1; then
	g=$tmp/again/runs/bufbench-7.0-full-4k-tas-c2-r1.json
	check "arm64: a second bench replays the first: same tps ($(jq -r .results.tps "$f" 2>/dev/null) and $(jq -r .results.tps "$g" 2>/dev/null))" \
		test "$(jq -r .results.tps "$f" 2>/dev/null)" = "$(jq -r .results.tps "$g" 2>/dev/null)"
	check "arm64: ... and a byte-identical console" \
		cmp -s "$run/logs/console-7.0-full-boot1.log" "$tmp/again/logs/console-7.0-full-boot1.log"
else
	cat "$tmp/again.out"; fail "arm64: the second 7.0 arm64 guest bench"
fi
check "arm64: the manifest names the unit's architecture aarch64 and arm64 QEMU" \
	jqt "$run/manifest.json" '(.units[0].arch == "aarch64") and (.qemu | test("aarch64|QEMU"))'
check "arm64: the console is the PL011 (ttyAMA0)" grep -q 'ttyAMA0' "$run/logs/console-7.0-full-boot1.log"
check "arm64: the summary names aarch64" grep -q aarch64 "$run/summary.txt"
check "arm64: no QEMU left" no_guest_left "$run"
tests_done
