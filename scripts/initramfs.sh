#!/bin/sh
# Builds the guest's self-contained initramfs: busybox-static, the lab's
# static binaries and the guest runner; no kernel modules, so any packaged
# kernel boots it.  When scripts/pg-guest-files.sh exists and PGBENCH is not
# off, the files it prints (absolute paths, one a line) and the shared
# libraries ldd finds for them are added at the same paths.  With PROFILE=on
# the host's perf goes in the same way (guest/runner.sh records each
# bufbench cell with it), linked as /bin/perf.
# Usage: scripts/initramfs.sh OUT.cpio.gz
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
[ $# -eq 1 ] || die "usage: $0 OUT.cpio.gz"
out=$1
top=$(lab_top)
busybox=${BUSYBOX:-/bin/busybox}
# BUFBENCH_STATIC: another static build of bufbench (e.g. a custom one).
bench=${BUFBENCH_STATIC:-$top/build/bufbench-static}

# ldd fails on a static binary ("not a dynamic executable").
{ [ -x "$busybox" ] && ! ldd "$busybox" >/dev/null 2>&1; } ||
	die "$busybox is not a static busybox; apt-get install busybox-static"
[ -x "$bench" ] || die "no $bench; run make build-all first"

# Scratch files live inside the mktemp directory, never beside it: a name
# such as "$stage.pgfiles" in /tmp is predictable, and another user could
# have a link waiting there.  stage/ is what goes into the initramfs.
work=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$work"'
stage=$work/stage
mkdir -p "$stage/bin" "$stage/guest" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp"
cp "$busybox" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$bench" "$stage/bin/bufbench-static"
# The attachment's one-file reproducer, run by the runner after the cells.
rmin=$top/build/repro-min-static
if [ -x "$rmin" ]; then cp "$rmin" "$stage/bin/repro-min"; fi
cp "$top/guest/init" "$stage/init"
cp "$top/guest/runner.sh" "$stage/guest/runner.sh"
chmod 755 "$stage/init" "$stage/guest/runner.sh"
# The kernel opens /dev/console before init runs; devtmpfs comes later.
mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true

# copy_with_libs FILE: FILE and what it links against, at the same paths.
copy_with_libs() {
	[ -e "$1" ] || die "$1 (asked for the guest) does not exist"
	mkdir -p "$stage$(dirname "$1")"
	cp -L "$1" "$stage$1"
	[ "$(head -c4 "$1" | tr -d '\177')" = ELF ] || return 0
	ldd "$1" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}
pgfiles=$top/scripts/pg-guest-files.sh
if [ -x "$pgfiles" ] && [ "${PGBENCH:-}" != off ]; then
	"$pgfiles" > "$work/pgfiles" || die "$pgfiles failed (above); or build without it: PGBENCH=off"
	while read -r f; do copy_with_libs "$f"; done < "$work/pgfiles"
fi

# The real perf binary: Debian's /usr/bin/perf is either perf itself or a
# shell wrapper that execs perf_<its kernel's version>, which would look for
# perf_<the guest's version> there; the newest perf_* serves any kernel
# (perf's kernel interface only grows).
find_perf() {
	if [ -n "${PERF:-}" ]; then command -v "$PERF"; return; fi
	p=$(command -v perf 2>/dev/null) || p=""
	if [ -n "$p" ] && [ "$(head -c4 "$p" | tr -d '\177')" = ELF ]; then echo "$p"; return; fi
	for c in /usr/bin/perf_*; do [ -x "$c" ] && p=$c; done
	[ -n "$p" ] && [ "$(head -c4 "$p" | tr -d '\177')" = ELF ] && echo "$p"
}
case ${PROFILE:-off} in
on|1|yes)
	if perf=$(find_perf) && [ -n "$perf" ]; then
		copy_with_libs "$perf"
		[ "$perf" = /bin/perf ] || ln -s "$perf" "$stage/bin/perf"
	else
		note "PROFILE=on: no perf binary on the host to put in the guest (apt-get install linux-perf); guests run unprofiled"
	fi ;;
esac

mkdir -p "$(dirname "$out")"
repro_cpio "$stage" > "$out.tmp"
mv "$out.tmp" "$out"
