#!/bin/sh
# The plan files a runner reads hold exactly what it reads (issue 38):
# every key the planner writes into plan/bench.conf or a plan/UNIT.plan is
# read by a runner or a program, and every key they read is written.  A
# key nothing reads is a decision made for nobody (plan.json has the
# rest); a key read that the plan never writes is one a runner makes alone.
# The plans below cover a guest under KVM-or-emulator (with the KVM probe),
# pgbench, profiles and evidence, the host, a one-model kernel and arm64.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
plan=$top/build/plan
[ -x "$plan" ] || { fail "plan_keys: build/plan missing (make first)"; exit 1; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
unset KERNEL HUGEPAGES BASELINE BASELINE_MODELS MODELS PAGES CLIENTS DURATION REPEAT \
	PGBENCH PROFILE EVIDENCE ACCEL PREEMPTLAB_ACCEL ARCH 2>/dev/null || true
export PREEMPTLAB_HOST_ARCH=amd64 PREEMPTLAB_QEMU_USER=0

planit() {
	d=$tmp/$1; shift
	mkdir -p "$d"
	"$plan" --top "$top" --out "$d" "$@" > "$d.out" 2>&1 ||
		fail "plan_keys: build/plan $*: $(tail -n 2 "$d.out")"
}
planit guest KERNEL=7.0 MODELS=lazy,full PGBENCH=on PROFILE=on EVIDENCE=on ACCEL=auto \
	CLIENTS=2 DURATION=3 REPEAT=1 FAULT_AROUND_BYTES=64K BASE_SLICE_US=3000
planit host KERNEL=host PGBENCH=on CLIENTS=2 DURATION=3 REPEAT=1
planit static KERNEL=7.2-lab-static-none BASELINE=none CLIENTS=2 DURATION=3 REPEAT=1 PGBENCH=off
planit arm64 ARCH=arm64 KERNEL=7.0 BASELINE=none CLIENTS=2 DURATION=3 REPEAT=1 PGBENCH=off
check "plan_keys: the plans include a one-model kernel" \
	sh -c "grep -q '^static_model' '$tmp'/static/plan/*.plan"
# The KVM probe is planned only where /dev/kvm is usable (lab/plan/settings.c):
# elsewhere its two keys cannot be written, and are set aside by name.
: > "$tmp/bench.unplannable"
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	check "plan_keys: ACCEL=auto with a usable /dev/kvm plans the probe" \
		grep -q '^probe_timeout_s' "$tmp/guest/plan/bench.conf"
else
	skip "plan_keys: no usable /dev/kvm, so no KVM probe in a plan: probe_timeout_s and probe_fail_text not checked"
	printf 'probe_fail_text\nprobe_timeout_s\n' > "$tmp/bench.unplannable"
fi

# Written: the keys of every plan above.  Read: bench.conf through bconf
# (scripts/bench.sh, run-plan.sh, materials.sh); UNIT.plan through conf and
# conf_all (the cell runner, lab/runner/), uconf (scripts/pg-run.sh), unit_conf_get()
# (the programs), and unit_run_file and plan_values (scripts/run-plan.sh:
# how it runs the unit, its reservations and its cells).
cut -f1 "$tmp"/*/plan/bench.conf | sort -u > "$tmp/bench.written"
for f in "$tmp"/*/plan/*.plan; do
	case $f in */bench.conf) ;; *) cut -f1 "$f" ;; esac
done | sort -u > "$tmp/unit.written"
grep -ohE 'bconf [a-z0-9_]+' "$top"/scripts/*.sh | sed 's/^bconf //' |
	sort -u > "$tmp/bench.read"
{
	grep -ohE '(^|[^a-z_])conf(_all)?\("[a-z0-9_]+"' "$top"/lab/runner/*.c | sed 's/.*("//; s/"$//'
	grep -ohE 'uconf [a-z0-9_]+' "$top"/scripts/*.sh | sed 's/^uconf //'
	grep -rohE 'unit_conf_get\("[a-z0-9_]+"' "$top/lab" | sed 's/.*("//; s/"$//'
	grep -ohE 'unit_run_file [a-z0-9_]+' "$top/scripts/run-plan.sh" | sed 's/^unit_run_file //'
	grep -ohE 'plan_values "[^"]*" [a-z0-9_]+' "$top/scripts/run-plan.sh" | sed 's/.* //'
} | sort -u > "$tmp/unit.read"
# run-plan.sh appends the PostgreSQL server it resolved to the unit's copy
# (pg_root, pg_package; scripts/pg-roots.sh): written at run time, not planned.
printf 'pg_package\npg_root\n' > "$tmp/unit.runtime"
sort -u "$tmp/unit.written" "$tmp/unit.runtime" > "$tmp/unit.all"

unread=$(comm -23 "$tmp/bench.written" "$tmp/bench.read" | tr '\n' ' ')
check "plan_keys: every bench.conf key is read by a runner (unread: ${unread:-none})" test -z "$unread"
sort -u "$tmp/bench.written" "$tmp/bench.unplannable" > "$tmp/bench.all"
unwritten=$(comm -13 "$tmp/bench.all" "$tmp/bench.read" | tr '\n' ' ')
check "plan_keys: every bench.conf key a runner reads is planned (not: ${unwritten:-none})" test -z "$unwritten"
unread=$(comm -23 "$tmp/unit.written" "$tmp/unit.read" | tr '\n' ' ')
check "plan_keys: every UNIT.plan key is read by a runner or a program (unread: ${unread:-none})" test -z "$unread"
unwritten=$(comm -13 "$tmp/unit.all" "$tmp/unit.read" | tr '\n' ' ')
check "plan_keys: every UNIT.plan key read is planned or appended by run-plan.sh (not: ${unwritten:-none})" test -z "$unwritten"
check "plan_keys: the readers were found ($(wc -l < "$tmp/bench.read") bench.conf keys, $(wc -l < "$tmp/unit.read") UNIT.plan keys)" \
	test "$(wc -l < "$tmp/bench.read")" -ge 10 -a "$(wc -l < "$tmp/unit.read")" -ge 20
tests_done
