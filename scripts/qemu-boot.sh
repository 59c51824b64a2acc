#!/bin/sh
# Boots one guest: kernel + initramfs, console on the first serial port and
# the result channel on the second, both into host files that QEMU writes as
# the guest does, so they survive a guest crash.  Runs QEMU in the
# foreground (exec), so the caller's $! is QEMU's pid.
# PREEMPTLAB_ARCH=arm64 boots an arm64 kernel on qemu-system-aarch64's virt
# machine (-cpu max): its one PL011 (ttyAMA0) is the console, and the result
# channel is a 16550 on PCI (QEMU's pci-serial; Debian's arm64 kernels build
# in SERIAL_8250_PCI), the same UART the x86 channel is, found as ttyS0
# because virt has no legacy ports.  Not a virtio console: its port-open
# events reach the guest from QEMU's main loop, at a host-timed instruction,
# so icount boots with one stopped being repeatable.  The caller's command
# line names both (console=ttyAMA0 preemptlab.chan=ttyS0).
# Usage: scripts/qemu-boot.sh KERNEL INITRD CMDLINE ACCEL VCPUS MEM_MB CONSOLE CHANNEL
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
[ $# -eq 8 ] || die "usage: $0 KERNEL INITRD CMDLINE ACCEL VCPUS MEM_MB CONSOLE CHANNEL"
arch=${PREEMPTLAB_ARCH:-amd64}
case $arch in
amd64) qemu=${QEMU:-qemu-system-x86_64} pkg=qemu-system-x86 machine=pc
	[ "$4" != kvm ] || [ "$(uname -m)" = x86_64 ] ||
		die "an amd64 guest cannot run under KVM on this $(uname -m) host; ACCEL=icount or tcg"
	set -- "$@" -serial "file:$8" ;;
arm64) qemu=${QEMU_AARCH64:-qemu-system-aarch64} pkg=qemu-system-arm machine=virt
	case $8 in *,*) die "the CHANNEL path must hold no comma (QEMU's option syntax): '$8'" ;; esac
	# KVM runs an arm64 guest on an arm64 host only; its GIC is the host's.
	if [ "$4" = kvm ]; then
		[ "$(uname -m)" = aarch64 ] || die "an arm64 guest cannot run under KVM on this $(uname -m) host; ACCEL=icount or tcg"
		machine=virt,gic-version=host
	fi
	set -- "$@" -chardev "file,id=chan,path=$8" -device pci-serial,chardev=chan ;;
*) die "PREEMPTLAB_ARCH must be amd64 or arm64, not '$arch'" ;;
esac
command -v "$qemu" >/dev/null || die "no $qemu; apt-get install $pkg (or ./configure --install-deps)"
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
	# arm64's max CPU keeps FEAT_RNG (QEMU 7.2 has no switch for it), and
	# the virt machine puts random rng-seed and kaslr-seed nodes in the
	# device tree: -seed makes QEMU draw both from a fixed seed instead of
	# the host's entropy.
	cpu="-cpu max,-rdrand,-rdseed"; [ "$arch" = arm64 ] && cpu="-cpu max -seed 1"
	accel="$accel $cpu -rtc base=${PREEMPTLAB_ICOUNT_EPOCH:-2026-01-01T00:00:00},clock=vm" ;;
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
echo "qemu-boot: $qemu -machine $machine $accel $mem -smp $5 -m $6 -kernel $1 -append '$3'" >&2
# debug-threads names the vCPU threads "CPU N/KVM" (scripts/qemu-pin.sh).
k=$1 i=$2 c=$3 n=$5 m=$6 con=$7
shift 8	# what is left: the channel's options (above)
# shellcheck disable=SC2086 # accel and mem hold several options
exec "$qemu" -nodefaults -no-reboot -display none -monitor none -name preemptlab,debug-threads=on \
	-machine "$machine" $accel $mem -smp "$n" -m "$m" \
	-kernel "$k" -initrd "$i" -append "$c" \
	-serial "file:$con" "$@"
