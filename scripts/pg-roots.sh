#!/bin/sh
# The PostgreSQL roots a plan's MITIGATIONS pgbench cells run: for every
# distinct MAJOR:BUILD given (the plan's pg_servers, bench.conf, from
# lab/plan/write.c), fetched (debian: Debian's binary
# packages, scripts/pg-fetch.sh) or built (none or a patch: Debian's
# source built by the lab, scripts/pg-build.sh), once.  Prints one
# "VERSION BUILD ROOT PACKAGE" line each, TAB-separated; ROOT is empty for
# system's debian (the host's own 15).  Fails, naming the cell's server,
# when one cannot be had.  scripts/run-plan.sh gives the lines to every
# unit (pg_root.VERSION.BUILD in its conf); scripts/bench.sh puts the
# roots into the guests' initramfs.
# Usage: scripts/pg-roots.sh MAJOR:BUILD...
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/pg-root-lib.sh
. "$here/pg-root-lib.sh"
TAB=$(printf '\t')
for vb in "$@"; do printf '%s\t%s\n' "${vb%%:*}" "${vb#*:}"; done | sort -u |
while IFS=$TAB read -r v b; do
	case $v.$b in
	system.debian) root="" ;;
	*.debian) root=$("$here/pg-fetch.sh" "$v") || die "PostgreSQL $v (Debian's package) could not be fetched (above)" ;;
	*)
		m=$v; [ "$m" = system ] && m=$PG_SYSTEM_MAJOR
		root=$("$here/pg-build.sh" "$m" "$b") || die "PostgreSQL $m, build $b, could not be built (above)" ;;
	esac
	if [ -n "$root" ]; then
		pkg=$(sed -n "s/^PG_PACKAGE='\(.*\)'$/\1/p" "$root/.pg")
	else
		pkg=$(pg_system_package) || pkg="unknown (host)"
	fi
	printf '%s\t%s\t%s\t%s\n' "$v" "$b" "$root" "$pkg"
done
