#!/bin/sh
# Builds the guest's self-contained initramfs: busybox-static, the lab's
# static binaries and the cell runner (lab/runner, /bin/runner); no kernel modules, so any packaged
# kernel boots it.  When scripts/pg-guest-files.sh exists and PGBENCH is not
# off, the files it prints (absolute paths, one a line) and the shared
# libraries ldd finds for them are added at the same paths.  With PROFILE=on
# the host's perf goes in the same way (the cell runner records each
# bufbench cell with it), linked as /bin/perf.
# ARCH (a row of the architecture table, lab/common/arch.c; default the
# host's) whose userland is not the host's (host_userland 0: arm64) builds
# that guest's: Debian's busybox-static of ARCH through the private apt
# (dpkg -x, never installed), and the lab's binaries cross-built into the
# row's guest_bin_dir (build-arm64/, make cross-guest).  Its PostgreSQL is
# Debian's build for ARCH (scripts/pg-guest-root.sh, the same file list
# through PG_ROOT) with pgsample cross-built against its libpq (make
# cross-pgsample); the libraries come from the NEEDED closure inside that
# sysroot (build/elfclosure, lab/elfclosure/), since ldd cannot run its
# programs.  No perf: the host's runs on the host's architecture only (the
# planner refuses PROFILE=on there).
# Usage: scripts/initramfs.sh OUT.cpio.gz
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
[ $# -eq 1 ] || die "usage: $0 OUT.cpio.gz"
out=$1
top=$(lab_top)
# The guest's row of the architecture table.
arch=$(arch_info "${ARCH:-}" name) || exit 2
bdir=$top/$(arch_info "$arch" guest_bin_dir)
host_userland=$(arch_info "$arch" host_userland)
machine=$(arch_info "$arch" file_machine)
# debian_busybox: Debian's busybox-static for ARCH, fetched once into the
# cache (the host's suite: its lists are verified like the kernels').
debian_busybox() {
	# shellcheck source=scripts/private-apt.sh
	KAPT_ARCH=$arch . "$(dirname "$0")/private-apt.sh"
	suite=${PREEMPTLAB_GUEST_SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")}
	kapt_update "$suite" >&2
	v=$(kapt_candidates "$suite" '^busybox-static$' | awk '$1 == "busybox-static" {print $3}' | head -n1)
	[ -n "$v" ] || die "no busybox-static for $arch in $suite (private apt in $(kapt_dir "$suite"))"
	d=$PREEMPTLAB_CACHE/guest-$arch/busybox-static-$v
	kapt_fetch "$suite" busybox-static "$v" "$d" >&2
	echo "$d/bin/busybox"
}
if [ "$host_userland" = 1 ]; then busybox=${BUSYBOX:-/bin/busybox}
else busybox=${BUSYBOX:-$(debian_busybox)}; fi
# BUFBENCH_STATIC: another static build of bufbench (e.g. a custom one).
bench=${BUFBENCH_STATIC:-$bdir/bufbench-static}
runner=$bdir/runner-static

# ldd fails on a static binary ("not a dynamic executable").
if [ "$host_userland" = 1 ]; then
	{ [ -x "$busybox" ] && ! ldd "$busybox" >/dev/null 2>&1; } ||
		die "$busybox is not a static busybox; apt-get install busybox-static"
	[ -x "$bench" ] || die "no $bench; run make build-all first"
	[ -x "$runner" ] || die "no $runner; run make build-all first"
else
	file -L "$busybox" | grep -q "$machine.*statically linked" ||
		die "$busybox is not a static $machine busybox"
	[ -x "$bench" ] || die "no $bench; run make cross-guest first (make bench ARCH=$arch does)"
	[ -x "$runner" ] || die "no $runner; run make cross-guest first (make bench ARCH=$arch does)"
fi

# Scratch files live inside the mktemp directory, never beside it: a name
# such as "$stage.pgfiles" in /tmp is predictable, and another user could
# have a link waiting there.  stage/ is what goes into the initramfs.
work=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$work"'
stage=$work/stage
mkdir -p "$stage/bin" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp"
cp "$busybox" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$bench" "$stage/bin/bufbench-static"
# The attachment's one-file reproducer, run by the runner after the cells.
rmin=$bdir/repro-min-static
if [ -x "$rmin" ]; then cp "$rmin" "$stage/bin/repro-min"; fi
# The model's own cost per fault and system call (COSTBENCH), after the cells.
cbin=$bdir/costbench-static
if [ -x "$cbin" ]; then cp "$cbin" "$stage/bin/costbench"; fi
# The cell runner, which guest/init starts.
cp "$runner" "$stage/bin/runner"
cp "$top/guest/init" "$stage/init"
chmod 755 "$stage/init"
# The kernel opens /dev/console before init runs; devtmpfs comes later.
mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true

# copy_with_libs FILE: FILE and what it links against, at the same paths.
# root:FILE is a fetched PostgreSQL root's (PG_FETCHED): copied alone, its
# libraries are the root's own and listed too.
copy_with_libs() {
	case $1 in root:*)
		mkdir -p "$stage$(dirname "${1#root:}")"
		cp -L "${1#root:}" "$stage${1#root:}"
		return 0 ;;
	esac
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
# copy_from_root ROOT SRC: SRC (a file in ROOT, or a lab file on the host)
# to the guest's path: ROOT's prefix dropped, and the lab's build/ read
# from the architecture's own (build-arm64/: pgsample); cp -L stays inside ROOT, since Debian's
# links within a package are relative.
copy_from_root() {
	dest=${2#"$1"}
	src=$2
	case $2 in "$top/build/"*) src=$bdir/${2#"$top/build/"} ;; esac
	[ -e "$src" ] || die "$src (asked for the guest) does not exist"
	mkdir -p "$stage$(dirname "$dest")"
	cp -L "$src" "$stage$dest"
	[ "$(head -c4 "$src" | tr -d '\177')" = ELF ] && echo "$dest" >> "$work/elves"
	return 0
}
pgfiles=$top/scripts/pg-guest-files.sh
# PGBENCH as the plan says (scripts/bench.sh); on unless off, as the
# planner's default is, for every architecture.
if [ "${PGBENCH:-on}" = off ]; then
	:
elif [ "$host_userland" = 1 ]; then
	"$pgfiles" > "$work/pgfiles" || die "$pgfiles failed (above); or build without it: PGBENCH=off"
	while read -r f; do copy_with_libs "$f"; done < "$work/pgfiles"
else
	root=$("$top/scripts/pg-guest-root.sh" "$arch") || die "no $arch PostgreSQL (above); or build without it: PGBENCH=off"
	ARCH=$arch PG_ROOT=$root "$pgfiles" > "$work/pgfiles" || die "$pgfiles failed (above); or build without it: PGBENCH=off"
	: > "$work/elves"
	while read -r f; do copy_from_root "$root" "$f"; done < "$work/pgfiles"
	# pgsample is the lab's (host:), the rest Debian's: all their libraries
	# come from ROOT, where pgsample was linked.
	sed "s|^$top/build/pgsample\$|host:$bdir/pgsample|" "$work/elves" > "$work/elves.root"
	# shellcheck disable=SC2046 # one argument per file (no blanks in them)
	"$top/build/elfclosure" "$root" $(cat "$work/elves.root") > "$work/libs" ||
		die "the $arch guest's PostgreSQL would miss the libraries above"
	while read -r l; do copy_from_root "$root" "$root$l"; done < "$work/libs"
	# A file of the host's architecture here would fail only in the guest.
	find "$stage" -type f | while read -r f; do
		[ "$(head -c4 "$f" | tr -d '\177')" = ELF ] || continue
		file -b "$f" | grep -q "$machine" || die "${f#"$stage"} in the $arch initramfs is not an $machine file ($(file -b "$f" | cut -d, -f1-2))"
	done
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
case ${PROFILE:-off}:$(arch_info "$arch" native) in
*:0) [ "${PROFILE:-off}" = off ] || note "PROFILE=on: the host's perf does not run on $arch; the guest runs unprofiled" ;;
on:*|1:*|yes:*)
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
