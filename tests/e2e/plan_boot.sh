#!/bin/sh
# The plan decides how each unit boots and how long it may take
# (lab/plan/boot.c), the runner only executes it: the planned QEMU argv
# (plan/UNIT.qemu), command line and limits (plan/UNIT.plan, units[].run
# in plan.json) for amd64, arm64, icount, TCG, pinning and huge-page-backed
# RAM; the test hooks reach the plan; then one short 7.0 boot under icount
# whose logged argv (logs/qemu-TAG.argv) is the planned one with its paths
# filled in, whose limits (logs/limits-UNIT.txt) are the planned ones, and
# whose kernel saw the planned command line.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
plan=$top/build/plan
[ -x "$plan" ] || { fail "plan_boot: build/plan missing (make first)"; exit 1; }
command -v jq >/dev/null || { skip "plan_boot: no jq"; exit 0; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
TAB=$(printf '\t')
unset KERNEL HUGEPAGES BASELINE BASELINE_MODELS MODELS MODEL_SWITCH PAGES CLIENTS LOCKS \
	DURATION WARMUP REPEAT POOL RELATION PGBENCH PG_SCALE VCPUS MEM_MB ACCEL PREEMPTLAB_ACCEL \
	ARCH PIN_VCPUS GUEST_HUGEPAGES ICOUNT_EPOCH ICOUNT_SHIFT PREEMPTLAB_BOOT_TIMEOUT \
	PREEMPTLAB_CELL_TIMEOUT PREEMPTLAB_PG_TIMEOUT PREEMPTLAB_GUEST_APPEND QEMU QEMU_AARCH64 2>/dev/null || true
export PREEMPTLAB_HOST_ARCH=amd64 PREEMPTLAB_QEMU_USER=0

# planit DIR VAR=value...: a plan in DIR (its notes kept in DIR.err).
planit() {
	d=$1; shift
	mkdir -p "$d"
	"$plan" --top "$top" --out "$d" "$@" > "$d.out" 2> "$d.err" ||
		{ fail "plan_boot: build/plan $*: $(cat "$d.err")"; return 1; }
}
ur() { awk -F "$TAB" -v k="$2" '$1 == k { print $2; exit }' "$1"; }
# argv_has FILE ARG...: the argv holds these arguments, consecutively.
argv_has() {
	f=$1; shift
	want=$(printf '%s\n' "$@")
	awk -v n="$#" -v want="$want" 'BEGIN { split(want, w, "\n") }
		{ a[NR] = $0 } END { for (i = 1; i + n - 1 <= NR; i++) { ok = 1
			for (j = 1; j <= n; j++) if (a[i + j - 1] != w[j]) ok = 0
			if (ok) exit 0 } exit 1 }' "$f"
}
# after FILE ARG: the argument that follows ARG.
after() { awk -v k="$2" 'p { print; exit } $0 == k { p = 1 }' "$1"; }

# --- amd64 under icount ---------------------------------------------------
a=$tmp/amd64
planit "$a" KERNEL=7.0 BASELINE=none MODELS=lazy,full PAGES=4k,1g CLIENTS=2 DURATION=3 WARMUP=1 \
	REPEAT=1 PG_SCALE=5 PG_DURATION=4 ACCEL=icount ICOUNT_EPOCH=2026-01-01 VCPUS=2
q=$a/plan/main.lazy.qemu r=$a/plan/main.lazy.plan
check "plan_boot: amd64: one argv per guest unit, none without units" \
	test "$(find "$a/plan" -name '*.qemu' | wc -l)" = 2
check "plan_boot: amd64: the emulator and machine are the table's (qemu-system-x86_64, pc)" \
	sh -c "[ \"\$(head -n1 '$q')\" = qemu-system-x86_64 ] && [ \"\$(awk 'p { print; exit } \$0 == \"-machine\" { p = 1 }' '$q')\" = pc ]"
check "plan_boot: amd64: icount on virtual time, shift 3, no host entropy" \
	argv_has "$q" -accel tcg,thread=single -icount shift=3,sleep=off -cpu max,-rdrand,-rdseed
check "plan_boot: amd64: the RTC starts at ICOUNT_EPOCH, boot 1's own" \
	argv_has "$q" -rtc base=2026-01-01T00:00:00,clock=vm
check "plan_boot: amd64: vCPUs and RAM are the plan's ($(ur "$a/plan/bench.conf" vcpus), $(ur "$a/plan/bench.conf" mem_mb) MB)" \
	argv_has "$q" -smp "$(ur "$a/plan/bench.conf" vcpus)" -m "$(ur "$a/plan/bench.conf" mem_mb)"
check "plan_boot: amd64: console then channel on the two serial ports" \
	argv_has "$q" -append "$(ur "$r" cmdline)" -serial 'file:{console}' -serial 'file:{channel}'
check "plan_boot: amd64: kernel and initrd are placeholders the runner fills" \
	argv_has "$q" -kernel '{kernel}' -initrd '{initrd}'
cl=$(ur "$r" cmdline)
check "plan_boot: amd64: the command line names the console, the model and the 1 GB pages ($cl)" \
	test "$cl" = "console=ttyS0 panic=-1 cryptomgr.notests=1 hugepagesz=1G hugepages=$(jq -r .sizing.hugepages_1g "$a/plan.json") preempt=lazy"
check "plan_boot: amd64: the full unit boots preempt=full" \
	grep -q 'preempt=full$' "$a/plan/main.full.plan"
check "plan_boot: plan.json's units[].run.qemu is the argv file, line for line" \
	sh -c "jq -r '.units[] | select(.id == \"main.lazy\") | .run.qemu[]' '$a/plan.json' | cmp -s - '$q'"
check "plan_boot: plan.json's units[].run.cmdline is the run file's" \
	test "$(jq -r '.units[] | select(.id == "main.lazy") | .run.cmdline' "$a/plan.json")" = "$cl"
check "plan_boot: icount limits: boot 180 s, a cell warmup + duration + 120 s, 3 attempts" \
	test "$(ur "$r" boot_timeout_s) $(ur "$r" cell_timeout_s) $(ur "$r" attempts)" = "180 124 3"
check "plan_boot: icount plans no pinning (PIN_VCPUS=auto pins under KVM)" test -z "$(ur "$r" vcpu_pin)"
check "plan_boot: the runner's conf says tcg-icount and the shift" \
	test "$(ur "$a/plan/main.lazy.plan" virt) $(ur "$a/plan/main.lazy.plan" icount_shift)" = "tcg-icount 3"
check "plan_boot: a two-model kernel gets no static model" sh -c "! grep -q '^static_model' '$a/plan/main.lazy.plan'"
check "plan_boot: the progress line's estimates are in bench.conf" \
	test "$(ur "$a/plan/bench.conf" est_cell_s)" -gt 0 -a "$(ur "$a/plan/bench.conf" est_pg_setup_s)" -gt 0 \
		-a "$(ur "$a/plan/bench.conf" est_pg_run_s)" -gt 0 -a "$(ur "$a/plan/bench.conf" est_boot_s)" -gt 0
check "plan_boot: no probe without ACCEL=auto" test ! -e "$a/plan/probe.qemu"

# The pgbench limit follows the planned scale (a bigger scale loads longer).
big=$tmp/bigscale
planit "$big" KERNEL=7.0 BASELINE=none MODELS=lazy PAGES=4k CLIENTS=2 DURATION=3 WARMUP=1 \
	REPEAT=1 PG_SCALE=50 PG_DURATION=4 ACCEL=icount
small=$(ur "$r" pg_timeout_s) large=$(ur "$big/plan/main.lazy.plan" pg_timeout_s)
check "plan_boot: the pgbench limit grows with PG_SCALE ($small s at 5, $large s at 50)" test "$large" -gt "$small"
h=$tmp/host
planit "$h" PAGES=4k CLIENTS=2 DURATION=3 REPEAT=1
check "plan_boot: the host's pgbench scale is planned: tables ~2x shared_buffers (128M: 18)" \
	test "$(ur "$h/plan/host.plan" pg_scale)" = 18
check "plan_boot: the host unit boots nothing: no argv, no boot limit, a cell limit" \
	test ! -e "$h/plan/host.qemu" -a "$(ur "$h/plan/host.plan" boot_timeout_s)" = 0 -a "$(ur "$h/plan/host.plan" cell_timeout_s)" = 63
check "plan_boot: the host's runner conf names its programs in the checkout" \
	test "$(ur "$h/plan/host.plan" bufbench)" = "$top/build/bufbench"

# --- the test hooks reach the plan ------------------------------------------
k=$tmp/hooks
PREEMPTLAB_BOOT_TIMEOUT=20 PREEMPTLAB_CELL_TIMEOUT=2 PREEMPTLAB_PG_TIMEOUT=15 \
	PREEMPTLAB_GUEST_APPEND='rdinit=/bin/busybox -- sleep 100000' \
	planit "$k" KERNEL=7.0 BASELINE=none MODELS=lazy PAGES=4k CLIENTS=2 DURATION=3 REPEAT=1 ACCEL=icount
check "plan_boot: PREEMPTLAB_BOOT/CELL/PG_TIMEOUT become the unit's limits" \
	test "$(ur "$k/plan/main.lazy.plan" boot_timeout_s) $(ur "$k/plan/main.lazy.plan" cell_timeout_s) $(ur "$k/plan/main.lazy.plan" pg_timeout_s)" = "20 2 15"
check "plan_boot: PREEMPTLAB_GUEST_APPEND ends the command line, in the argv too" \
	argv_has "$k/plan/main.lazy.qemu" -append "console=ttyS0 panic=-1 cryptomgr.notests=1 preempt=lazy rdinit=/bin/busybox -- sleep 100000"

# --- TCG, pinning, huge-page-backed RAM -------------------------------------
t=$tmp/tcg
planit "$t" KERNEL=7.0 BASELINE=none MODELS=lazy PAGES=4k CLIENTS=2 DURATION=3 REPEAT=1 PGBENCH=off \
	ACCEL=tcg PIN_VCPUS=on GUEST_HUGEPAGES=2m MEM_MB=513
check "plan_boot: tcg: multi-threaded TCG on the max CPU" argv_has "$t/plan/main.lazy.qemu" -accel tcg,thread=multi -cpu max
pins=$(jq -r '.settings.vcpu_pin | map(tostring) | join(",")' "$t/plan.json")
check "plan_boot: PIN_VCPUS=on: the unit's pins are the plan's vcpu_pin ($pins)" \
	test "$(ur "$t/plan/main.lazy.plan" vcpu_pin)" = "$pins"
check "plan_boot: GUEST_HUGEPAGES=2m: RAM rounded to 2 MB pages and backed by a hugetlb memfd" \
	argv_has "$t/plan/main.lazy.qemu" -object memory-backend-memfd,id=ram,size=514M,hugetlb=on,hugetlbsize=2M,prealloc=on -machine memory-backend=ram
check "plan_boot: tcg limits: boot 180 s" test "$(ur "$t/plan/main.lazy.plan" boot_timeout_s)" = 180

# --- arm64 -----------------------------------------------------------------
m=$tmp/arm64
if command -v qemu-system-aarch64 >/dev/null; then
	planit "$m" KERNEL=7.0 ARCH=arm64 BASELINE=none PAGES=4k CLIENTS=2 DURATION=3 REPEAT=1 PGBENCH=off ICOUNT_EPOCH=2026-01-01
	q=$m/plan/main.full.qemu
	check "plan_boot: arm64: qemu-system-aarch64's virt machine" \
		test "$(head -n1 "$q") $(after "$q" -machine)" = "qemu-system-aarch64 virt"
	check "plan_boot: arm64 from x86 plans icount, with a fixed seed for the device tree" \
		argv_has "$q" -cpu max -seed 1 -rtc base=2026-01-01T00:00:00,clock=vm
	check "plan_boot: arm64: console on the PL011, the channel a PCI 16550 named on the command line" \
		argv_has "$q" -append "console=ttyAMA0 preemptlab.chan=ttyS0 panic=-1 cryptomgr.notests=1 preempt=full" \
			-serial 'file:{console}' -chardev 'file,id=chan,path={channel}' -device pci-serial,chardev=chan
	check "plan_boot: arm64: Debian's one-model 7.0 (full) is the runner's static model" \
		test "$(ur "$m/plan/main.full.plan" static_model)" = full
else
	skip "plan_boot: arm64: no qemu-system-aarch64"
fi

# --- --boot-argv and the probe ------------------------------------------------
"$plan" --boot-argv ACCEL=kvm VCPUS=1 MEM_MB=512 > "$tmp/kvm.argv"
check "plan_boot: --boot-argv ACCEL=kvm: KVM with the host's CPU" argv_has "$tmp/kvm.argv" -machine pc -enable-kvm -cpu host
rc=0; "$plan" --top "$top" --out "$tmp/bad" --accel-probed hvf > "$tmp/bad.out" 2>&1 || rc=$?
check "plan_boot: --accel-probed hvf is refused (rc $rc)" test "$rc" = 2

# --- no environment channel --------------------------------------------------
check "plan_boot: no script passes PREEMPTLAB_ARCH, _ICOUNT_*, _GUEST_HUGEPAGES or _ACCEL to a child" \
	sh -c "! grep -n 'PREEMPTLAB_ARCH\|PREEMPTLAB_ICOUNT\|PREEMPTLAB_GUEST_HUGEPAGES\|PREEMPTLAB_ACCEL' '$top'/scripts/*.sh"
check "plan_boot: no value reaches the runner's children through the environment (PREEMPTLAB_KERNEL, _VIRT, _MODEL, _GUEST, _PG_PACKAGE; no setenv or putenv in the runner)" \
	sh -c "! grep -rn 'PREEMPTLAB_KERNEL\b\|PREEMPTLAB_VIRT\b\|PREEMPTLAB_MODEL\b\|PREEMPTLAB_GUEST\b\|PREEMPTLAB_PG_PACKAGE\b' '$top/guest' '$top/scripts' '$top/lab' && ! grep -n 'setenv\|putenv' '$top'/lab/runner/*.c"
check "plan_boot: no architecture named in the boot scripts (the table's)" \
	sh -c "! grep -n 'amd64\|arm64\|aarch64\|x86_64\|ttyS\|ttyAMA' '$top/scripts/qemu-boot.sh' '$top/scripts/qemu-accel.sh'"

# --- the rules the runner applies are the plan's ------------------------------
check "plan_boot: the retry rule is planned: a crash before the runner answered with 'Oops:' on the console" \
	test "$(ur "$r" retry_console)" = "Oops:"
check "plan_boot: ... and run-plan.sh names no console text of its own" sh -c "! grep -n 'Oops' '$top/scripts/run-plan.sh'"
c=$tmp/compare
planit "$c" HUGEPAGES=compare CLIENTS=2 DURATION=3 REPEAT=1 PGBENCH=off
check "plan_boot: HUGEPAGES=compare: the host reserves 2 MB and 1 GB pages, both optional" \
	test "$(awk -F "$TAB" '$1 == "reserve" { print $2 }' "$c/plan/host.plan" | cut -d' ' -f1,2,4 | tr '\n' ' ')" = "2m 2048 optional 1g 1048576 optional "
check "plan_boot: ... as many as the plan's sizing.hugepages_2m" \
	test "$(awk -F "$TAB" '$1 == "reserve" && $2 ~ /^2m / { print $2 }' "$c/plan/host.plan" | cut -d' ' -f3)" = "$(jq -r .sizing.hugepages_2m "$c/plan.json")"
planit "$tmp/p2m" PAGES=2m CLIENTS=2 REPEAT=1 PGBENCH=off
check "plan_boot: PAGES=2m asked outright: the reservation is required" \
	grep -q "^reserve${TAB}2m 2048 [0-9]* required" "$tmp/p2m/plan/host.plan"
check "plan_boot: GUEST_HUGEPAGES=2m: the guest unit reserves its RAM's pages, required" \
	sh -c "grep -q '^reserve.ram 2048 $(jq -r .settings.guest_hugepages_count "$t/plan.json") required GUEST_HUGEPAGES=off' '$t/plan/main.lazy.plan'"
check "plan_boot: a host run on the booted model restores nothing; a guest never" \
	test "$(ur "$h/plan/host.plan" restore_model)$(ur "$h/plan/host.plan" restore_model)$(ur "$r" restore_model)" = 000
check "plan_boot: run-plan.sh decides no reservation size, policy or model switch itself" \
	sh -c "! grep -n 'bconf hugepages_\|bconf guest_hugepages_count\|!= \"current\"' '$top/scripts/run-plan.sh'"

# --- the host unit: the limits the runner enforced are the planned ones -------
hr=$tmp/hostrun
rc=0
PAGES=4k CLIENTS=2 DURATION=1 REPEAT=1 PGBENCH=off REPRO_MIN=off COSTBENCH=off POOL=16M RELATION=48M \
	nice -n 10 sh "$top/scripts/bench.sh" "$hr" > "$tmp/hostrun.out" 2>&1 || rc=$?
check "plan_boot: host: the unit ran its cell (rc $rc)" test -f "$hr/runs/bufbench-host-4k-tas-c2-r1.json"
[ "$rc" = 0 ] || tail -n 20 "$tmp/hostrun.out"
for key in accel attempts boot_timeout_s cell_timeout_s pg_timeout_s vcpu_pin retry_console restore_model; do
	check "plan_boot: host: the runner enforced the planned $key ($(ur "$hr/plan/host.plan" "$key"))" \
		test "$(ur "$hr/logs/limits-host.txt" "$key")" = "$(ur "$hr/plan/host.plan" "$key")"
done
check "plan_boot: host: it held the planned reservations (none for 4 KB)" \
	test "$(grep -c '^reserve' "$hr/logs/limits-host.txt")" = "$(grep -c '^reserve' "$hr/plan/host.plan")"
check "plan_boot: host: no QEMU argv for a host unit" sh -c "! ls '$hr/logs/'qemu-*.argv 2>/dev/null"

# --- one real boot from the planned argv --------------------------------------
guest_kernel plan_boot
run=$tmp/run
rc=0
KERNEL=7.0 BASELINE=none MODELS=lazy PAGES=4k CLIENTS=2 DURATION=2 REPEAT=1 PGBENCH=off REPRO_MIN=off \
	POOL=32M RELATION=128M VCPUS=1 ACCEL=icount ICOUNT_EPOCH=2026-01-01 \
	nice -n 10 sh "$top/scripts/bench.sh" "$run" > "$tmp/run.out" 2>&1 || rc=$?
check "plan_boot: the 7.0 icount boot ran its cell (rc $rc)" test -f "$run/runs/bufbench-7.0-lazy-4k-tas-c2-r1.json"
[ "$rc" = 0 ] || tail -n 30 "$tmp/run.out"
ran=$(find "$run/logs" -name 'qemu-*.argv' | head -n1)
q=$run/plan/main.lazy.qemu
check "plan_boot: the runner logged the argv it executed (${ran#"$run"/})" test -s "${ran:-/nonexistent}"
# The logged argv is the planned one, line for line, with the four paths filled.
# shellcheck disable=SC1091 # written by scripts/bench.sh
image=$(. "$run/logs/kernel-main.env" && echo "$K_IMAGE") || image=""
ok=1
if [ "$(wc -l < "$q")" != "$(wc -l < "${ran:-/dev/null}")" ]; then ok=0; fi
paste -d '\n' "$q" "${ran:-/dev/null}" | while IFS= read -r want && IFS= read -r got; do
	case $want in
	'{kernel}') [ -f "$got" ] && [ "$got" = "$image" ] ;;
	'{initrd}') case $got in *.cpio.gz) ;; *) false ;; esac ;;
	'file:{console}') [ "$got" = "file:$run/logs/console-7.0-lazy-boot1.log" ] ;;
	'file:{channel}') case $got in file:/*channel-7.0-lazy-boot1.log) ;; *) false ;; esac ;;
	*) [ "$want" = "$got" ] ;;
	esac || { echo "  planned '$want', ran '$got'"; exit 1; }
done || ok=0
check "plan_boot: ... and is the planned argv with the kernel, initrd, console and channel filled in" test "$ok" = 1
lim=$run/logs/limits-main.lazy.txt
for key in accel attempts boot_timeout_s cell_timeout_s pg_timeout_s vcpu_pin retry_console restore_model; do
	check "plan_boot: the runner enforced the planned $key ($(ur "$run/plan/main.lazy.plan" "$key"))" \
		test "$(ur "$lim" "$key")" = "$(ur "$run/plan/main.lazy.plan" "$key")"
done
check "plan_boot: the guest kernel booted the planned command line" \
	grep -qF "Command line: $(ur "$run/plan/main.lazy.plan" cmdline)" "$run/logs/console-7.0-lazy-boot1.log"
check "plan_boot: the document says tcg-icount from the planned epoch" \
	jqt "$run/runs/bufbench-7.0-lazy-4k-tas-c2-r1.json" '.provenance.virtualization == "tcg-icount" and .provenance.icount_epoch == "2026-01-01T00:00:00"'
# The probe as bench.sh runs it, on a KVM argv: kvm or icount, and cached.
rc=0; v=$(PREEMPTLAB_CACHE=$tmp/cache "$top/scripts/qemu-accel.sh" "$tmp/kvm.argv" "$image" /dev/null 20 \
	2> "$tmp/probe.err") || rc=$?
expect=icount; [ -w /dev/kvm ] && expect="kvm or icount"
check "plan_boot: the KVM probe answers $expect ($v) and caches it" \
	sh -c "[ '$rc' = 0 ] && { [ '$v' = icount ] || [ '$v' = kvm ]; } && [ -n \"\$(ls '$tmp/cache/accel')\" ]"
check "plan_boot: no QEMU left" no_guest_left "$run"
tests_done
