#!/bin/sh
# The kernel catalog: a series resolves to its newest packaged version, an
# exact version to that one, a path to the user's image, and an unknown value
# lists the known ones and fails.  Fetches go through the private apt in the
# cache (PREEMPTLAB_CACHE, kept for the rest of the run) and leave /etc/apt
# alone.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
resolve=$top/scripts/kernel-resolve.sh
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

etc_apt() { find /etc/apt -type f -exec sha256sum {} + 2>/dev/null | sort; }
etc_apt > "$tmp/apt.before"

if ! "$resolve" 7.0 > "$tmp/series" 2> "$tmp/series.err"; then
	if grep -q 'apt-get update of .* failed' "$tmp/series.err"; then
		skip "kernel catalog: Debian's archive is unreachable and nothing is cached ($(tail -n1 "$tmp/series.err"))"
		exit 0
	fi
	cat "$tmp/series.err"
	fail "kernel catalog: resolve 7.0"
	exit 1
fi
# shellcheck disable=SC1091 # written just above
. "$tmp/series"
case $K_VERSION in 7.0.[0-9]*) pass "catalog: 7.0 resolves to a packaged 7.0.x ($K_VERSION)" ;;
*) fail "catalog: 7.0 resolved to '$K_VERSION'" ;; esac
check "catalog: the image exists and its sha256 is recorded" \
	test "$(sha256sum "$K_IMAGE" 2>/dev/null | cut -d' ' -f1)" = "$K_SHA256"
check "catalog: 7.0 accepts lazy and full, default lazy" \
	test "$K_MODELS/$K_DEFAULT" = "lazy full/lazy"
series_img=$K_IMAGE series_ver=$K_VERSION
"$resolve" "$series_ver" > "$tmp/exact" 2>/dev/null
# shellcheck disable=SC1091 # written just above
. "$tmp/exact"
check "catalog: exact version $series_ver resolves to the same image" test "$K_IMAGE" = "$series_img"
# A cache reached by another path (a moved checkout, a worktree's symlink)
# resolves to its own images, not to the path that wrote the resolution.
cache=${PREEMPTLAB_CACHE:-$top/kernels/cache}
mkdir -p "$tmp/moved/images/7.0"
ln -s "$(cd "$cache/images/7.0/$series_ver" && pwd -P)" "$tmp/moved/images/7.0/$series_ver"
PREEMPTLAB_CACHE=$tmp/moved "$resolve" "$series_ver" > "$tmp/moved.out" 2>/dev/null || true
moved=$(sed -n "s/^K_IMAGE='\(.*\)'$/\1/p" "$tmp/moved.out")
check "catalog: a cache reached by another path gives its own image ($moved)" \
	sh -c "case '$moved' in '$tmp/moved/images/7.0/$series_ver/'*) test -f '$moved' ;; *) false ;; esac"
if "$resolve" 7.0.999 > /dev/null 2> "$tmp/missing"; then
	fail "catalog: a version Debian does not have was accepted"
else
	check "catalog: a missing version lists the packaged ones" grep -q "packaged 7.0 versions: .*$series_ver" "$tmp/missing"
	newest=$(sed -n 's/.*packaged 7.0 versions: //p' "$tmp/missing" | tr ' ' '\n' | sort -V | tail -n1)
	check "catalog: 7.0 is the newest packaged 7.0.x ($newest)" test "$newest" = "$series_ver"
fi

if "$resolve" 9.9 > /dev/null 2> "$tmp/unknown"; then
	fail "catalog: unknown kernel 9.9 was accepted"
else
	check "catalog: unknown kernel lists the known ones" \
		grep -q "KERNEL=9.9: unknown kernel; known: 6.1 6.12 6.12-lab-hz250 7.0 7.2 7.2-lab 7.2-lab-hz250 7.2-lab-static-none 7.2-rseq 7.2-rseqfault host" "$tmp/unknown"
fi

# The planner's rules decide what KERNEL names (lab/plan/catalog.c), not a
# second reader in shell: "host.1" is no exact version of a series, and a
# built series takes no version.
rc=0; "$resolve" host.1 > /dev/null 2> "$tmp/hostv" || rc=$?
check "catalog: host.1 is refused as unknown (exit 2)" sh -c "[ $rc = 2 ] && grep -q \"unknown kernel 'host.1'\" '$tmp/hostv'"
check "catalog: kernel-resolve.sh asks build/plan what KERNEL names, and parses no KERNEL itself" \
	sh -c "grep -q -- '--catalog-resolve' '$top/scripts/kernel-resolve.sh' && ! grep -qE 'case \\\$want' '$top/scripts/kernel-resolve.sh'"

"$resolve" "$series_img" > "$tmp/path"
# shellcheck disable=SC1091 # written just above
. "$tmp/path"
check "catalog: a path resolves to the user's image" test "$K_SOURCE:$K_IMAGE" = "path:$series_img"
check "catalog: a path's release is read from the bzImage header" \
	test "$K_RELEASE" = "$(sed -n "s/^K_RELEASE='\(.*\)'$/\1/p" "$tmp/series")"
if "$resolve" /nonexistent/bzImage > /dev/null 2>&1; then
	fail "catalog: a missing image path was accepted"
else
	pass "catalog: a missing image path is refused"
fi

src=$(cat "${PREEMPTLAB_CACHE:-$top/kernels/cache}/apt/trixie-backports/sources.list")
case $src in
*trusted=yes*) fail "catalog: the private sources.list disables verification" ;;
*signed-by=/*) pass "catalog: the private sources.list names its keyring (signed-by)" ;;
*) fail "catalog: the private sources.list has no signed-by: $src" ;;
esac

# A second resolve reuses the download: no new file under debs/.
before=$(find "${PREEMPTLAB_CACHE:-$top/kernels/cache}/debs" -type f | wc -l)
"$resolve" 7.0 > /dev/null 2>&1
after=$(find "${PREEMPTLAB_CACHE:-$top/kernels/cache}/debs" -type f | wc -l)
check "catalog: a second resolve downloads nothing new" test "$before" = "$after"

# Verification is on: with a keyring that cannot verify the suite, apt
# refuses its lists and nothing resolves.
if [ -r /usr/share/keyrings/debian-archive-removed-keys.gpg ]; then
	if PREEMPTLAB_CACHE=$tmp/badkey PREEMPTLAB_KEYRING=/usr/share/keyrings/debian-archive-removed-keys.gpg \
		"$resolve" 7.0 > /dev/null 2> "$tmp/badkey.err"; then
		fail "catalog: lists signed by keys outside the keyring were accepted"
	else
		check "catalog: an unverifiable archive is refused" grep -q 'could not be verified' "$tmp/badkey.err"
	fi
else
	skip "catalog: signature refusal: no debian-archive-removed-keys.gpg to test with"
fi

# A cached .deb is checked against the signed lists again before reuse:
# the resolved 7.0 package verifies, a copy changed by one byte does not.
cache=${PREEMPTLAB_CACHE:-$top/kernels/cache}
cached=$(find "$cache/debs" -name 'linux-*7.0*_amd64.deb' | head -n1)
if [ -n "$cached" ]; then
	pkg=$(dpkg-deb -f "$cached" Package) ver=$(dpkg-deb -f "$cached" Version)
	verify() { # DEB
		( . "$top/scripts/common.sh"; KCAT_DIR=$top/kernels PREEMPTLAB_CACHE=$cache
		  . "$top/scripts/kernel-catalog.sh"
		  kapt_verify trixie-backports "$pkg" "$ver" "$1" ) > "$tmp/verify.out" 2>&1
	}
	check "catalog: the cached $pkg verifies against the signed lists" verify "$cached"
	cp "$cached" "$tmp/changed.deb"
	printf 'X' | dd of="$tmp/changed.deb" bs=1 seek=5000 conv=notrunc 2>/dev/null
	rc=0; verify "$tmp/changed.deb" || rc=$?
	check "catalog: a changed copy is refused, naming the fix ($(tail -n1 "$tmp/verify.out" | cut -c1-60)...)" \
		sh -c "[ $rc -ne 0 ] && grep -q 'does not match the signed' '$tmp/verify.out'"
else
	skip "catalog: no cached 7.0 .deb to verify"
fi

# Lists too old to trust are refused when the archive cannot be reached.
mkdir -p "$tmp/stale"
cp -r "$cache/apt" "$tmp/stale/"
touch -d '30 days ago' "$tmp/stale/apt/trixie-backports/updated"
rc=0
# The archive made unreachable through a proxy that refuses: the same
# mirror, so the lists stay the ones in use.
( . "$top/scripts/common.sh"; KCAT_DIR=$top/kernels PREEMPTLAB_CACHE=$tmp/stale
  export http_proxy=http://127.0.0.1:9
  . "$top/scripts/kernel-catalog.sh"; kapt_update trixie-backports ) > "$tmp/stale.out" 2>&1 || rc=$?
check "catalog: 30-day-old lists and no archive: refused, naming PREEMPTLAB_APT_STALE_MAX" \
	sh -c "[ $rc -ne 0 ] && grep -q 'PREEMPTLAB_APT_STALE_MAX' '$tmp/stale.out'"

# A several-model recipe's configured tree must let the runner set and read
# back the model (scripts/kernel-build.sh checks this after olddefconfig).
# models_checkable SERIES CONFIG_LINES KCONFIG_DEBUG_LINES: its exit code.
models_checkable() {
	mt=$tmp/tree-$1-$$
	rm -rf "$mt"; mkdir -p "$mt/lib"
	printf '%b' "$2" > "$mt/.config"
	printf '%b' "$3" > "$mt/lib/Kconfig.debug"
	"$top/build/plan" --kernel-build "$top/kernels" amd64 "$1" models "$mt" 2> "$tmp/mc.err"
}
dyn='CONFIG_PREEMPT_DYNAMIC=y\n'
if models_checkable 6.12-lab-hz250 "$dyn" 'config SCHED_DEBUG\n'; then
	fail "catalog: 6.12-lab-hz250 without SCHED_DEBUG was accepted"
else
	check "catalog: 6.12-lab-hz250 without SCHED_DEBUG is refused, naming the fix" grep -q 'add CONFIG_SCHED_DEBUG=y to a fragment' "$tmp/mc.err"
fi
check "catalog: 6.12-lab-hz250 with SCHED_DEBUG is accepted" \
	models_checkable 6.12-lab-hz250 "${dyn}CONFIG_SCHED_DEBUG=y\n" 'config SCHED_DEBUG\n'
check "catalog: 7.2-lab, whose source has no SCHED_DEBUG symbol, needs only PREEMPT_DYNAMIC" \
	models_checkable 7.2-lab "$dyn" 'config DEBUG_KERNEL\n'
if models_checkable 7.2-lab 'CONFIG_PREEMPT_NONE=y\n' ''; then
	fail "catalog: 7.2-lab without PREEMPT_DYNAMIC was accepted"
else
	check "catalog: 7.2-lab without PREEMPT_DYNAMIC is refused" grep -q 'has no PREEMPT_DYNAMIC' "$tmp/mc.err"
fi
check "catalog: a one-model recipe (7.2-lab-static-none) needs neither" \
	models_checkable 7.2-lab-static-none 'CONFIG_PREEMPT_NONE=y\n' 'config SCHED_DEBUG\n'

etc_apt > "$tmp/apt.after"
check "catalog: /etc/apt is unchanged" cmp -s "$tmp/apt.before" "$tmp/apt.after"
tests_done
