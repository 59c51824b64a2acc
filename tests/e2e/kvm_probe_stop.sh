#!/bin/sh
# The KVM probe stops as soon as QEMU reports a boot KVM cannot go on with
# (issue 35): a paravirtual /dev/kvm (kvm_pvm, FACTS 9) stops a stock
# kernel at "KVM internal error. Suberror: 1" and QEMU pauses the guest,
# which the probe then waited out for its whole 30 s.  A fake QEMU prints
# that and stays paused; the probe must answer icount within a few seconds,
# say why, and leave no fake QEMU running.  The planner gives the words.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
[ -x "$top/build/plan" ] || { fail "kvm_probe_stop: build/plan missing (make first)"; exit 1; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
cat > "$tmp/qemu-fake" <<'Q'
#!/bin/sh
[ "${1:-}" = --version ] && { echo "QEMU emulator version 7.2.0 (fake)"; exit 0; }
echo $$ > "$(dirname "$0")/fake.pid"	# the QEMU the probe must stop (exec keeps it)
echo "KVM internal error. Suberror: 1" >&2
echo "extra data[0]: 0x0000000000000000" >&2
exec sleep 60
Q
chmod +x "$tmp/qemu-fake"
printf '%s\n' "$tmp/qemu-fake" -kernel '{kernel}' -initrd '{initrd}' > "$tmp/probe.qemu"
echo image > "$tmp/bzImage"

# The planner's words, as bench.sh passes them (bench.conf probe_fail_text):
# it plans a probe only where /dev/kvm is usable.
words=""
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	mkdir "$tmp/run"
	rc=0; env -u PREEMPTLAB_ACCEL "$top/build/plan" --top "$top" --out "$tmp/run" KERNEL=7.0 ACCEL=auto \
		PGBENCH=off > "$tmp/plan.out" 2>&1 || rc=$?
	words=$(sed -n 's/^probe_fail_text\t//p' "$tmp/run/plan/bench.conf" 2>/dev/null)
	check "kvm_probe_stop: the plan gives the probe QEMU's words for it (rc $rc): '$words'" \
		test "$words" = "KVM internal error"
else
	skip "kvm_probe_stop: no usable /dev/kvm here, so no probe in the plan: the probe is given the words"
fi

t0=$(date +%s)
rc=0; v=$(PREEMPTLAB_CACHE=$tmp/cache "$top/scripts/qemu-accel.sh" "$tmp/probe.qemu" "$tmp/bzImage" /dev/null 30 \
	"${words:-KVM internal error}" 2> "$tmp/err") || rc=$?
s=$(($(date +%s) - t0))
check "kvm_probe_stop: the probe answers icount (rc $rc, '$v')" test "$rc" = 0 -a "$v" = icount
check "kvm_probe_stop: ...within 10 s of a 30 s limit (${s} s)" test "$s" -lt 10
check "kvm_probe_stop: ...saying QEMU reported the error" grep -q "QEMU reported 'KVM internal error'" "$tmp/err"
sleep 0.5
check "kvm_probe_stop: the fake QEMU ran" test -s "$tmp/fake.pid"
check "kvm_probe_stop: ...and is not left running" sh -c "! kill -0 \"\$(cat '$tmp/fake.pid')\" 2>/dev/null"
tests_done
