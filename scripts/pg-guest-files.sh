#!/bin/sh
# Prints, one absolute path a line, the files a guest needs to run
# scripts/pg-run.sh: the system PostgreSQL's programs (scripts/pg-root-lib.sh), the modules initdb loads,
# its share directory (catalog bootstrap, timezone sets, snowball data),
# the UTC zone, build/pgsample and the scripts.  scripts/initramfs.sh
# copies them to the same paths and adds the libraries ldd names for
# each, so the guest runs the very binaries the host runs.
# The one list for every architecture: with PG_ROOT (a guest of ARCH whose
# userland is not the host's, scripts/pg-guest-root.sh) PostgreSQL's files
# are printed as PG_ROOT/PATH, to be copied to the guest's PATH; the lab's
# files keep their host paths (build/ is ARCH's guest_bin_dir then,
# build-arm64/), and the zone files, which are data, come from the host.
# pg_config is not run there: it is ARCH's program.
# With PG_FETCHED="DIR ..." (roots of scripts/pg-fetch.sh, PG_VERSION=MAJOR,
# or of scripts/pg-build.sh, MITIGATIONS' builds) the guest carries each
# root at the host's path instead: its wrappers,
# programs, modules, share directory, ld.so and library closure (.closure),
# each line prefixed "root:" so initramfs.sh copies it as it is (no ldd:
# these run on the root's libc, not the host's).
# Usage: scripts/pg-guest-files.sh   (PG_BINDIR overrides the bin directory;
#        PG_ROOT=DIR reads PostgreSQL from that sysroot of ARCH)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/pg-root-lib.sh
. "$here/pg-root-lib.sh"
# pg_files PREFIX BINDIR LIBDIR SHAREDIR [ELFDIR]: the programs (and
# their ELF files, for a root's wrappers), the modules, and everything
# initdb reads of the share directory, without manual pages and contrib
# extensions, each line prefixed PREFIX.
pg_files() {
	for p in postgres initdb pg_ctl pgbench; do
		echo "$1$2/$p"
		[ -z "${5:-}" ] || echo "$1$5/$p"
	done
	# initdb creates plpgsql and the snowball text search dictionaries;
	# pg_buffercache follows the fill of shared_buffers (pg-run.sh --buffercache-ms).
	for l in plpgsql dict_snowball pg_buffercache; do echo "$1$3/$l.so"; done
	{
		find "$4" -path "$4/man" -prune -o -path "$4/extension" -prune -o -type f -print | LC_ALL=C sort
		find "$4/extension" \( -name 'plpgsql*' -o -name 'pg_buffercache*' \) -type f | LC_ALL=C sort
	} | sed "s|^|$1|"
}
for r in ${PG_FETCHED:-}; do
	{ [ -f "$r/.complete" ] && [ -f "$r/.closure" ]; } || die "$r is no complete root of scripts/pg-fetch.sh or pg-build.sh"
	m=$(sed -n "s/^PG_MAJOR='\(.*\)'$/\1/p" "$r/.pg")
	for f in .pg .complete .packages .closure; do echo "root:$r/$f"; done
	sed "s|^|root:$r|" "$r/.closure"
	b=$(pgroot_dir "$r" "$m" bin)
	pg_files root: "$b" "$(pgroot_dir "$r" "$m" lib)" "$(pgroot_dir "$r" "$m" share)" "$b.elf"
done
# PG_WITH_SYSTEM=1: a MITIGATIONS cell runs the host's own server beside
# the roots.
if [ -z "${PG_FETCHED:-}" ] || [ "${PG_WITH_SYSTEM:-0}" = 1 ]; then
	root=${PG_ROOT:-}
	bindir=$root${PG_BINDIR:-$(pgroot_dir "" "$PG_SYSTEM_MAJOR" bin)}
	if [ -n "$root" ]; then
		[ -x "$bindir/postgres" ] || die "no $bindir/postgres in PG_ROOT: rerun scripts/pg-guest-root.sh"
		gbin=$top/$(arch_info "${ARCH:-}" guest_bin_dir)
		[ -x "$gbin/pgsample" ] || die "no $gbin/pgsample: run make cross-pgsample"
		libdir=$(pgroot_dir "$root" "$PG_SYSTEM_MAJOR" lib) sharedir=$(pgroot_dir "$root" "$PG_SYSTEM_MAJOR" share)
	else
		[ -x "$bindir/postgres" ] || die "no $bindir/postgres: apt-get install postgresql-$PG_SYSTEM_MAJOR, or set PG_BINDIR"
		[ -x "$top/build/pgsample" ] || die "no $top/build/pgsample: run make first (needs libpq-dev)"
		# Where this build looks for its modules and share files.
		libdir=$("$bindir/pg_config" --pkglibdir 2>/dev/null || pgroot_dir "" "$PG_SYSTEM_MAJOR" lib)
		sharedir=$("$bindir/pg_config" --sharedir 2>/dev/null || pgroot_dir "" "$PG_SYSTEM_MAJOR" share)
	fi
	[ -f "$sharedir/postgres.bki" ] || die "no $sharedir/postgres.bki: PostgreSQL's share directory is missing"
	pg_files "" "$bindir" "$libdir" "$sharedir"
fi
# pg-run.sh sets TZ=UTC: initdb then checks only this zone instead of
# scanning a whole zoneinfo tree the guest does not have.
echo /usr/share/zoneinfo/Etc/UTC
echo /usr/share/zoneinfo/UTC
echo "$top/build/pgsample"
for s in pg-run.sh pg-lib.sh pg-root-lib.sh common.sh hugepages.sh; do echo "$here/$s"; done
