#!/bin/sh
# Boots one guest: kernel + initramfs, console on the first serial port and
# the result channel on the second, both into host files that QEMU writes as
# the guest does, so they survive a guest crash.  Runs QEMU in the
# foreground (exec), so the caller's $! is QEMU's pid.
# Usage: scripts/qemu-boot.sh KERNEL INITRD CMDLINE ACCEL VCPUS MEM_MB CONSOLE CHANNEL
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
[ $# -eq 8 ] || die "usage: $0 KERNEL INITRD CMDLINE ACCEL VCPUS MEM_MB CONSOLE CHANNEL"
qemu=${QEMU:-qemu-system-x86_64}
command -v "$qemu" >/dev/null || die "no $qemu; apt-get install qemu-system-x86"
case $4 in
kvm) accel="-enable-kvm -cpu host" ;;
# TCG's "max" model has pdpe1gb, which 1 GB pages need.
tcg) accel="-accel tcg,thread=multi -cpu max" ;;
# Virtual time: one instruction is 2^shift ns and the vCPUs take turns on
# one host thread, so the guest's clock no longer follows the host's load.
# The host's last two inputs go too: RDRAND/RDSEED (host entropy) and the
# RTC, which otherwise reads the host's clock.  The same initramfs then
# boots to the same instructions, byte for byte (docs/kernels.md).
icount) accel="-accel tcg,thread=single -icount shift=${PREEMPTLAB_ICOUNT_SHIFT:-3},sleep=off"
	accel="$accel -cpu max,-rdrand,-rdseed -rtc base=${PREEMPTLAB_ICOUNT_EPOCH:-2026-01-01T00:00:00},clock=vm" ;;
*) die "accel must be kvm, tcg or icount, not '$4'" ;;
esac
# Guest RAM from the host's huge pages (GUEST_HUGEPAGES; the runner has
# reserved them): a memfd of hugetlb pages as the machine's memory.
mem=""
case ${PREEMPTLAB_GUEST_HUGEPAGES:-off} in
off) ;;
2m|1g) sz=$(echo "$PREEMPTLAB_GUEST_HUGEPAGES" | tr mg MG)
	mem="-object memory-backend-memfd,id=ram,size=$6M,hugetlb=on,hugetlbsize=$sz,prealloc=on -machine memory-backend=ram" ;;
*) die "PREEMPTLAB_GUEST_HUGEPAGES must be off, 2m or 1g, not '$PREEMPTLAB_GUEST_HUGEPAGES'" ;;
esac
# The command line, for the boot's log (logs/qemu-*.log).
echo "qemu-boot: $qemu -machine pc $accel $mem -smp $5 -m $6 -kernel $1 -append '$3'" >&2
# debug-threads names the vCPU threads "CPU N/KVM" (scripts/qemu-pin.sh).
# shellcheck disable=SC2086 # accel and mem hold several options
exec "$qemu" -nodefaults -no-reboot -display none -monitor none -name preemptlab,debug-threads=on \
	-machine pc $accel $mem -smp "$5" -m "$6" \
	-kernel "$1" -initrd "$2" -append "$3" \
	-serial "file:$7" -serial "file:$8"
