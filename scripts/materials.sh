#!/bin/sh
# What a plan needs from outside the planner, had once a bench and before
# any unit runs (issue 38): the PostgreSQL servers its pgbench cells run
# and, for guests, each role's kernel.  scripts/bench.sh calls it after
# the first plan; the runner and the initramfs read what it wrote:
#   logs/pg-version.tsv   PG_VERSION's server: one "VERSION BUILD ROOT
#                         PACKAGE" line (ROOT empty: the host's own, the
#                         package empty where dpkg does not know it)
#   logs/pg-roots.tsv     MITIGATIONS' servers, the same columns
#                         (scripts/pg-roots.sh; empty without them)
#   logs/kernel-ROLE.env  guests: each role's kernel (scripts/kernel-resolve.sh)
# with their logs (pg-fetch.log, pg-build.log).  A server or kernel that
# cannot be had stops the bench here, naming it.
# Usage: scripts/materials.sh RUNDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/pg-root-lib.sh
. "$here/pg-root-lib.sh"
[ $# -eq 1 ] || die "usage: $0 RUNDIR"
rundir=$1 logs=$1/logs
bconf() { plan_value "$rundir/plan/bench.conf" "$1"; }
TAB=$(printf '\t')
mkdir -p "$logs"

# MITIGATIONS' pgbench cells name their own server (version and build).
: > "$logs/pg-roots.tsv"
if [ "$(bconf pg_servers)" != none ]; then
	note "PostgreSQL for MITIGATIONS: fetching or building each cell's server (log: logs/pg-build.log; a first build of Debian's source takes about 10 minutes)"
	# shellcheck disable=SC2046 # MAJOR:BUILD words, split on purpose
	"$here/pg-roots.sh" $(bconf pg_servers) > "$logs/pg-roots.tsv" 2> "$logs/pg-build.log" ||
		{ tail -n 20 "$logs/pg-build.log" | sed 's/^/  /' >&2; die "MITIGATIONS: a pgbench cell's PostgreSQL could not be had (above; logs/pg-build.log)"; }
	# sed, not read: a TAB is white space to IFS, and system's ROOT is empty.
	sed "s/^\([^$TAB]*\)$TAB\([^$TAB]*\)$TAB\([^$TAB]*\)$TAB\(.*\)/PostgreSQL \1 (\2): \4 (\3)/; s/ ()\$//" \
		"$logs/pg-roots.tsv" | while IFS= read -r line; do note "$line"; done
fi

# PG_VERSION: a major is fetched into a private root (pg-roots.sh, Debian's
# package); system is the host's own, whose package the documents name.
pg_version=$(bconf pg_version); [ -n "$pg_version" ] || pg_version=system
if [ "$(bconf pg_fetch)" != none ]; then
	"$here/pg-roots.sh" "$(bconf pg_fetch):debian" > "$logs/pg-version.tsv" 2> "$logs/pg-fetch.log" ||
		{ sed 's/^/  /' "$logs/pg-fetch.log" >&2; die "PG_VERSION=$pg_version: the fetch failed (above); or PG_VERSION=system"; }
	note "PostgreSQL $pg_version: $(cut -f4 "$logs/pg-version.tsv") ($(cut -f3 "$logs/pg-version.tsv"))"
else
	pkg=""; [ "$pg_version" = system ] && { pkg=$(pg_system_package) || pkg=""; }
	printf '%s\tdebian\t\t%s\n' "$pg_version" "$pkg" > "$logs/pg-version.tsv"
fi

# Each guest role's kernel, fetched where it is a Debian package.
[ "$(bconf host)" = 1 ] && exit 0
cut -f3,4 "$rundir/plan/units.tsv" | sort -u | while IFS=$TAB read -r role asked; do
	ARCH=$(bconf arch) "$here/kernel-resolve.sh" "$asked" > "$logs/kernel-$role.env" || exit $?
done
