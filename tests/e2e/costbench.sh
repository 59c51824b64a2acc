#!/bin/sh
# costbench, the real binary on this machine: its document has every
# operation with its batches, each fault op took exactly one fault per
# touch, instructions come from where it says (icount's clock when told
# it runs under icount and no PMU answers), bad options are refused, and
# make bench COSTBENCH=on ships logs/costbench-<kernel>-<model>.json that
# the report sets in "The model's own cost"; --wake-in-fault's document
# adds up and, on this machine, a wake inside a fault finds the holder
# off CPU, shipped as logs/wakefault-<kernel>-<model>.json into "A wakeup
# inside a fault"; --remote-wake's trials are what its document says,
# shipped as logs/remotewake-<kernel>-<model>.json into "A wakeup from
# another CPU".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
bin=$top/build/costbench
[ -x "$bin" ] || { fail "costbench: build/costbench missing (make first)"; exit 1; }
command -v jq >/dev/null || { skip "costbench: jq not installed (apt-get install jq)"; exit 0; }
tmp=$(mktemp -d)
hp=/proc/sys/vm/nr_hugepages
hp_added=0
# Two 2 MB pages for its hugetlb faults, given back by difference.
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"; [ "$hp_added" -gt 0 ] && echo $(($(cat $hp) - hp_added)) > $hp; true'
free2m=$(awk '/^HugePages_Free/ { print $2 }' /proc/meminfo)
if [ "$(id -u)" = 0 ] && [ "${free2m:-0}" -lt 2 ] && [ -w "$hp" ]; then
	before=$(cat "$hp")
	echo $((before + 2)) > "$hp" 2>/dev/null || true
	# shellcheck disable=SC2034 # read by the exit trap
	hp_added=$(($(cat "$hp") - before))
fi

doc=$tmp/cb.json
check "costbench runs: 5 batches, 32 faults and 200 calls a batch, exit 0" \
	nice -n 10 "$bin" --batches 5 --fault-pages 32 --syscalls 200 --json "$doc"
check "costbench: tool and schema" jqt "$doc" '.tool == "costbench" and .schema == "preemptlab.costbench/1"'
check "costbench: provenance names the kernel and the model's source" \
	jqt "$doc" '.provenance.kernel_release != "" and .provenance.preempt_model_source != ""'
for op in fault_4k_alloc fault_4k_map getppid sched_yield pread_4k; do
	check "costbench: $op available, 5 batches kept, median within min..max" jqt "$doc" \
		".ops.$op.available and .ops.$op.batches == 5 and (.ops.$op.ns_batches | length) == 5 and
		 .ops.$op.ns.min <= .ops.$op.ns.median and .ops.$op.ns.median <= .ops.$op.ns.max and .ops.$op.ns.min > 0"
done
for op in fault_4k_alloc fault_4k_map; do
	check "costbench: $op took exactly one fault per touch (getrusage)" \
		jqt "$doc" ".ops.$op.each_faulted and .ops.$op.minflt_per_op == 1"
done
if jqt "$doc" '.ops.fault_2m_alloc.available'; then
	check "costbench: a 2 MB fault is one fault per touch and costs more than a 4 KB one" jqt "$doc" \
		'.ops.fault_2m_alloc.minflt_per_op == 1 and .ops.fault_2m_alloc.ns.median > .ops.fault_4k_alloc.ns.median'
	check "costbench: mapping a present 2 MB page is one fault per touch" \
		jqt "$doc" '.ops.fault_2m_map.available and .ops.fault_2m_map.each_faulted'
else
	check "costbench: no 2 MB pages here, and it says why" \
		jqt "$doc" '(.ops.fault_2m_alloc.why | test("MAP_HUGETLB")) and (.ops.fault_2m_alloc | has("ns") | not)'
fi
src=$(jq -r .instructions.source "$doc")
case $src in
perf) check "costbench: perf counts instructions of every op" \
	jqt "$doc" '[.ops[] | select(.available) | .instructions.median > 0] | all' ;;
none) check "costbench: no counter: every op's instructions are null, with the reason" \
	jqt "$doc" '([.ops[] | select(.available) | .instructions == null] | all) and (.instructions.perf_unavailable | length > 0)'
	# Under icount a guest's ns are its instructions times 2^shift.
	# The unit's plan file says so, as the cell runner passes it.
	printf 'virt\ttcg-icount\nicount_shift\t3\n' > "$tmp/unit.conf"
	nice -n 10 "$bin" --batches 3 --fault-pages 8 --syscalls 50 --unit-conf "$tmp/unit.conf" \
		--json "$tmp/ic.json"
	check "costbench: told it runs under icount (shift 3), instructions are ns / 8 in every batch (to the 6 digits printed)" \
		jqt "$tmp/ic.json" '.instructions.source == "icount" and .instructions.icount_shift == 3 and
		 ([.ops[] | select(.available) | [.ns_batches, .instructions_batches] | transpose[] | ((.[0] / 8 - .[1]) | fabs) <= 1e-4 * .[1]] | all)' ;;
*) fail "costbench: instructions.source '$src' is none of perf, icount, none" ;;
esac

# The wakeup test (--wake-in-fault, wake.c): a SCHED_FIFO competitor
# needs root; the slice-requested arm a kernel with the extension.
wd=$tmp/wake.json
if [ "$(id -u)" = 0 ]; then
	check "costbench --wake-in-fault 60 runs, exit 0" nice -n 10 "$bin" --wake-in-fault 60 --json "$wd"
	check "costbench --wake-in-fault: its mode, a fault length and 60 plain trials split into before, in and after the fault" \
		jqt "$wd" '.mode == "wake_in_fault" and .available and .fault_ns > 0 and (.arms.plain.trials | length) == 60 and
		 ([.arms.plain.wake_before_touch, .arms.plain.wake_in_fault, .arms.plain.wake_after_fault] | map(.trials) | add) == 60'
	check "costbench --wake-in-fault: every bucket's off-CPU count is one of its trials, and matches the trials listed" \
		jqt "$wd" '([.arms.plain[] | objects | select(has("off_cpu_before_release")) | .off_cpu_before_release <= .trials] | all) and
		 ([.arms.plain.trials[] | select(.off_cpu_before_release)] | length) ==
		 ([.arms.plain.wake_before_touch, .arms.plain.wake_in_fault, .arms.plain.wake_after_fault] | map(.off_cpu_before_release) | add)'
	# A wake inside the fault asks for the CPU while the holder holds: under
	# every model it is off CPU before it releases (inside the fault or at
	# its return to user mode).
	# A host whose timer interrupt arrives before its expiry by more than a
	# fault's length (seen on this lab's nested-virtualised hosts: every
	# wake of 60 counted before the touch, the touch delayed ~20 us) cannot
	# place a wake inside the fault; guests under icount can.
	if jqt "$wd" '.arms.plain.wake_in_fault.trials > 0'; then
		check "costbench --wake-in-fault: a wake inside the fault finds the holder off CPU in at least 80% of trials" \
			jqt "$wd" '.arms.plain.wake_in_fault.off_cpu_before_release >= 0.8 * .arms.plain.wake_in_fault.trials'
	else
		skip "costbench --wake-in-fault: no wake of 60 landed inside this host's $(jq .fault_ns "$wd") ns fault (its timer comes early by more than that)"
	fi
	if jqt "$wd" '.arms.slice_requested.available'; then
		check "costbench --wake-in-fault: the slice-requested arm ran its 60 trials" \
			jqt "$wd" '(.arms.slice_requested.trials | length) == 60'
	else
		check "costbench --wake-in-fault: no slice extension here, and it says what a kernel needs" \
			jqt "$wd" '.arms.slice_requested.why | test("RSEQ_SLICE_EXTENSION|slice")'
	fi
	check "costbench --wake-in-fault: the competitor's class is recorded (fifo by default)" jqt "$wd" '.competitor == "fifo"'
	# A fair waker (nice -20, the shortest slice, no timer slack): whether
	# its wakeup preempts is the host kernel's; the document and its trials
	# are the test's.
	check "costbench --wake-in-fault 30 --competitor fair runs, exit 0" \
		nice -n 10 "$bin" --wake-in-fault 30 --competitor fair --json "$tmp/wakefair.json"
	check "costbench --competitor fair: recorded, 30 plain trials split into before, in and after the fault" \
		jqt "$tmp/wakefair.json" '.competitor == "fair" and .available and (.arms.plain.trials | length) == 30 and
		 ([.arms.plain.wake_before_touch, .arms.plain.wake_in_fault, .arms.plain.wake_after_fault] | map(.trials) | add) == 30'
	# The reader of the holder's page (--contend-page alloc) and its traced
	# twin (--trace on): whether the reader sleeps is the host kernel's
	# model (none: never); the counts' consistency and the files kept
	# beside the document are the test's.
	wf=$tmp/wakefolio.json
	check "costbench --wake-in-fault 30 --contend-page alloc --trace on runs, exit 0" \
		nice -n 10 "$bin" --wake-in-fault 30 --contend-page alloc --trace on --json "$wf"
	check "costbench --contend-page: recorded; each bucket's sleeps are some of its trials and the trials' own" \
		jqt "$wf" '.contend_page == "alloc" and ([.arms.plain[] | objects | select(has("competitor_blocked")) | .competitor_blocked <= .trials] | all) and
		 ([.arms.plain.trials[] | select(.competitor_blocked)] | length) ==
		 ([.arms.plain.wake_before_touch, .arms.plain.wake_in_fault, .arms.plain.wake_after_fault] | map(.competitor_blocked) | add) and
		 ([.arms.plain.trials[] | has("competitor_read_ns")] | all)'
	if jqt "$wf" '.trace.traced'; then
		check "costbench --trace on: the trace and one hold record a trial beside the document" \
			sh -c "[ -s '${wf%.json}.trace' ] && [ \$(wc -l < '${wf%.json}.holds') = 30 ]"
		check "costbench --trace on: its census has the 30 holds, and no more folio waits than the reader slept" \
			jqt "$wf" '.trace.census.holds == 30 and .trace.census.folios.waits <=
			 ([.arms.plain.trials[] | select(.competitor_blocked)] | length)'
	else
		check "costbench --trace on: cannot trace here, and says why" jqt "$wf" '.trace.why | length > 0'
	fi
	# A page the fault only maps: on this host its fault (~0.75 us) is
	# shorter than the timer's early firing, so no wake need land inside it;
	# the pages must still be mapped by that fault, one each.
	check "costbench --wake-in-fault 20 --contend-page map runs, exit 0, recorded, no trace asked" \
		sh -c "nice -n 10 '$bin' --wake-in-fault 20 --contend-page map --json '$tmp/wfmap.json' 2> /dev/null &&
			jq -e '.contend_page == \"map\" and .fault_ns > 0 and (.arms.plain.trials | length) == 20 and (has(\"trace\") | not)' '$tmp/wfmap.json' > /dev/null"
	check "costbench: without --contend-page the document says off and counts no sleeps" \
		jqt "$wd" '.contend_page == "off" and ([.arms.plain.wake_in_fault | has("competitor_blocked")] | any | not)'
	set +e
	"$bin" --contend-page alloc > /dev/null 2> "$tmp/cp.err"; rcp=$?
	"$bin" --wake-in-fault 3 --contend-page on > /dev/null 2> "$tmp/cp2.err"; rcp2=$?
	set -e
	check "costbench: --contend-page without --wake-in-fault, or not off|alloc|map, refused (exit 2)" \
		sh -c "[ $rcp -eq 2 ] && [ $rcp2 -eq 2 ] && grep -q 'add --wake-in-fault' '$tmp/cp.err' && grep -q 'off, alloc or map' '$tmp/cp2.err'"
	set +e
	"$bin" --competitor fair > /dev/null 2> "$tmp/comp.err"; rc=$?
	"$bin" --wake-in-fault 3 --competitor rt > /dev/null 2> "$tmp/comp2.err"; rc2=$?
	set -e
	check "costbench: --competitor without --wake-in-fault, or not fifo|fair, refused (exit 2)" \
		sh -c "[ $rc -eq 2 ] && [ $rc2 -eq 2 ] && grep -q 'wake-in-fault' '$tmp/comp.err' && grep -q 'fifo or fair' '$tmp/comp2.err'"
else
	skip "costbench --wake-in-fault: not root (its competitor runs SCHED_FIFO)"
fi

# The remote wakeup test (--remote-wake, remote_wake.c): a wakee pinned to
# one CPU, woken from another, four arms.  Its latencies are the host's;
# what is checked is that each trial is what the document says it is.
rw=$tmp/remote.json
if [ "$(nproc)" -ge 2 ]; then
	check "costbench --remote-wake 30 runs, exit 0" nice -n 10 "$bin" --remote-wake 30 --json "$rw"
	check "costbench --remote-wake: its mode, two CPUs, and 30 trials in each of its four arms" \
		jqt "$rw" '.mode == "remote_wake" and .available and .target_cpu != .waker_cpu and
		 ([.arms.idle_spinner, .arms.fair_spinner, .arms.idle_target, .arms.idle_spinner_waker_spins] |
		  map(.trials | length) == [30, 30, 30, 30])'
	check "costbench --remote-wake: every wakee ran on the target CPU, after its wake, each drawn delay in [0, 2 ms)" \
		jqt "$rw" '([.arms[].trials[].cpu] | unique) == [.target_cpu] and ([.arms[].trials[]] | all(.latency_ns > 0 and .delay_ns >= 0 and .delay_ns < 2000000))'
	check "costbench --remote-wake: each arm's late count is its asleep trials over late_ns (100 us), the rest counted apart, and its median lies in its trials' range" \
		jqt "$rw" '.late_ns == 100000 and ([.arms[] | (.late == ([.trials[] | select(.asleep and .latency_ns > 100000)] | length)) and
		 .not_asleep == ([.trials[] | select(.asleep | not)] | length) and
		 .latency_ns.min <= .latency_ns.median and .latency_ns.median <= .latency_ns.max] | all)'
	check "costbench --remote-wake: the spinners' policies and the wakers' waits are recorded, and the cache topology's answer" \
		jqt "$rw" '.arms.idle_spinner.spinner == "SCHED_IDLE" and .arms.fair_spinner.spinner == "SCHED_OTHER" and
		 .arms.idle_target.spinner == "none" and .arms.idle_spinner.waker == "sleeps" and
		 .arms.idle_spinner_waker_spins.waker == "spins" and
		 (.llc_shared | IN("yes", "no", "unknown")) and (.llc_source | length > 0) and
		 (.sched_hrtick | IN("on", "off", "unknown"))'
	check "costbench --remote-wake: each arm counted the target's rescheduling and function-call interrupts (/proc/interrupts)" \
		jqt "$rw" '[.arms[].target_interrupts | .known and .resched >= 0 and .call_function >= 0] | all'
fi
# Its traced twin names the senders of the target's interrupts (root, tracefs).
if [ "$(nproc)" -ge 2 ] && [ "$(id -u)" = 0 ]; then
	instances() { ls -d /sys/kernel/tracing/instances/preemptlab-* /sys/kernel/debug/tracing/instances/preemptlab-* 2>/dev/null || true; }
	instances > "$tmp/inst.before"
	check "costbench --remote-wake 10 --trace-ipis on runs, exit 0" nice -n 10 "$bin" --remote-wake 10 --trace-ipis on --json "$tmp/traced.json"
	instances > "$tmp/inst.after"
	check "costbench --trace-ipis: each arm names its senders with counts, or says why it could not trace" \
		jqt "$tmp/traced.json" '.traced and ([.arms[].interrupt_senders | (.traced and (.senders | all(.count > 0 and (.callsite | length > 0) and (.callsite | test("[+]") | not)))) or (.why | length > 0)] | all)'
	check "costbench --trace-ipis: the instance it made is gone (no instance after that was not there before)" \
		sh -c "[ -z \"\$(comm -13 '$tmp/inst.before' '$tmp/inst.after')\" ]"
fi
rc=0; "$bin" --remote-wake 5 --trace-ipis maybe > "$tmp/bad.out" 2>&1 || rc=$?
check "costbench --trace-ipis maybe is refused (exit 2): on or off" sh -c "[ $rc = 2 ] && grep -q 'on or off' '$tmp/bad.out'"
rc=0; taskset -c 0 "$bin" --remote-wake 5 --json "$rw" > "$tmp/one.out" 2>&1 || rc=$?
check "costbench --remote-wake on one CPU: exit 1, the document says it needs two CPUs and how to get them" \
	sh -c "[ $rc = 1 ] && jq -e '.available == false and (.why | test(\"needs two CPUs.*VCPUS=2\"))' '$rw' > /dev/null"

rc=0; "$bin" --batches 0 > "$tmp/bad.out" 2>&1 || rc=$?
check "costbench --batches 0 is refused (exit 2), naming the range" \
	sh -c "[ $rc = 2 ] && grep -q 'want an integer in 1..' '$tmp/bad.out'"
rc=0; "$bin" --frobnicate 1 > "$tmp/bad.out" 2>&1 || rc=$?
check "costbench refuses an unknown option" sh -c "[ $rc = 2 ] && grep -q 'unknown option --frobnicate' '$tmp/bad.out'"

# Through the runner on the host: one document per model of the unit.
out=$(cd "$top" && nice -n 10 make -s bench KERNEL=host COSTBENCH=on CLIENTS=2 DURATION=1 PAGES=4k \
	PGBENCH=off REPRO_MIN=off REPEAT=1 2>&1) || true
run=$(echo "$out" | sed -n 's/^preemptlab: results in //p' | tail -n1)
if [ -z "$run" ] || [ ! -d "$run" ]; then
	fail "costbench: make bench COSTBENCH=on on the host gave no run directory"
	echo "$out" | tail -n 5
else
	check "costbench: the plan says costbench on" jqt "$run/plan.json" '.settings.costbench'
	cb=""
	for f in "$run"/logs/costbench-host-*.json; do [ -f "$f" ] && cb=$f; done
	check "costbench: the runner shipped logs/costbench-host-<model>.json" test -s "$cb"
	check "costbench: the shipped document is costbench's, labelled host" \
		jqt "$cb" '.tool == "costbench" and .provenance.kernel_label == "host"'
	check "costbench: report.txt has The model's own cost with the fault row" \
		sh -c "grep -q \"^The model's own cost\" '$run/report.txt' && grep -q '^host .*fault_4k_map' '$run/report.txt'"
	wf=""
	for f in "$run"/logs/wakefault-host-*.json; do [ -f "$f" ] && wf=$f; done
	if [ "$(id -u)" = 0 ]; then
		check "costbench: the runner shipped logs/wakefault-host-<model>.json, the plan's second costbench run" \
			jqt "$wf" '.mode == "wake_in_fault" and .provenance.kernel_label == "host" and .trials_per_arm == 120'
		check "costbench: report.txt has A wakeup inside a fault with the host's plain row" \
			sh -c "grep -q '^A wakeup inside a fault' '$run/report.txt' && grep -q '^host .* plain .*/' '$run/report.txt'"
	fi
	rwf=""
	for f in "$run"/logs/remotewake-host-*.json; do [ -f "$f" ] && rwf=$f; done
	check "costbench: the runner shipped logs/remotewake-host-<model>.json, the plan's third costbench run" \
		jqt "$rwf" '.mode == "remote_wake" and .provenance.kernel_label == "host" and .trials_per_arm == 100'
	if [ "$(nproc)" -ge 2 ]; then
		check "costbench: report.txt has A wakeup from another CPU with the host's four arms" \
			sh -c "grep -q '^A wakeup from another CPU' '$run/report.txt' &&
			       [ \$(grep -cE '^host +[a-z]+ +(idle spinner|fair spinner|idle target|waker spins) ' '$run/report.txt') -ge 4 ]"
	fi
	rm -rf "$run"
fi
