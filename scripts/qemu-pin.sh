#!/bin/sh
# Pins each vCPU thread of a running QEMU to its host CPU, as the plan says
# (plan/bench.conf vcpu_pin: the host CPU of vCPU 0, 1, ...), and reads the
# affinity back.  QEMU runs with -name ...,debug-threads=on, so its vCPU
# threads are named "CPU <index>/KVM" (or /TCG): the thread ids come from
# /proc, which is what QMP's query-cpus-fast reports too.
# Prints "vcpu N tid T cpu C" per vCPU; exits 1 with the reason when the
# threads do not appear within 10 s or a pin does not hold.
# Usage: scripts/qemu-pin.sh QEMU_PID CPU_LIST
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
[ $# -eq 2 ] || die "usage: $0 QEMU_PID CPU_LIST"
pid=$1 list=$2
command -v taskset >/dev/null || die "no taskset (apt-get install util-linux)"
n=$(echo "$list" | tr , '\n' | grep -c .)
# vcpu_threads: "INDEX TID" of every vCPU thread QEMU has made so far.
vcpu_threads() {
	for t in /proc/"$pid"/task/*; do
		c=$(cat "$t/comm" 2>/dev/null) || continue
		case $c in
		"CPU "*/KVM|"CPU "*/TCG) v=${c#CPU }; echo "${v%%/*} ${t##*/}" ;;
		esac
	done
}
i=0
while [ "$(vcpu_threads | wc -l)" -lt "$n" ]; do
	kill -0 "$pid" 2>/dev/null || die "QEMU ($pid) ended before its vCPU threads were pinned"
	if [ $i -ge 100 ]; then
		grep -q 'ALL CPUs' /proc/"$pid"/task/*/comm 2>/dev/null &&
			die "QEMU runs every vCPU on one thread (single-threaded TCG, ACCEL=icount): nothing to pin per vCPU"
		die "only $(vcpu_threads | wc -l) of $n vCPU threads appeared in 10 s"
	fi
	sleep 0.1
	i=$((i + 1))
done
vcpu_threads | sort -n | while read -r v tid; do
	cpu=$(echo "$list" | cut -d, -f$((v + 1)))
	[ -n "$cpu" ] || die "vCPU $v has no host CPU in the plan ($list)"
	taskset -p -c "$cpu" "$tid" > /dev/null
	got=$(taskset -p -c "$tid" | sed 's/.*: *//')
	[ "$got" = "$cpu" ] || die "vCPU $v (thread $tid): affinity reads '$got', not $cpu"
	echo "vcpu $v tid $tid cpu $cpu"
done
