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
# Before a root is accepted, scripts/elf-closure.sh resolves every NEEDED
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

# PostgreSQL, libpq's headers (pgsample is cross-built against them), and
# the libraries readelf's NEEDED closure of initdb, postgres, pg_ctl,
# pgbench, the modules initdb loads and libpq reaches (bookworm).  apt's
# Depends would bring much more (LLVM for JIT, perl for the cluster
# tools): only what the guest's programs load is fetched.
PG_GUEST_PACKAGES="postgresql-$PG_SYSTEM_MAJOR postgresql-client-$PG_SYSTEM_MAJOR libpq5 libpq-dev
libc6 libgcc-s1 libstdc++6 zlib1g libzstd1 liblz4-1 liblzma5 libxml2 libicu72
libssl3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libcom-err2
libkeyutils1 libldap-2.5-0 libsasl2-2 libgnutls30 libgmp10 libhogweed6
libnettle8 libidn2-0 libunistring2 libp11-kit0 libffi8 libtasn1-6 libpam0g
libaudit1 libcap-ng0 libsystemd0 libcap2 libgcrypt20 libgpg-error0"

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
bin=$(pgroot_dir "" "$PG_SYSTEM_MAJOR" bin) lib=$(pgroot_dir "" "$PG_SYSTEM_MAJOR" lib)
"$here/elf-closure.sh" "$tmp" "$bin/postgres" "$bin/initdb" "$bin/pg_ctl" "$bin/pgbench" \
	"$lib/plpgsql.so" "$lib/dict_snowball.so" "$lib/pg_buffercache.so" > /dev/null ||
	die "the $KAPT_ARCH PostgreSQL root lacks the libraries above: add their packages to PG_GUEST_PACKAGES in $0"
echo "$versions" > "$tmp/.packages"
touch "$tmp/.complete"
rm -rf "$root"
mv "$tmp" "$root"
echo "$root"
