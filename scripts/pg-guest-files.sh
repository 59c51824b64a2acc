#!/bin/sh
# Prints, one absolute path a line, the files a guest needs to run
# scripts/pg-run.sh: PostgreSQL 15's programs, the modules initdb loads,
# its share directory (catalog bootstrap, timezone sets, snowball data),
# the UTC zone, build/pgsample and the scripts.  scripts/initramfs.sh
# copies them to the same paths and adds the libraries ldd names for
# each, so the guest runs the very binaries the host runs.
# Usage: scripts/pg-guest-files.sh   (PG_BINDIR overrides the bin directory)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
# shellcheck source=scripts/common.sh
. "$here/common.sh"
bindir=${PG_BINDIR:-/usr/lib/postgresql/15/bin}
[ -x "$bindir/postgres" ] || die "no $bindir/postgres: apt-get install postgresql-15, or set PG_BINDIR"
[ -x "$top/build/pgsample" ] || die "no $top/build/pgsample: run make first (needs libpq-dev)"

# Where this build looks for its modules and share files.
libdir=$("$bindir/pg_config" --pkglibdir 2>/dev/null || echo /usr/lib/postgresql/15/lib)
sharedir=$("$bindir/pg_config" --sharedir 2>/dev/null || echo /usr/share/postgresql/15)
[ -f "$sharedir/postgres.bki" ] || die "no $sharedir/postgres.bki: PostgreSQL's share directory is missing"

for p in postgres initdb pg_ctl pgbench; do echo "$bindir/$p"; done
# initdb creates plpgsql and the snowball text search dictionaries.
echo "$libdir/plpgsql.so"
echo "$libdir/dict_snowball.so"
# pg_buffercache follows the fill of shared_buffers (pg-run.sh --buffercache-ms).
echo "$libdir/pg_buffercache.so"
# Everything initdb reads, without manual pages and contrib extensions.
find "$sharedir" -path "$sharedir/man" -prune -o \
	-path "$sharedir/extension" -prune -o -type f -print | LC_ALL=C sort
find "$sharedir/extension" \( -name 'plpgsql*' -o -name 'pg_buffercache*' \) -type f | LC_ALL=C sort
# pg-run.sh sets TZ=UTC: initdb then checks only this zone instead of
# scanning a whole zoneinfo tree the guest does not have.
echo /usr/share/zoneinfo/Etc/UTC
echo /usr/share/zoneinfo/UTC
echo "$top/build/pgsample"
for s in pg-run.sh pg-lib.sh common.sh hugepages.sh; do echo "$here/$s"; done
