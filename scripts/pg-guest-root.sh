#!/bin/sh
# Prints the path of an unpacked sysroot of architecture ARCH holding
# Debian's system PostgreSQL (scripts/pg-root-lib.sh; server, client, libpq and libpq-dev) and every
# shared library its programs need, for a guest whose userland is not the
# host's (the architecture table's host_userland: ARCH=arm64 PGBENCH=on).
# The packages come through the lab's private apt (KAPT_ARCH=ARCH: signed
# lists, each .deb's SHA256 checked), are unpacked with dpkg -x and never
# installed; /etc/apt is not touched.
# The result is kept in $PREEMPTLAB_CACHE/guest-ARCH/pg-root-<hash of the
# package versions>/ and reused while the suite's versions stay the same.
# Before a root is accepted, build/elfclosure resolves every NEEDED
# of the programs the guest runs inside it: a library missing from the
# list below fails here, by name, not in the guest.
# Usage: scripts/pg-guest-root.sh ARCH   (PREEMPTLAB_GUEST_SUITE: default bookworm)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/pg-root-lib.sh
. "$here/pg-root-lib.sh"
[ $# -eq 1 ] || die "usage: $0 ARCH"
# shellcheck source=scripts/private-apt.sh
KAPT_ARCH=$1 . "$here/private-apt.sh"
suite=${PREEMPTLAB_GUEST_SUITE:-bookworm}
cache=$PREEMPTLAB_CACHE/guest-$KAPT_ARCH

# The packages: build/plan --pg-guest-packages (what the guest's programs load).
PG_GUEST_PACKAGES=$("$KAPT_PLAN" --pg-guest-packages "$PG_SYSTEM_MAJOR")
kapt_update "$suite" >&2
# "package version" for each, the suite's newest (one apt-cache call).
# shellcheck disable=SC2086 # one argument per package
versions=$(kapt "$suite" apt-cache madison $PG_GUEST_PACKAGES 2>/dev/null |
	awk -F'|' '{ gsub(/ /, "", $1); gsub(/ /, "", $2) } !seen[$1]++ { print $1, $2 }')
for p in $PG_GUEST_PACKAGES; do
	echo "$versions" | grep -q "^$p " ||
		die "no $p for $KAPT_ARCH in $suite (private apt in $(kapt_dir "$suite")); refresh it: rm $(kapt_dir "$suite")/updated"
done
versions=$(echo "$versions" | LC_ALL=C sort)
id=$(echo "$versions" | sha256sum | cut -c1-12)
root=$cache/pg-root-$id
if [ -f "$root/.complete" ]; then echo "$root"; exit 0; fi

note "unpacking PostgreSQL $PG_SYSTEM_MAJOR for $KAPT_ARCH ($(echo "$versions" | wc -l) packages from $suite) into $root"
echo "$versions" | while read -r p v; do
	kapt_fetch "$suite" "$p" "$v" "$cache/$p-$v" >&2
done
tmp=$(mktemp -d "$cache/.pg-root.XXXXXX")
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
echo "$versions" | while read -r p v; do
	# Hard links: the root costs no second copy of the unpacked packages.
	cp -al "$cache/$p-$v/." "$tmp/"
done
rm -f "$tmp/.unpacked"
pgroot_closure "$tmp" "$PG_SYSTEM_MAJOR" /dev/null ||
	die "the $KAPT_ARCH PostgreSQL root lacks the libraries above: add their packages to build/plan --pg-guest-packages (lab/plan/pg_materials.c)"
echo "$versions" > "$tmp/.packages"
pgroot_commit "$tmp" "$root"
echo "$root"
