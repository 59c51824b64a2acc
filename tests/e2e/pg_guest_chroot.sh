#!/bin/sh
# The guest side without QEMU: builds the real initramfs (scripts/initramfs.sh
# with the files scripts/pg-guest-files.sh names), unpacks it, and runs
# scripts/pg-run.sh in a chroot of it under busybox sh, with no postgres
# user, no jq, no runuser: what a guest has.  Checks that the file list is
# complete and that the scripts are busybox-clean, then that the chroot is
# left with no process.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
# shellcheck source=tests/e2e/pg_lib.sh
. "$top/tests/e2e/pg_lib.sh"

why=$(pg_test_prereq)
[ -z "$why" ] || { skip "pg_guest_chroot: $why"; exit 0; }
bb=${BUSYBOX:-/bin/busybox}
command -v file >/dev/null 2>&1 ||
	{ skip "pg_guest_chroot: no file command, which scripts/initramfs.sh needs (apt-get install file)"; exit 0; }
file "$bb" 2>/dev/null | grep -q 'statically linked' ||
	{ skip "pg_guest_chroot: no static busybox (apt-get install busybox-static)"; exit 0; }
[ -x "$top/build/bufbench-static" ] ||
	{ skip "pg_guest_chroot: no build/bufbench-static, which scripts/initramfs.sh requires"; exit 0; }
command -v cpio >/dev/null 2>&1 || { skip "pg_guest_chroot: no cpio"; exit 0; }

work=$(mktemp -d /tmp/preemptlab-pgchroot.XXXXXX)
root=$work/root
hp0=$(hp_total)
# in_root: processes whose root directory is the chroot.
in_root() {
	for d in /proc/[0-9]*; do
		[ "$(readlink "$d/root" 2>/dev/null)" = "$root" ] && echo "${d#/proc/}"
	done
	return 0
}
cleanup() {
	for p in $(in_root); do kill -KILL "$p" 2>/dev/null || true; done
	for m in tmp dev sys proc; do umount "$root/$m" 2>/dev/null || umount -l "$root/$m" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

if PGBENCH=on "$top/scripts/initramfs.sh" "$work/initrd.cpio.gz" > "$work/build.log" 2>&1; then
	pass "pg_guest_chroot: initramfs with PostgreSQL built ($(du -k "$work/initrd.cpio.gz" | cut -f1) KiB)"
else
	fail "pg_guest_chroot: initramfs with PostgreSQL built"; sed 's/^/  /' "$work/build.log"
	tests_done; exit
fi
mkdir -p "$root"
(cd "$root" && zcat "$work/initrd.cpio.gz" | cpio -id --quiet)
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount -t devtmpfs dev "$root/dev"
# /tmp stays the initramfs's own directory, as in the guest (guest/init):
# a tmpfs there would hide a checkout that lives under /tmp.

# The guest runner's very call (docs/postgres.md); huge_pages=try
# exercises the reservation path under busybox too.
rc=0
printf 'kind\tguest\nlabel\tchroot\n' > "$root/tmp/unit.conf"
# The numbers and runs a plan gives pg-run.sh with pgbench
# (lab/plan/runner_policy.c, pg_runs.c): the chroot has no build/plan to ask.
"$top/build/plan" --runner-policy >> "$root/tmp/unit.conf"
"$top/build/plan" --pg-runs current select-only 2 1 1 > "$root/tmp/pg.runs"
chroot "$root" /bin/busybox env -i PATH=/bin \
	/bin/busybox sh -c "/bin/busybox --install -s /bin && sh $top/scripts/pg-run.sh --unit-conf /tmp/unit.conf --huge-pages try --runs /tmp/pg.runs --duration 3 --shared-buffers 16M --scale 3 /tmp/run" \
	> "$work/run.log" 2>&1 || rc=$?
check "pg_guest_chroot: pg-run.sh under busybox sh exits 0 (rc $rc)" [ "$rc" = 0 ]
[ "$rc" = 0 ] || sed 's/^/  /' "$work/run.log"
doc=$(find "$root/tmp/run/runs" -name 'pgbench-chroot-*-hptry-s_lock-select-only-c2-r1.json' 2>/dev/null | head -n1)
if [ -n "$doc" ]; then
	jt() { jq -e "$1" "$doc" >/dev/null; }
	check "pg_guest_chroot: result complete with tps > 0" \
		jt '.complete and .results.tps > 0 and .sampler.samples > 0'
	check "pg_guest_chroot: page size recorded for huge_pages=try ($(jq -r .provenance.page_size_kb "$doc") kB)" \
		jt '.provenance.page_size_kb > 0 and .provenance.page_policy == "huge_pages=try"'
else
	fail "pg_guest_chroot: a result document in the chroot's runs/"
fi
check "pg_guest_chroot: a postgres user was created for the server" grep -q '^postgres:' "$root/etc/passwd"
sleep 1
left=$(in_root)
check "pg_guest_chroot: no process left in the chroot${left:+: $left}" [ -z "$left" ]
check "pg_guest_chroot: no cluster or socket directory left" \
	sh -c "! ls -d '$root'/tmp/run/pgcluster.* '$root'/tmp/run/pgsock.* 2>/dev/null"
check "pg_guest_chroot: huge page pool as before" [ "$(hp_total)" = "$hp0" ]
tests_done
