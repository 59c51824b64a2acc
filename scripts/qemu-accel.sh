#!/bin/sh
# The KVM probe: prints kvm when a short boot of PROBE_ARGV under KVM
# (the plan's plan/probe.qemu, written when ACCEL is auto and /dev/kvm is
# usable) reaches the guest's userspace within TIMEOUT seconds, icount
# otherwise (some /dev/kvm, e.g. nested or paravirtual ones, exist yet
# stop a stock kernel: kvm_pvm, FAIL_TEXT below): TCG on virtual time, whose runs resolve what
# MTTCG's noise hides (docs/kernels.md, "Decision").  scripts/bench.sh
# runs it once, before the final plan, which is planned on its answer
# (build/plan --accel-probed).  The answer is cached per host kernel, QEMU
# and image.  FAIL_TEXT (the plan's probe_fail_text): QEMU's words for a
# boot KVM cannot go on with ("KVM internal error": a paravirtual KVM such
# as kvm_pvm stops at an instruction its emulator lacks and QEMU pauses the
# guest); the probe stops as soon as QEMU prints them instead of waiting
# out TIMEOUT.
# Usage: scripts/qemu-accel.sh PROBE_ARGV KERNEL INITRD TIMEOUT [FAIL_TEXT]
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
{ [ $# -eq 4 ] || [ $# -eq 5 ]; } || die "usage: $0 PROBE_ARGV KERNEL INITRD TIMEOUT [FAIL_TEXT]"
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
fail_text=${5:-}
timeout -k 5 "$4" "$(dirname "$0")/qemu-boot.sh" "$1" "$2" "$3" "$tmp/console" "$tmp/chan" \
	>"$tmp/out" 2>&1 &
boot=$!
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'kill "$boot" 2>/dev/null || true; rm -rf "$tmp"'
# Watch QEMU's output while it runs: its own report of a boot KVM cannot
# go on with ends the probe at once (timeout forwards the TERM to QEMU).
while kill -0 "$boot" 2>/dev/null; do
	if [ -n "$fail_text" ] && grep -qF -- "$fail_text" "$tmp/out" 2>/dev/null; then
		kill "$boot" 2>/dev/null || true
		break
	fi
	sleep 0.2
done
wait "$boot" 2>/dev/null || true
if grep -q preemptlab-probe-ok "$tmp/console" 2>/dev/null; then
	echo kvm > "$cache/$key"
else
	if [ -n "$fail_text" ] && grep -qF -- "$fail_text" "$tmp/out" 2>/dev/null; then
		why="QEMU reported '$fail_text', stopped at once"
	else
		why="failed or did not reach userspace within ${4}s"
	fi
	note "KVM probe boot $why ($(head -c 200 "$tmp/out" | tr '\n' ' ')): using TCG on virtual time (icount; ACCEL=tcg for MTTCG)"
	echo no-kvm > "$cache/$key"
fi
verdict
