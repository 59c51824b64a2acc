#!/bin/sh
# Host model switching, checked in a guest (a guest is a host with a
# debugfs that can switch): boots Debian's 7.0 under TCG with the lab's
# checkout inside, and runs the host-mode bench there (KERNEL=host
# MODELS=lazy,full).  Each cell must have run under its model, read back
# from debugfs; the model the guest booted with must be back afterwards,
# after a finished bench and after one stopped by a signal; a model the
# kernel does not offer, and an unmounted debugfs, must stop the bench
# before anything runs, with the reason.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
# What a host bench runs of the checkout's build/, carried into the guest.
bins="plan bufbench bufmicro report manifest jget runner runstate channel"
for b in $bins; do
	[ -x "$top/build/$b" ] || { fail "host_models_guest: build/$b missing (make first)"; exit 1; }
done
command -v jq >/dev/null || { skip "host_models_guest: no jq (apt-get install jq)"; exit 0; }
command -v cpio >/dev/null || { skip "host_models_guest: no cpio (apt-get install cpio)"; exit 0; }
tmp=$(mktemp -d)
qpid=""
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit '[ -z "$qpid" ] || kill -KILL "$qpid" 2>/dev/null; rm -rf "$tmp"'
guest_kernel host_models_guest
# shellcheck disable=SC1091 # written by guest_kernel
. "$tmp/k"

# The guest's root: the lab's base initramfs, then the checkout's scripts
# and dynamic binaries at their host paths, with jq and the libraries.
PGBENCH=off "$top/scripts/initramfs.sh" "$tmp/base.cpio.gz" > /dev/null
st=$tmp/stage
mkdir -p "$st$top/build" "$st$top/kernels"
cp -r "$top/scripts" "$top/guest" "$st$top/"
find "$top/kernels" -maxdepth 1 -type f -exec cp {} "$st$top/kernels/" \;
copy_with_libs() {
	mkdir -p "$st$(dirname "$2")"
	cp -L "$1" "$st$2"
	ldd "$1" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
		[ -e "$st$lib" ] && continue
		mkdir -p "$st$(dirname "$lib")"
		cp -L "$lib" "$st$lib"
	done
}
for b in $bins; do copy_with_libs "$top/build/$b" "$top/build/$b"; done
copy_with_libs "$(command -v jq)" /usr/bin/jq

# The guest's init: every fact the test checks goes to the channel
# (second serial port) as "@@HB KEY VALUE"; the bench's own output goes to
# the console log.
cat > "$st/hb-init" <<EOF
#!/bin/sh
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t debugfs debugfs /sys/kernel/debug
stty -F /dev/ttyS1 raw -echo
exec 3>/dev/ttyS1
P=/sys/kernel/debug/sched/preempt
say() { echo "@@HB \$*" >&3; }
# bench RUN VAR=value...: the host-mode bench, as make bench runs it.
bench() { r=\$1; shift; env KERNEL=host PAGES=4k CLIENTS=2 REPEAT=1 PGBENCH=off POOL=32M RELATION=128M "\$@" sh scripts/bench.sh "\$r"; }
cd $top
say before "\$(cat \$P)"
bench /tmp/run MODELS=lazy,full DURATION=2
say rc \$?
for f in /tmp/run/runs/*.json; do
	say cell "\$(basename "\$f" .json)" "\$(jq -r '.provenance | "\(.preempt_model) \(.preempt_model_source)"' "\$f")"
done
say after "\$(cat \$P)"
say manifest "\$(jq -c '.host | {preempt_before, preempt_after}' /tmp/run/manifest.json)"
bench /tmp/none MODELS=none DURATION=1 > /tmp/none.out 2>&1
say none-rc \$?
say none-why "\$(grep -o 'MODELS=none:.*' /tmp/none.out)"
say none-made "\$(ls /tmp/none 2>/dev/null | wc -l)"
# Stopped by a signal in the middle of a cell running under full.
# Started as one command, so that \$! is bench.sh itself.
env KERNEL=host PAGES=4k CLIENTS=2 REPEAT=1 PGBENCH=off POOL=32M RELATION=128M MODELS=full DURATION=30 \\
	sh scripts/bench.sh /tmp/int > /tmp/int.out 2>&1 &
b=\$!
i=0
while [ \$i -lt 60 ] && ! grep -q '(full)' \$P; do sleep 1; i=\$((i + 1)); done
say during "\$(cat \$P)"
sleep 2
kill -TERM \$b
wait \$b
say int-rc \$?
say int-after "\$(cat \$P)"
echo "--- the stopped bench's output"; cat /tmp/int.out
umount /sys/kernel/debug
bench /tmp/nodebugfs MODELS=full DURATION=1 > /tmp/nd.out 2>&1
say nodebugfs-rc \$?
say nodebugfs-why "\$(grep -o 'not mounted[^;]*' /tmp/nd.out)"
say done
sync
poweroff -f
EOF
chmod 755 "$st/hb-init"
(cd "$st" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 > "$tmp/lab.cpio.gz"
cat "$tmp/base.cpio.gz" "$tmp/lab.cpio.gz" > "$tmp/boot.cpio.gz"

: > "$tmp/chan.log"
# One vCPU, on virtual time.  A switch rewrites every preemption static
# call with text_poke_bp (int3 first, then the tail, then the first byte,
# each step followed by an IPI that serializes the other CPUs).  Under
# multi-threaded TCG a second vCPU once executed the int3 after the last
# sync and the guest died "Fatal exception in interrupt" (RIP one byte into
# a call in tear_down_vmas): TCG's cross-vCPU code modification, not the
# kernel, since the sequence is exact on one CPU.  What this test checks,
# the switch and its restore, needs no second CPU.
start=$(date +%s)
"$top/build/plan" --boot-argv ACCEL=icount VCPUS=1 MEM_MB=1024 PREEMPTLAB_GUEST_APPEND=rdinit=/hb-init > "$tmp/argv"
"$top/scripts/qemu-boot.sh" "$tmp/argv" "$K_IMAGE" "$tmp/boot.cpio.gz" "$tmp/console.log" "$tmp/chan.log" \
	> "$tmp/qemu.log" 2>&1 &
qpid=$!
i=0
while kill -0 "$qpid" 2>/dev/null && [ $i -lt 420 ] && ! grep -q '^@@HB done' "$tmp/chan.log"; do
	sleep 1; i=$((i + 1))
done
kill -KILL "$qpid" 2>/dev/null || true
wait "$qpid" 2>/dev/null || true
qpid=""
took=$(( $(date +%s) - start ))
hb() { sed -n "s/^@@HB $1 //p" "$tmp/chan.log" | tr -d '\r' | sed 's/ *$//' | head -n1; }
if ! grep -q '^@@HB done' "$tmp/chan.log"; then
	tail -n 40 "$tmp/console.log"; cat "$tmp/chan.log"
	fail "host_models_guest: the guest did not finish within ${took}s"
	exit 1
fi
pass "host_models_guest: the guest ran the host-mode benches (${took}s)"
before=$(hb before)
check "host_models_guest: the guest booted 7.0 with lazy ($before)" test "$before" = "full (lazy)"
rc=$(hb rc)
[ "$rc" = 0 ] || tail -n 60 "$tmp/console.log"
check "host_models_guest: MODELS=lazy,full on the host finished (rc $rc)" test "$rc" = 0
for m in lazy full; do
	got=$(hb "cell bufbench-host-$m-4k-tas-c2-r1")
	check "host_models_guest: the $m cell ran under $m, read back from debugfs ($got)" test "$got" = "$m debugfs"
done
check "host_models_guest: lazy, the model it had, is back after the bench ($(hb after))" \
	test "$(hb after)" = "full (lazy)"
check "host_models_guest: the manifest records the model before and after ($(hb manifest))" \
	test "$(hb manifest)" = '{"preempt_before":"lazy","preempt_after":"lazy"}'
check "host_models_guest: MODELS=none, which 7.0 does not offer, is refused (rc $(hb none-rc))" test "$(hb none-rc)" = 2
check "host_models_guest: with the reason ($(hb none-why))" test -n "$(hb none-why)"
check "host_models_guest: and nothing was made" test "$(hb none-made)" = 0
check "host_models_guest: during the stopped bench the model was full ($(hb during))" test "$(hb during)" = "(full) lazy"
check "host_models_guest: the stopped bench exits as interrupted ($(hb int-rc))" \
	test "$(hb int-rc)" = 130 -o "$(hb int-rc)" = 143
ia=$(hb int-after)
check "host_models_guest: and lazy is back after it ($ia)" test "$ia" = "full (lazy)"
[ "$ia" = "full (lazy)" ] || sed -n '/--- the stopped bench/,$p' "$tmp/console.log"
check "host_models_guest: without debugfs MODELS is refused (rc $(hb nodebugfs-rc))" test "$(hb nodebugfs-rc)" = 2
check "host_models_guest: saying debugfs is not mounted" test -n "$(hb nodebugfs-why)"
tests_done
