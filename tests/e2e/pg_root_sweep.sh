#!/bin/sh
# A pg-fetch killed mid-way left $PREEMPTLAB_CACHE/pg/.root.* for ever
# (issue 35).  Now the maker of a .root.* holds a lock on it while it lives
# (pgroot_claim, scripts/pg-root-lib.sh) and every pg-fetch first removes
# the ones nobody holds (pgroot_sweep).  The makers here do what pg-fetch
# does between mktemp and the move into place, in a private cache; the
# sweep is pg-fetch's own, run for a major the catalog does not have (no
# network needed: it sweeps before it looks).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
command -v flock >/dev/null || { skip "pg_root_sweep: no flock (util-linux)"; exit 0; }
tmp=$(mktemp -d)
pids=""
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'for p in $pids; do kill -KILL "$p" 2>/dev/null || true; done; rm -rf "$tmp"'
store=$tmp/cache/pg
mkdir -p "$store"

# maker NAME: a process that makes a .root.* as pg-fetch does and then
# works on (sleeps); its pid in $maker, the directory in $tmp/NAME.
maker() {
	sh -c '. "$0/scripts/common.sh"; . "$0/scripts/pg-root-lib.sh"
		t=$(mktemp -d "$1/.root.XXXXXX"); pgroot_claim "$t"; echo "$t" > "$2"
		exec sleep 1000' "$top" "$store" "$tmp/$1" < /dev/null > /dev/null 2>&1 &
	maker=$!
	pids="$pids $maker"
	i=0
	until [ -s "$tmp/$1" ] || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
}
age() { touch -d '30 minutes ago' "$1"; }

maker killed; killed=$(cat "$tmp/killed" 2>/dev/null || echo "$store/.root.none")
kill -KILL "$maker"; wait "$maker" 2>/dev/null || true
maker live; live=$(cat "$tmp/live" 2>/dev/null || echo "$store/.root.none")
old=$store/.root.old; mkdir "$old"; touch "$old/file"       # one left before the locks
fresh=$store/.root.fresh; mkdir "$fresh"                    # its maker not yet locked it
for d in "$killed" "$live" "$old"; do age "$d"; done
check "pg_root_sweep: the killed fetch's .root.* is there before" test -d "$killed"

rc=0
PREEMPTLAB_CACHE=$tmp/cache sh "$top/scripts/pg-fetch.sh" 16 > "$tmp/out" 2>&1 || rc=$?
check "pg_root_sweep: pg-fetch 16 is refused as before (rc $rc)" test "$rc" = 2
check "pg_root_sweep: the .root.* of a fetch killed mid-way (SIGKILL) is removed" test ! -e "$killed"
check "pg_root_sweep: an unlocked .root.* unchanged for 10 minutes (left before the locks) is removed" test ! -e "$old"
check "pg_root_sweep: and that is said" grep -q "removed $killed, left by a PostgreSQL fetch or build killed mid-way" "$tmp/out"
check "pg_root_sweep: the .root.* of a fetch still running is kept" test -d "$live"
check "pg_root_sweep: a .root.* made within 10 minutes is kept" test -d "$fresh"
tests_done
