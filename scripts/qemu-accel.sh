#!/bin/sh
# The KVM probe: prints kvm when a short boot of PROBE_ARGV under KVM
# (the plan's plan/probe.qemu, written when ACCEL is auto and /dev/kvm is
# usable) reaches the guest's userspace within TIMEOUT seconds, icount
# otherwise (some /dev/kvm, e.g. nested or paravirtual ones, exist yet
# hang a stock kernel): TCG on virtual time, whose runs resolve what
# MTTCG's noise hides (docs/kernels.md, "Decision").  scripts/bench.sh
# runs it once, before the final plan, which is planned on its answer
# (build/plan --accel-probed).  The answer is cached per host kernel, QEMU
# and image.
# Usage: scripts/qemu-accel.sh PROBE_ARGV KERNEL INITRD TIMEOUT
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
[ $# -eq 4 ] || die "usage: $0 PROBE_ARGV KERNEL INITRD TIMEOUT"
cache=${PREEMPTLAB_CACHE:-$(lab_top)/kernels/cache}/accel
mkdir -p "$cache"
key=$(printf '%s %s %s' "$(uname -r)" "$("$(head -n1 "$1")" --version | head -n1)" \
	"$(sha256sum "$2" | cut -d' ' -f1)" | sha256sum | cut -c1-16)
# The cache holds the probe's answer: kvm works or it does not (older labs
# wrote "tcg" for the latter).
verdict() { if [ "$(cat "$cache/$key")" = kvm ]; then echo kvm; else echo icount; fi; }
if [ -f "$cache/$key" ]; then verdict; exit 0; fi

tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
timeout -k 5 "$4" "$(dirname "$0")/qemu-boot.sh" "$1" "$2" "$3" "$tmp/console" "$tmp/chan" \
	>"$tmp/out" 2>&1 || true
if grep -q preemptlab-probe-ok "$tmp/console" 2>/dev/null; then
	echo kvm > "$cache/$key"
else
	note "KVM probe boot failed or did not reach userspace within ${4}s ($(head -c 200 "$tmp/out" | tr '\n' ' ')): using TCG on virtual time (icount; ACCEL=tcg for MTTCG)"
	echo no-kvm > "$cache/$key"
fi
verdict
