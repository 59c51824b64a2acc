#!/bin/sh
# The arm64 7.2-lab (ARCH=arm64, cross-built from the same source, patch
# and fragments as amd64's, less the rseq slice extension that arm64 7.2
# cannot have): with the image built, its config holds what the guest path
# needs, and one guest boot per model (preempt= on its command line, under
# icount on qemu-system-aarch64) reads that model back from debugfs and
# lands a one-cell bufbench run; the report compares with 7.2-lab/none.
#
# The cross-build takes ~40 min on 2 cores, so the test builds only when
# told how long it may take: PREEMPTLAB_TEST_DEADLINE (epoch seconds)
# leaves room for twice the catalog's estimate plus the boots, and the disk
# has ~8 GB free (the rule of tests/long/kernel_lab.sh).  Otherwise, with
# no image in the cache, it skips, naming the command.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
series=7.2-lab
command -v jq >/dev/null || { skip "kernel_lab_arm64: no jq (apt-get install jq)"; exit 0; }
for tool in qemu-system-aarch64 aarch64-linux-gnu-gcc; do
	command -v "$tool" >/dev/null ||
		{ skip "kernel_lab_arm64: no $tool (./configure --install-deps: qemu-system-arm, gcc-aarch64-linux-gnu)"; exit 0; }
done
export ARCH=arm64

# --- the image: cached, or built when the time allows -------------------------------
built_kernel kernel_lab_arm64 "$series" "the arm64 $series" "make kernel KERNEL=$series ARCH=arm64" 900
# shellcheck disable=SC1091 # written by kernel-resolve.sh
. "$tmp/k"
check "kernel_lab_arm64: the image is the patched arm64 build (release $K_RELEASE, $(basename "$K_IMAGE"))" \
	sh -c "case '$K_RELEASE' in 7.2.*-lab) ;; *) exit 1 ;; esac && file -L '$K_IMAGE' | grep -q 'ARM64 boot executable\|Linux kernel ARM64'"
for opt in PREEMPT_DYNAMIC PREEMPT_LAZY VIRTIO_CONSOLE VIRTIO_PCI HUGETLBFS SERIAL_AMBA_PL011_CONSOLE SERIAL_8250_PCI RSEQ_STATS ARM64_4K_PAGES FTRACE KPROBE_EVENTS EVENT_TRACING; do
	check "kernel_lab_arm64: its config has CONFIG_$opt=y" grep -qx "CONFIG_$opt=y" "$K_CONFIG"
done
check "kernel_lab_arm64: ... and no rseq slice extension (arm64 7.2 has no GENERIC_ENTRY)" \
	sh -c "! grep -q '^CONFIG_RSEQ_SLICE_EXTENSION=y' '$K_CONFIG'"

# --- one boot per model, one cell each ------------------------------------------------
make -C "$top" cross-guest > "$tmp/cross.out" 2>&1 || { tail -n 20 "$tmp/cross.out"; fail "kernel_lab_arm64: make cross-guest"; tests_done; exit 1; }
export KERNEL=$series MODELS=none,voluntary,full,lazy PAGES=4k LOCKS=tas
export CLIENTS=2 DURATION=2 REPEAT=1 PGBENCH=off POOL=32M RELATION=128M
export ACCEL=icount VCPUS=2 REPRO_MIN=off ICOUNT_EPOCH=2026-01-01 EVIDENCE=on
if "$top/scripts/bench.sh" "$tmp/run" > "$tmp/out" 2>&1; then
	pass "kernel_lab_arm64: the four-model bench on the arm64 $series finished"
else
	tail -n 30 "$tmp/out"; fail "kernel_lab_arm64: the four-model bench on the arm64 $series"
fi
for m in none voluntary full lazy; do
	d=$(find "$tmp/run/runs" -name "bufbench-$series-$m-4k-tas-*c2-r1.json" 2>/dev/null | head -n1)
	if [ -z "$d" ]; then
		fail "kernel_lab_arm64: no document for $series/$m (the run has: $(find "$tmp/run/runs" -name "*.json" -exec basename {} \; 2>/dev/null | tr '\n' ' '))"; continue
	fi
	want=$(echo "none voluntary full lazy" | sed "s/\\b$m\\b/($m)/")
	# shellcheck disable=SC2016 # jq's variables
	check "kernel_lab_arm64: $m: the aarch64 guest booted $m and debugfs reads '$want' ($(jq -r .provenance.preempt_model_raw "$d"))" \
		jq -e --arg m "$m" --arg want "$want" '.provenance | .arch == "aarch64" and .preempt_model == $m and
			.preempt_model_source == "debugfs" and (.preempt_model_raw | rtrimstr(" ")) == $want' "$d"
	check "kernel_lab_arm64: $m: the cell ran ($(jq .results.transactions "$d") transactions)" \
		jq -e '.results.transactions > 0' "$d"
	# fragments/arm64-trace.config: the evidence works on the arm64 build,
	# faults marked by the kprobe on handle_mm_fault.
	check "kernel_lab_arm64: $m: EVIDENCE=on joined the trace, faults from the kprobe ($(jq -c '.evidence.fault_event, .evidence.holds' "$d" 2>/dev/null | tr '\n' ' '))" \
		jq -e '(.evidence.fault_event | startswith("kprobe")) and .evidence.holds > 0' "$d"
done
check "kernel_lab_arm64: the report compares the models on one kernel" \
	grep -q '^compared with: 7.2-lab/none' "$tmp/run/summary.txt"
check "kernel_lab_arm64: no QEMU left" no_guest_left "$tmp/run"
tests_done
