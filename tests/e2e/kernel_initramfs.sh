#!/bin/sh
# The guest initramfs holds what the runner needs (init, a static busybox,
# the static bufbench, the runner), no kernel modules, PostgreSQL's files
# only when asked, and building it changes nothing under /etc/apt.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

etc_apt() { find /etc/apt -type f -exec sha256sum {} + 2>/dev/null | sort; }
etc_apt > "$tmp/apt.before"

if ! PGBENCH=off "$top/scripts/initramfs.sh" "$tmp/small.cpio.gz" 2> "$tmp/err"; then
	cat "$tmp/err"
	fail "initramfs: build (make build-all first?)"
	exit 1
fi
pass "initramfs: builds"
mkdir "$tmp/x"
(cd "$tmp/x" && gzip -dc "$tmp/small.cpio.gz" | cpio -id --quiet)
for f in init bin/busybox bin/sh bin/bufbench-static bin/runner dev/console; do
	check "initramfs: has /$f" test -e "$tmp/x/$f"
done
check "initramfs: /init is executable" test -x "$tmp/x/init"
# ldd fails on a static binary: nothing to load in a guest without libraries.
check "initramfs: busybox is static" sh -c "! ldd '$tmp/x/bin/busybox' >/dev/null 2>&1"
check "initramfs: bufbench is static" sh -c "! ldd '$tmp/x/bin/bufbench-static' >/dev/null 2>&1"
check "initramfs: the runner is the checkout's static build" cmp -s "$tmp/x/bin/runner" "$top/build/runner-static"
check "initramfs: the runner is static" sh -c "! ldd '$tmp/x/bin/runner' >/dev/null 2>&1"
check "initramfs: busybox provides every applet the runner and init call" sh -c "
	for a in mount stty sed grep cat base64 sha256sum wc cut tail nproc uname sync poweroff sysctl gzip timeout; do
		'$tmp/x/bin/busybox' --list | grep -qx \"\$a\" || { echo \"missing applet \$a\"; exit 1; }
	done"
check "initramfs: no kernel modules" test ! -e "$tmp/x/lib/modules"
check "initramfs: PGBENCH=off leaves PostgreSQL out" test ! -e "$tmp/x/usr/lib/postgresql"

if [ -x "$top/scripts/pg-guest-files.sh" ] && "$top/scripts/pg-guest-files.sh" > "$tmp/pgfiles" 2>/dev/null; then
	PGBENCH=on "$top/scripts/initramfs.sh" "$tmp/pg.cpio.gz"
	mkdir "$tmp/y"
	(cd "$tmp/y" && gzip -dc "$tmp/pg.cpio.gz" | cpio -id --quiet)
	missing=0
	while read -r f; do [ -e "$tmp/y$f" ] || { echo "missing $f"; missing=1; }; done < "$tmp/pgfiles"
	check "initramfs: every file pg-guest-files.sh names is included" test "$missing" = 0
	pg=$(head -n1 "$tmp/pgfiles")
	libs_ok=1
	for lib in $(ldd "$pg" | grep -o '/[^ ]*'); do [ -e "$tmp/y$lib" ] || { echo "missing $lib"; libs_ok=0; }; done
	check "initramfs: and the libraries ldd names for $pg" test "$libs_ok" = 1
else
	skip "initramfs: PostgreSQL hook: scripts/pg-guest-files.sh absent or not runnable here"
fi

etc_apt > "$tmp/apt.after"
check "initramfs: /etc/apt is unchanged" cmp -s "$tmp/apt.before" "$tmp/apt.after"
tests_done
