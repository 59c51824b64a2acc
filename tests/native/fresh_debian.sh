#!/bin/sh
# A newcomer's run, checked: a fresh Debian 12 amd64 root (debootstrap
# minbase, plus git and make to clone and start), a clean clone of this
# checkout's HEAD inside, and README's quick start run there exactly as
# written: `make bench`, then `make test`; and between them `make kernel
# KERNEL=7.0` in a second clone with nothing built (it once needed a make
# build-all first: issue 35).  Every machine that ran the lab
# before keeps what it installed, so only a root like this one shows a
# missing install step (QEMU once dropped out of configure's list while CI
# stayed green).  The chroot shares this machine's kernel: guests, huge
# pages and tracefs are this kernel's, as they would be on a real machine.
#
# Usage: tests/native/fresh_debian.sh [--from-make-test] [STEP...]   (as root)
#   steps: root (debootstrap when missing), clone, bench, kernel, test;
#     default: all
#   --from-make-test: tests/run.sh's call: runs what PREEMPTLAB_TEST_DEADLINE
#     leaves time for (all; or root, clone, bench and kernel, SKIPping make test;
#     or nothing, SKIPping it all with the command to run by hand).
# Environment: FRESH_ROOT (/work/fresh-debian), FRESH_MIRROR
#   (http://deb.debian.org/debian), FRESH_KEEP (1: keep an earlier root;
#   default 0: a fresh root each run, since a reused root is no longer
#   fresh once configure has installed into it).  A fresh root is unpacked
#   from FRESH_ROOT.pristine.tar, the debootstrap a previous run saved
#   before anything ran in it, when that is under a week old; otherwise
#   debootstrap makes one (and saves it).
# Exit: 0 every step passed, 1 a step failed.  Prints PASS/FAIL/SKIP lines
# with each step's wall time; the chroot's mounts are undone either way.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

from_make_test=0
if [ "${1:-}" = --from-make-test ]; then from_make_test=1; shift; fi
root=${FRESH_ROOT:-/work/fresh-debian}
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
steps=${*:-root clone bench kernel test}
lab=/root/preemptlab

# Measured here (docs/fresh-debian.md): debootstrap ~4 min, make bench with
# configure's installation ~12 min, make test ~45 min without 7.2-lab.
need_bench_s=$((25 * 60)) need_all_s=$((80 * 60))
if [ "$from_make_test" = 1 ]; then
	# Inside the fresh root's own make test there is no deadline: no
	# recursion.
	if [ -z "${PREEMPTLAB_TEST_DEADLINE:-}" ]; then
		skip "fresh_debian: not run by make test without PREEMPTLAB_TEST_DEADLINE (run tests/native/fresh_debian.sh as root, about $((need_all_s / 60)) min)"
		exit 0
	fi
	left=$((PREEMPTLAB_TEST_DEADLINE - $(date +%s)))
	if [ "$left" -ge "$need_all_s" ]; then steps="root clone bench kernel test"
	elif [ "$left" -ge "$need_bench_s" ]; then
		steps="root clone bench kernel"
		skip "fresh_debian: make test in the fresh root needs ~$((need_all_s / 60)) min, $((left / 60)) left: run tests/native/fresh_debian.sh by hand"
	else
		skip "fresh_debian: needs ~$((need_bench_s / 60)) min for make bench in a fresh root, $((left / 60)) left: run tests/native/fresh_debian.sh by hand"
		exit 0
	fi
fi
[ "$(id -u)" = 0 ] || { skip "fresh_debian: needs root (debootstrap, chroot, mounts)"; exit 0; }
[ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] ||
	{ skip "fresh_debian: builds an amd64 root; on arm64 see tests/native/arm64_chroot.sh"; exit 0; }
command -v debootstrap >/dev/null ||
	{ fail "fresh_debian: no debootstrap (apt-get install debootstrap, or ./configure --install-deps)"; exit 1; }

# shellcheck source=tests/native/chroot-lib.sh
. "$top/tests/native/chroot-lib.sh"
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'unmount_all'
elapsed() { s=$(( $(date +%s) - $1 )); echo "$((s / 60))m$((s % 60))s"; }

status=0
for step in $steps; do
	echo "== fresh_debian: $step ($(date -u +%H:%M:%S))"
	t0=$(date +%s)
	# Under make test, the deadline bounds every step: a step that
	# overruns is killed (timeout's 124) and fails, rather than taking the
	# whole run past its limit.
	if [ "$from_make_test" = 1 ]; then
		limit=$((PREEMPTLAB_TEST_DEADLINE - t0 - 60))
		[ "$limit" -gt 60 ] || { skip "fresh_debian: no time left for the $step step"; break; }
	fi
	case $step in
	root)
		if [ "${FRESH_KEEP:-0}" = 1 ] && [ -x "$root/bin/sh" ]; then
			pass "fresh_debian: kept the root in $root (FRESH_KEEP=1: not fresh if configure ran in it)"
			continue
		fi
		unmount_all
		rm -rf "$root"
		pristine=$root.pristine.tar
		if [ -f "$pristine" ] && [ -n "$(find "$pristine" -mtime -7)" ]; then
			mkdir -p "$root"
			tar -C "$root" -xf "$pristine"
			pass "fresh_debian: Debian $(cat "$root/etc/debian_version") minbase unpacked from $pristine (debootstrapped $(date -u -r "$pristine" +%Y-%m-%d), nothing run in it) in $(elapsed "$t0")"
		elif ${limit:+timeout -k 30 "$limit"} nice debootstrap --variant=minbase --include=git,make,ca-certificates \
			bookworm "$root" "$mirror" > "$root.debootstrap.log" 2>&1; then
			tar -C "$root" -cf "$pristine.tmp" . && mv "$pristine.tmp" "$pristine"
			pass "fresh_debian: debootstrap of Debian $(cat "$root/etc/debian_version") minbase in $(elapsed "$t0")"
		else
			fail "fresh_debian: debootstrap into $root failed (log: $root.debootstrap.log)"; status=1; break
		fi
		# Nothing the lab installs may be there already.
		if chroot "$root" /bin/sh -c 'command -v qemu-system-x86_64 || command -v jq || command -v cc' >/dev/null; then
			fail "fresh_debian: the fresh root already has the lab's programs"; status=1; break
		fi
		;;
	clone)
		rm -rf "${root:?}$lab"
		git clone -q "$top" "$root$lab"
		git -C "$root$lab" checkout -q "$(git -C "$top" rev-parse HEAD)"
		pass "fresh_debian: cloned $(git -C "$top" rev-parse --short HEAD) into $root$lab"
		;;
	kernel)
		# A second clone, nothing built and no config.mk, after bench (which
		# installed the packages: configure here only writes config.mk, and
		# the bench step stays a newcomer's first command).
		rm -rf "${root:?}$lab-kernel"
		git clone -q "$top" "$root$lab-kernel"
		git -C "$root$lab-kernel" checkout -q "$(git -C "$top" rev-parse HEAD)"
		bind /proc; bind /sys; bind /dev; bind /dev/pts
		cp /etc/resolv.conf "$root/etc/resolv.conf"
		log=$root/root/fresh-kernel.log
		rc=0
		lab_bench=$lab lab=$lab-kernel
		in_root "make kernel KERNEL=7.0" > "$log" 2>&1 || rc=$?
		lab=$lab_bench
		tail -n 5 "$log"
		img=$(tail -n 1 "$log")
		if [ "$rc" = 0 ] && [ -f "$root$img" ]; then
			pass "fresh_debian: make kernel KERNEL=7.0 in a fresh clone: $img in $(elapsed "$t0")"
		else
			fail "fresh_debian: make kernel KERNEL=7.0 in a fresh clone exited $rc after $(elapsed "$t0") (log: $log)"; status=1
		fi
		unmount_all
		;;
	bench|test)
		bind /proc; bind /sys; bind /dev; bind /dev/pts
		cp /etc/resolv.conf "$root/etc/resolv.conf"
		log=$root/root/fresh-$step.log
		rc=0
		in_root "make $step" > "$log" 2>&1 || rc=$?
		tail -n 25 "$log"
		case $step in
		bench)
			if [ "$rc" = 0 ] && grep -q '^preemptlab: results in ' "$log"; then
				pass "fresh_debian: make bench (configure, packages, build, bench) in $(elapsed "$t0")"
			else
				fail "fresh_debian: make bench exited $rc after $(elapsed "$t0") (log: $log)"; status=1
			fi ;;
		test)
			counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
			if [ "$rc" = 0 ] && [ -n "$counts" ]; then
				pass "fresh_debian: make test in $(elapsed "$t0"): $counts"
			else
				fail "fresh_debian: make test exited $rc after $(elapsed "$t0"): ${counts:-no totals} (log: $log)"; status=1
			fi ;;
		esac
		unmount_all
		;;
	*) fail "fresh_debian: unknown step '$step' (root clone bench kernel test)"; status=1; break ;;
	esac
done
exit "$status"
