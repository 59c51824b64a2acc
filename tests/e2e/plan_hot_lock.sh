#!/bin/sh
# SCENARIO=hot-lock and SPINS_PER_DELAY in the planner (issue 36): the
# scenario's sizing in a guest and on the host (which keeps its own
# fault-around, and the plan says so), what it records in plan.json, the
# bufbench option in every cell, what the user sets winning, and the
# refusals.  No guest boots here.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
plan=$top/build/plan
[ -x "$plan" ] || { fail "plan_hot_lock: build/plan missing (make first)"; exit 1; }
command -v jq >/dev/null || { skip "plan_hot_lock: no jq"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TAB=$(printf '\t')
unset KERNEL HUGEPAGES BASELINE BASELINE_MODELS MODELS PAGES CLIENTS LOCKS STRATEGY DURATION \
	REPEAT POOL RELATION WORKLOAD BUFBENCH_ARGS PGBENCH VCPUS MEM_MB ACCEL SCENARIO EVIDENCE \
	CONTROLS HOLD_EVENTS FAULT_AROUND_BYTES SPINS_PER_DELAY FREELIST_STRIDE 2>/dev/null || true
export PREEMPTLAB_HOST_ARCH=amd64 PREEMPTLAB_QEMU_USER=0

refuse() { # WHAT "MESSAGE PART" VAR=value...: exit 2, the message names the fix
	what=$1 want=$2; shift 2
	rc=0; "$plan" --check --top "$top" "$@" > "$tmp/out" 2>&1 || rc=$?
	check "plan_hot_lock: $what is refused: $(head -n1 "$tmp/out" | cut -c1-120)" \
		sh -c "[ $rc = 2 ] && grep -qF -- '$want' '$tmp/out'"
}
refuse "SPINS_PER_DELAY=always" "use adaptive" SPINS_PER_DELAY=always
refuse "SPINS_PER_DELAY=fixed:0" "fixed:N with N in 1..1000000" SPINS_PER_DELAY=fixed:0
refuse "SPINS_PER_DELAY=fixed:2000000" "fixed:N with N in 1..1000000" SPINS_PER_DELAY=fixed:2000000
refuse "SPINS_PER_DELAY=fixed:12x" "fixed:N with N in 1..1000000" SPINS_PER_DELAY=fixed:12x
refuse "SPINS_PER_DELAY with a futex lock" "LOCKS=futex does not spin" SPINS_PER_DELAY=fixed:1000 LOCKS=tas,futex
refuse "the scenario's spinning with mcs" "LOCKS=mcs does not spin" SCENARIO=hot-lock LOCKS=mcs
refuse "a fault-around on the host, asked beside the scenario" "set in a guest only" SCENARIO=hot-lock FAULT_AROUND_BYTES=4K

run=$tmp/g
mkdir -p "$run"
p=$run/plan.json
"$plan" --top "$top" --out "$run" KERNEL=7.0 SCENARIO=hot-lock > "$tmp/g.out" 2>&1
vcpus=$(jq -r '.scenario.cpus' "$p")
check "plan_hot_lock: a guest: 32 clients a vCPU ($vcpus vCPUs), a relation 8x the pool" \
	jqt "$p" ".settings.clients == [\"$((32 * vcpus))\"] and .scenario.relation_mb == 8 * .scenario.pool_mb and .settings.relation == \"\(.scenario.relation_mb)M\""
check "plan_hot_lock: a guest: the pool holds 20 s of fill at the measured rate, in 64 MB steps" \
	jqt "$p" '.scenario.pool_mb % 64 == 0 and .scenario.pool_mb * 1024 / 8 >= 20 * .scenario.fill_rate_per_s and (.scenario.pool_mb - 64) * 1024 / 8 < 20 * .scenario.fill_rate_per_s and .settings.pool == "\(.scenario.pool_mb)M"'
check "plan_hot_lock: a guest: no fault-around, waiters spinning, 4 KB tas pg simple-update" \
	jqt "$p" '.settings.fault_around_bytes == 4096 and .settings.spins_per_delay == .scenario.spins_per_delay and .settings.pages == ["4k"] and .settings.locks == ["tas"] and .settings.strategies == ["pg"] and .settings.workload == "simple-update"'
check "plan_hot_lock: a guest: stride 64 (one descriptor page a pop), evidence with bare twins, no pgbench" \
	jqt "$p" '.settings.freelist_stride == 64 and .settings.evidence and .settings.controls and (.settings.pgbench.enabled | not)'
check "plan_hot_lock: a guest spins 20,000 (a spin is one instruction under icount)" \
	jqt "$p" '.settings.spins_per_delay == "fixed:20000"'
check "plan_hot_lock: a guest's runs end a second after the fill, 600 s at most (the cell's host-time limit)" \
	jqt "$p" '.settings.steady_s == 1 and .settings.duration_s == 600 and .units[0].run.cell_timeout_s >= 600'
spd=$(jq -r '.settings.spins_per_delay' "$p")
n=$(cat "$run"/plan/*.plan | grep -c "^cell${TAB}bufbench")
check "plan_hot_lock: every one of the $n bufbench cells spins --spins-per-delay $spd" \
	test "$(cat "$run"/plan/*.plan | grep "^cell${TAB}bufbench" | grep -c -- " --spins-per-delay $spd\( \|\$\)")" -eq "$n"
check "plan_hot_lock: each unit's conf carries the fault-around knob the runner applies" \
	sh -c "[ \$(grep -l '^knob${TAB}/sys/kernel/debug/fault_around_bytes 4096 fail keep ' '$run'/plan/*.plan | wc -l) -eq \$(ls '$run'/plan/*.plan | grep -vc bench.conf) ]"
check "plan_hot_lock: a guest: no note about the host's fault-around" sh -c "! grep -q \"host's kernel keeps\" '$tmp/g.out'"

"$plan" --top "$top" --out "$run" KERNEL=7.0 SCENARIO=hot-lock CLIENTS=16 SPINS_PER_DELAY=adaptive FAULT_AROUND_BYTES=64K > /dev/null 2>&1
check "plan_hot_lock: what the user sets wins (clients, adaptive spinning, fault-around)" \
	jqt "$p" '.settings.clients == ["16"] and .settings.spins_per_delay == "adaptive" and .settings.fault_around_bytes == 65536'
check "plan_hot_lock: adaptive: no --spins-per-delay in the cells" \
	sh -c "! grep -q -- '--spins-per-delay' '$run'/plan/*.plan"

rm -rf "$run"; mkdir -p "$run"
"$plan" --top "$top" --out "$run" SCENARIO=hot-lock PGBENCH=off > "$tmp/h.out" 2>&1
cpus=$(nproc)
check "plan_hot_lock: the host: 32 clients a CPU ($cpus), PostgreSQL's most spinning, stride 1024, no fault-around setting" \
	jqt "$p" ".settings.clients == [\"$((32 * cpus))\"] and .settings.spins_per_delay == \"fixed:1000\" and .settings.freelist_stride == 1024 and .settings.fault_around_bytes == null and (.scenario.fault_around | test(\"host kernel\"))"
check "plan_hot_lock: the host: the plan says its fault-around stays the kernel's" \
	grep -q "SCENARIO=hot-lock: the host's kernel keeps its own fault-around" "$tmp/h.out"
check "plan_hot_lock: the host: the pool no more than 30% of RAM, flagged when capped" \
	jqt "$p" "(.scenario.pool_mb <= $(awk '/^MemTotal:/ { print int($2 / 1024 * 0.3) }' /proc/meminfo) + 64) and (.scenario.pool_capped == (.scenario.pool_mb * 1024 / 8 < 20 * .scenario.fill_rate_per_s))"
tests_done
