#!/bin/sh
# 7.2-lab, the one kernel that runs all four models: its patch applies to
# Debian's packaged linux-source-7.2 (a dry run, always); with the image
# built, one guest boot per model (preempt= on its command line) reads that
# model back from debugfs and lands a one-cell bufbench run with the rseq
# lock, the grant length set by SLICE_EXT_US and the kernel's own slice
# counters.
#
# Building takes ~23 min on 2 cores, so the test builds only when told how
# long it may take: PREEMPTLAB_TEST_DEADLINE (epoch seconds, .ci/run sets
# it) leaves room for twice the catalog's estimate plus the boots.
# Otherwise, with no image in the cache, it skips, naming the command.
# tests/run.sh runs tests/long/ after everything else.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
series=7.2-lab
command -v jq >/dev/null || { skip "kernel_lab: no jq (apt-get install jq)"; exit 0; }

# --- the patch against the packaged source -------------------------------------
if "$top/scripts/kernel-patch-check.sh" "$series" > "$tmp/check" 2> "$tmp/check.err"; then
	check "kernel_lab: every patch of $series applies to the packaged source ($(tr '\n' ' ' < "$tmp/check"))" \
		grep -q '^0001-sched-offer-none-and-voluntary-beside-lazy.patch: applies to linux-source-7.2 ' "$tmp/check"
elif grep -q 'apt-get update of .* failed' "$tmp/check.err"; then
	skip "kernel_lab: Debian's archive is unreachable: cannot fetch linux-source-7.2"
	tests_done; exit 0
else
	cat "$tmp/check.err"; fail "kernel_lab: the patch check failed"
fi

# --- the image: cached, or built when the time allows -------------------------------
built_kernel kernel_lab "$series" "$series" "make kernel KERNEL=$series" 600
# shellcheck disable=SC1091 # written by kernel-resolve.sh
. "$tmp/k"
check "kernel_lab: the image is the patched build (release $K_RELEASE)" \
	sh -c "case '$K_RELEASE' in 7.2.*-lab) exit 0 ;; *) exit 1 ;; esac"

# --- one boot per model, one rseq cell each --------------------------------------------
export KERNEL=$series MODELS=none,voluntary,full,lazy PAGES=4k LOCKS=rseq STRATEGY=global
export CLIENTS=4 DURATION=2 REPEAT=1 PGBENCH=off POOL=32M RELATION=128M SLICE_EXT_US=50
export ACCEL=icount VCPUS=2 REPRO_MIN=off
if "$top/scripts/bench.sh" "$tmp/run" > "$tmp/out" 2>&1; then
	pass "kernel_lab: the four-model bench on $series finished"
else
	tail -n 30 "$tmp/out"; fail "kernel_lab: the four-model bench on $series"
fi
for m in none voluntary full lazy; do
	d=$tmp/run/runs/bufbench-$series-$m-4k-rseq-global-c4-r1.json
	if [ ! -f "$d" ]; then
		fail "kernel_lab: no document for $series/$m (the run has: $(find "$tmp/run/runs" -name "*.json" -exec basename {} \; | tr '\n' ' '))"; continue
	fi
	want=$(echo "none voluntary full lazy" | sed "s/\\b$m\\b/($m)/")
	# shellcheck disable=SC2016 # jq's variables
	check "kernel_lab: $m: the guest booted $m and debugfs reads '$want' ($(jq -r .provenance.preempt_model_raw "$d"))" \
		jq -e --arg m "$m" --arg want "$want" '.provenance | .preempt_model == $m and
			.preempt_model_source == "debugfs" and (.preempt_model_raw | rtrimstr(" ")) == $want' "$d"
	check "kernel_lab: $m: the rseq cell ran ($(jq .results.transactions "$d") transactions) with 50 us grants" \
		jq -e '.results.transactions > 0 and .provenance.slice_ext_ns == 50000 and .provenance.lock == "rseq"' "$d"
	check "kernel_lab: $m: the kernel's slice counters are recorded (granted $(jq .results.kernel_rseq.granted "$d"), bufbench saw $(jq .locks.strategy.rseq_grants "$d"))" \
		jq -e '.results.kernel_rseq.granted >= .locks.strategy.rseq_grants' "$d"
done
check "kernel_lab: the report compares the models on one kernel" \
	grep -q '^compared with: 7.2-lab/none' "$tmp/run/summary.txt"
check "kernel_lab: and has the rseq table" grep -q '^rseq slice extension per cell' "$tmp/run/summary.txt"
tests_done
