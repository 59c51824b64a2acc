#!/bin/sh
# The lab on an arm64 Debian host, as near as an x86 machine gets: a Debian 12
# arm64 root file system (debootstrap) run under qemu-user through binfmt,
# with a clean clone of this checkout's HEAD inside.  There it runs what an
# arm64 user runs: ./configure --install-deps, make, make bench with the
# defaults (KERNEL=host: the "host" is the chroot), and the tests that need
# no arm64 kernel of their own.  Run by hand (debootstrap and the package
# installation take tens of minutes under emulation), not by make test;
# docs/native-arm64.md says what passes and what qemu-user cannot do.
#
# Usage: tests/native/arm64_chroot.sh [STEP...]   (as root)
#   steps: root (debootstrap when missing), clone, configure, build, bench,
#          test; default: all of them in that order.
# Environment: ARM64_ROOT (/work/arm64-root), ARM64_MIRROR
#   (http://deb.debian.org/debian), ARM64_TESTS (the e2e scripts to run,
#   names under tests/e2e/ without .sh), ARM64_BENCH (make bench's
#   variables, default none: the defaults), ARM64_FRESH (1: clone afresh;
#   0: move an earlier clone to HEAD, keeping its build).
# Exit: 0 every step passed, 1 a step failed (the chroot's mounts are undone
# either way).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/common.sh
. "$top/scripts/common.sh"

root=${ARM64_ROOT:-/work/arm64-root}
mirror=${ARM64_MIRROR:-http://deb.debian.org/debian}
# What runs without an arm64 kernel of its own: no guest boots (they would
# be qemu-system-aarch64 inside qemu-user), no kernel builds.  Not lint:
# ShellCheck reads the same scripts on any architecture, and emulated it
# takes about a minute a file.
tests=${ARM64_TESTS:-plan arm64_guest make_vars test_bufbench bench_host pg_host cross_arm64 repro_min signals hugepages report_fixture report_numbers report_fields compare run_status sanitizers fuzz_smoke}
steps=${*:-root clone configure build bench test}
lab=/root/preemptlab

[ "$(id -u)" = 0 ] || die "arm64_chroot: run as root (debootstrap, chroot and mounts need it)"
case $(uname -m) in
aarch64) die "arm64_chroot: this is an arm64 machine already: run make bench and make test in the checkout" ;;
esac

# binfmt: the kernel hands every aarch64 ELF to qemu-aarch64-static.  The
# F flag (Debian's qemu-aarch64.conf has it) opens the interpreter now, so
# it works inside the chroot, which has no x86 qemu of its own.
binfmt=/proc/sys/fs/binfmt_misc
ensure_binfmt() {
	[ -f "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt" ||
		die "arm64_chroot: cannot mount binfmt_misc at $binfmt"
	if [ ! -f "$binfmt/qemu-aarch64" ]; then
		conf=/usr/lib/binfmt.d/qemu-aarch64.conf
		[ -f "$conf" ] || die "arm64_chroot: no $conf; apt-get install qemu-user-static (./configure --install-deps)"
		cat "$conf" > "$binfmt/register"
	fi
	grep -q '^flags:.*F' "$binfmt/qemu-aarch64" ||
		die "arm64_chroot: $binfmt/qemu-aarch64 lacks the F flag, so it fails inside a chroot; echo -1 > $binfmt/qemu-aarch64 and rerun"
	grep -q '^enabled' "$binfmt/qemu-aarch64" || die "arm64_chroot: $binfmt/qemu-aarch64 is disabled; echo 1 > $binfmt/qemu-aarch64"
}

# shellcheck source=tests/native/chroot-lib.sh
. "$top/tests/native/chroot-lib.sh"
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'unmount_all'

status=0
step_failed() { echo "FAIL: arm64_chroot: $1"; status=1; }

ensure_binfmt
for step in $steps; do
	echo "== arm64_chroot: $step ($(date -u +%H:%M:%S))"
	case $step in
	root)
		if [ ! -x "$root/bin/sh" ]; then
			command -v debootstrap >/dev/null || die "arm64_chroot: apt-get install debootstrap"
			nice debootstrap --arch=arm64 --variant=minbase --include=git,make,ca-certificates \
				bookworm "$root" "$mirror" || { step_failed "debootstrap into $root"; break; }
		fi
		# The chroot must be aarch64 all through, or nothing below means anything.
		# shellcheck disable=SC2016 # expanded inside the chroot
		if chroot "$root" /bin/sh -c 'test "$(uname -m)" = aarch64 && test "$(dpkg --print-architecture)" = arm64'; then
			echo "PASS: arm64_chroot: $root is an arm64 Debian ($(cat "$root/etc/debian_version")) under qemu-user"
		else
			step_failed "$root is not an arm64 root file system"; break
		fi
		;;
	clone)
		# A clean clone of HEAD: what a user's git clone has, no build, no
		# cache.  ARM64_FRESH=0 moves an earlier clone to HEAD instead and
		# keeps its build (make rebuilds what changed; an emulated full
		# build takes minutes).
		if [ "${ARM64_FRESH:-1}" = 0 ] && [ -d "$root$lab/.git" ]; then
			git -C "$root$lab" fetch -q "$top" HEAD
			git -C "$root$lab" checkout -q -f FETCH_HEAD
		else
			rm -rf "$root$lab"
			git clone -q "$top" "$root$lab"
			git -C "$root$lab" checkout -q "$(git -C "$top" rev-parse HEAD)"
		fi
		echo "PASS: arm64_chroot: cloned $(git -C "$top" rev-parse --short HEAD) into $root$lab"
		;;
	configure|build|bench|test)
		bind /proc; bind /sys; bind /dev; bind /dev/pts
		cp /etc/resolv.conf "$root/etc/resolv.conf"
		case $step in
		configure) in_root 'nice ./configure --install-deps' || step_failed "./configure --install-deps" ;;
		build) in_root 'nice make -j2' || step_failed "make" ;;
		bench) in_root "nice make bench ${ARM64_BENCH:-}" || step_failed "make bench ${ARM64_BENCH:-}" ;;
		test)
			list=""
			for t in $tests; do list="$list tests/e2e/$t.sh"; done
			# tests/run.sh's own counting, over the unit tests and this list.
			in_root "nice tests/run.sh unit; for t in $list; do echo \"== \$t\"; nice sh \$t 2>&1; done" \
				> "$root/root/arm64-test.log" 2>&1 || true
			cat "$root/root/arm64-test.log"
			p=$(grep -c '^PASS:' "$root/root/arm64-test.log" || true)
			f=$(grep -c '^FAIL:' "$root/root/arm64-test.log" || true)
			s=$(grep -c '^SKIP:' "$root/root/arm64-test.log" || true)
			echo "arm64_chroot: tests in the chroot: $p passed, $f failed, $s skipped"
			[ "$f" -eq 0 ] || step_failed "$f checks failed in the chroot (log: $root/root/arm64-test.log)"
			;;
		esac
		unmount_all
		;;
	*) die "arm64_chroot: unknown step '$step' (root clone configure build bench test)" ;;
	esac
done
exit "$status"
