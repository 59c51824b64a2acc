#!/bin/sh
# KVM at scale, as far as this machine allows.  The plan: a 96-CPU host
# description gives 96 vCPUs by default, each pinned to its own CPU, cores
# before SMT siblings; huge-page-backed guest RAM is sized in whole pages.
# The runner: a real guest boot (TCG, since KVM is unusable here) with
# PIN_VCPUS=on pins each vCPU thread as planned and reads the affinity
# back, and GUEST_HUGEPAGES=2m backs its RAM with the host's 2 MB pages,
# reserved for the boot and given back; boot and first-result times land
# in the manifest.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
for b in plan bufbench-static; do [ -x "$top/build/$b" ] || { fail "kvm_scale: build/$b missing (make first)"; exit 1; }; done
command -v jq >/dev/null || { skip "kvm_scale: no jq (apt-get install jq)"; exit 0; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
unset VCPUS MEM_MB PIN_VCPUS GUEST_HUGEPAGES HOST_TOPOLOGY ACCEL MODELS BASELINE PAGES 2>/dev/null || true
plan=$top/build/plan

# --- the plan for a 96-thread host, without KVM --------------------------
mkdir -p "$tmp/p96"
"$plan" --top "$top" --out "$tmp/p96" KERNEL=7.0 BASELINE=none PGBENCH=off ACCEL=kvm \
	HOST_TOPOLOGY="$top/tests/data/topology-2x24x2.txt" > "$tmp/p96.out" 2>&1
check "kvm_scale: a 96-thread host description gives 96 vCPUs by default" \
	jqt "$tmp/p96/plan.json" '.settings.vcpus == 96 and .settings.host_cpus == 96'
check "kvm_scale: every vCPU pinned to a different host CPU" \
	jqt "$tmp/p96/plan.json" '(.settings.vcpu_pin | length) == 96 and (.settings.vcpu_pin | unique | length) == 96'
check "kvm_scale: vCPU 0-47 on the 48 cores' first threads, 48-95 on their siblings" \
	test "$(awk '!/^#/ && $1 < 48 { print $3 "." $4 }' "$tmp/p96/plan/pinning.tsv" | sort -u | wc -l)" = 48
check "kvm_scale: each unit's run file carries the pinning for the runner" \
	grep -q "^vcpu_pin	0,1,2,.*,95$" "$tmp/p96/plan/main.lazy.plan"
# Planned for that KVM host (ACCEL=kvm): a plan that will run under TCG or
# icount prints no pinning line.
"$plan" --check --top "$top" KERNEL=7.0 BASELINE=none PGBENCH=off VCPUS=24 ACCEL=kvm \
	HOST_TOPOLOGY="$top/tests/data/topology-2x24x2.txt" GUEST_HUGEPAGES=1g > "$tmp/p24.out" 2>&1
check "kvm_scale: 24 vCPUs stay on one socket ($(grep -o 'vCPU 0-23 -> CPU .*' "$tmp/p24.out"))" \
	grep -q 'vCPU 0-23 -> CPU 0-23$' "$tmp/p24.out"
"$plan" --check --top "$top" KERNEL=7.0 BASELINE=none PGBENCH=off VCPUS=24 ACCEL=icount \
	HOST_TOPOLOGY="$top/tests/data/topology-2x24x2.txt" > "$tmp/p24i.out" 2>&1
check "kvm_scale: an icount plan prints no pinning line" sh -c "! grep -q 'vCPU pinning' '$tmp/p24i.out'"
check "kvm_scale: 1 GB-backed guest RAM is whole 1 GB pages ($(grep -o 'guest memory.*' "$tmp/p24.out"))" \
	grep -Eq 'guest memory [0-9]*[02468]048 MB|guest memory [0-9]+ MB backed by [0-9]+ host huge pages of 1g' "$tmp/p24.out"
rc=0; "$plan" --check --top "$top" KERNEL=7.0 VCPUS=97 HOST_TOPOLOGY="$top/tests/data/topology-2x24x2.txt" > "$tmp/bad.out" 2>&1 || rc=$?
check "kvm_scale: more vCPUs than the host has are capped to its 96 (rc $rc)" grep -q 'VCPUS=97 exceeds the host.s 96 CPUs' "$tmp/bad.out"
rc=0; "$plan" --check --top "$top" KERNEL=7.0 PIN_VCPUS=maybe > "$tmp/bad.out" 2>&1 || rc=$?
check "kvm_scale: PIN_VCPUS=maybe is refused naming the values (rc $rc)" grep -q 'use auto' "$tmp/bad.out"
rc=0; "$plan" --check --top "$top" KERNEL=7.0 HOST_TOPOLOGY=/nonexistent > "$tmp/bad.out" 2>&1 || rc=$?
check "kvm_scale: an unreadable HOST_TOPOLOGY is refused naming lscpu (rc $rc)" grep -q 'lscpu -p=CPU,SOCKET,CORE' "$tmp/bad.out"

# --- the runner: pinned vCPU threads and huge-page-backed RAM in a boot ---------
guest_kernel kvm_scale
hp_total() { cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages; }
hp0=$(hp_total)
run=$tmp/boot
rc=0
KERNEL=7.0 BASELINE=none MODELS=lazy PAGES=4k CLIENTS=2 DURATION=2 REPEAT=1 PGBENCH=off POOL=32M \
	RELATION=128M ACCEL=tcg PIN_VCPUS=on GUEST_HUGEPAGES=2m MEM_MB=512 \
	sh "$top/scripts/bench.sh" "$run" > "$tmp/boot.out" 2>&1 || rc=$?
check "kvm_scale: a pinned, huge-page-backed guest ran its cell (rc $rc)" \
	test -f "$run/runs/bufbench-7.0-lazy-4k-tas-c2-r1.json"
[ "$rc" = 0 ] || tail -n 30 "$tmp/boot.out"
pins=$(find "$run/logs" -name 'pin-*.txt' | head -n1)
n=$(nproc)
check "kvm_scale: each of its $n vCPU threads was pinned and read back ($(tr '\n' ';' < "${pins:-/dev/null}"))" \
	test "$(grep -c '^vcpu [0-9]* tid [0-9]* cpu [0-9]*$' "${pins:-/dev/null}")" = "$n"
check "kvm_scale: vCPU i on the plan's CPU" \
	test "$(awk '{ printf "%s%s", (NR > 1 ? "," : ""), $6 }' "${pins:-/dev/null}")" = "$(jq -r '.settings.vcpu_pin | map(tostring) | join(",")' "$run/plan.json")"
check "kvm_scale: the manifest says the boot was pinned and where the log is" \
	jqt "$run/manifest.json" '.boots[0].vcpus_pinned == true and (.boots[0].pin_log | startswith("logs/pin-"))'
check "kvm_scale: and that guest RAM was the host's 2 MB pages" \
	jqt "$run/manifest.json" '.units[0].guest_memory == "host huge pages of 2m (memfd hugetlb)"'
check "kvm_scale: the QEMU command line had the hugetlb memfd backend" \
	grep -qx 'memory-backend-memfd,id=ram,size=512M,hugetlb=on,hugetlbsize=2M,prealloc=on' "$run/logs/"qemu-*.argv
check "kvm_scale: boot and first-result times are recorded" \
	jqt "$run/manifest.json" '.boots[0].ready_s >= 0 and .boots[0].first_result_s > 0'
check "kvm_scale: the host's 2 MB pool is as before ($hp0)" test "$(hp_total)" = "$hp0"
check "kvm_scale: no QEMU left" no_guest_left "$run"
tests_done
