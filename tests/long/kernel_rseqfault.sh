#!/bin/sh
# 7.2-rseqfault, the kernel-side prototype of issue 26 (kernels/patches/
# 0002-...: a preemption falling due inside a user page fault taken with a
# slice extension requested is left to the exit to user mode): both its
# patches apply, in order, to Debian's packaged linux-source-7.2 (a dry
# run, always); with the image built (`make kernel KERNEL=7.2-rseqfault`,
# never started here: a second ~23 min build), one guest boot per model
# reads the model back and runs an rseq:20 mitigation cell with the
# kernel's slice counters.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
series=7.2-rseqfault
command -v jq >/dev/null || { skip "kernel_rseqfault: no jq (apt-get install jq)"; exit 0; }

if "$top/scripts/kernel-patch-check.sh" "$series" > "$tmp/check" 2> "$tmp/check.err"; then
	check "kernel_rseqfault: 0001 then 0002 apply to the packaged source ($(tr '\n' ' ' < "$tmp/check"))" \
		grep -q '^0002-rseq-honour-slice-request-inside-user-page-fault.patch: applies to linux-source-7.2 ' "$tmp/check"
elif grep -q 'apt-get update of .* failed' "$tmp/check.err"; then
	skip "kernel_rseqfault: Debian's archive is unreachable: cannot fetch linux-source-7.2"
	tests_done; exit 0
else
	cat "$tmp/check.err"; fail "kernel_rseqfault: the patch check failed"
fi

if ! "$top/scripts/kernel-resolve.sh" "$series" > "$tmp/k" 2> "$tmp/k.err"; then
	skip "kernel_rseqfault: $series is not built (\`make kernel KERNEL=$series\`, ~23 min here); then this test boots it once per model"
	tests_done; exit 0
fi
export KERNEL=$series MODELS=none,voluntary,full,lazy MITIGATIONS=none,rseq:20 SCENARIO=mitigations
export CLIENTS=4 DURATION=20 STEADY=1 REPEAT=1 PGBENCH=off POOL=16M RELATION=17M
export ACCEL=icount VCPUS=2 REPRO_MIN=off
if "$top/scripts/bench.sh" "$tmp/run" > "$tmp/out" 2>&1; then
	pass "kernel_rseqfault: the four-model bench on $series finished"
else
	tail -n 30 "$tmp/out"; fail "kernel_rseqfault: the four-model bench on $series"
fi
for m in none voluntary full lazy; do
	d=$tmp/run/runs/bufbench-$series-$m-4k-rseq-mit_rseq_20-c4-r1.json
	[ -f "$d" ] || { fail "kernel_rseqfault: no rseq:20 document for $m"; continue; }
	# shellcheck disable=SC2016 # jq's variables
	check "kernel_rseqfault: $m: booted $m, 20 us grants, the kernel's slice counters recorded" \
		jq -e --arg m "$m" '.provenance.preempt_model == $m and .provenance.slice_ext_ns == 20000 and
			.results.kernel_rseq.granted >= .locks.strategy.rseq_grants' "$d"
done
tests_done
