#!/bin/sh
# Prints the accelerator to use for KERNEL: kvm when a short probe boot under
# KVM reaches the guest's userspace within PREEMPTLAB_KVM_PROBE_S seconds,
# icount otherwise (some /dev/kvm, e.g. nested or paravirtual ones, exist yet
# hang a stock kernel): TCG on virtual time, whose runs resolve what MTTCG's
# noise hides (docs/kernels.md, "Decision").  PREEMPTLAB_ACCEL=kvm|tcg|icount
# skips the probe.  The probe's answer is cached per host kernel, QEMU and
# image.
# Usage: scripts/qemu-accel.sh KERNEL INITRD
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
[ $# -eq 2 ] || die "usage: $0 KERNEL INITRD"
case ${PREEMPTLAB_ACCEL:-} in
kvm|tcg|icount) echo "$PREEMPTLAB_ACCEL"; exit 0 ;;
"") ;;
*) die "PREEMPTLAB_ACCEL must be kvm, tcg or icount, not '$PREEMPTLAB_ACCEL'" ;;
esac
if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
	note "no usable /dev/kvm: using TCG on virtual time (icount; ACCEL=tcg for MTTCG)"
	echo icount; exit 0
fi
cache=${PREEMPTLAB_CACHE:-$(lab_top)/kernels/cache}/accel
mkdir -p "$cache"
# The guest's architecture (PREEMPTLAB_ARCH, as qemu-boot.sh reads it) names
# the emulator and the console the probe's answer appears on.
case ${PREEMPTLAB_ARCH:-amd64} in
arm64) qemu=${QEMU_AARCH64:-qemu-system-aarch64} console=ttyAMA0 ;;
*) qemu=${QEMU:-qemu-system-x86_64} console=ttyS0 ;;
esac
key=$(printf '%s %s %s' "$(uname -r)" "$("$qemu" --version | head -n1)" \
	"$(sha256sum "$1" | cut -d' ' -f1)" | sha256sum | cut -c1-16)
# The cache holds the probe's answer: kvm works or it does not (older labs
# wrote "tcg" for the latter).
verdict() { if [ "$(cat "$cache/$key")" = kvm ]; then echo kvm; else echo icount; fi; }
if [ -f "$cache/$key" ]; then verdict; exit 0; fi

tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
limit=${PREEMPTLAB_KVM_PROBE_S:-30}
timeout -k 5 "$limit" "$(dirname "$0")/qemu-boot.sh" "$1" "$2" \
	"console=$console panic=-1 preemptlab.probe" kvm 1 512 "$tmp/console" "$tmp/chan" \
	>"$tmp/out" 2>&1 || true
if grep -q preemptlab-probe-ok "$tmp/console" 2>/dev/null; then
	echo kvm > "$cache/$key"
else
	note "KVM probe boot failed or did not reach userspace within ${limit}s ($(head -c 200 "$tmp/out" | tr '\n' ' ')): using TCG on virtual time (icount; ACCEL=tcg for MTTCG)"
	echo no-kvm > "$cache/$key"
fi
verdict
