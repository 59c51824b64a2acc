#!/bin/sh
# A PostgreSQL root that passed pg-root-check.sh's full check is used again
# without it while its fingerprint (scripts/pg-root-check.sh,
# pgroot_unchanged) is the one recorded; any change to the root after the
# check, even one that puts the old size and modification time back, makes
# the next reuse check it in full; a stamp directory another user could
# write is not trusted.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
# shellcheck source=scripts/common.sh
. "$top/scripts/common.sh"
# shellcheck source=scripts/pg-root-check.sh
. "$top/scripts/pg-root-check.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
PREEMPTLAB_VERIFIED_DIR=$tmp/verified
export PREEMPTLAB_VERIFIED_DIR
root=$tmp/17-0123456789ab
mkdir -p "$root/bin"
printf 'real postgres\n' > "$root/bin/postgres"
ln -s postgres "$root/bin/pg_ctl"

if pgroot_unchanged "$root"; then fail "no stamp: taken as checked"; else pass "no stamp: the root is not taken as checked"; fi
pgroot_stamp "$root"
if pgroot_unchanged "$root"; then pass "stamped and unchanged: used without the full check"; else fail "stamped root not recognised"; fi
check "the stamp directory is 0700" test "$(stat -c %a "$PREEMPTLAB_VERIFIED_DIR")" = 700

# Same size, same mtime: only the change time tells.
old_mtime=$(stat -c %Y "$root/bin/postgres")
sleep 0.05
printf 'evil postgres\n' > "$root/bin/postgres"
touch -d "@$old_mtime" "$root/bin/postgres"
if pgroot_unchanged "$root"; then fail "a file changed behind the stamp was taken as checked"; else pass "a file rewritten to its old size and mtime: checked in full again"; fi

pgroot_stamp "$root"
ln -sf /etc/shadow "$root/bin/pg_ctl"
if pgroot_unchanged "$root"; then fail "a retargeted link was taken as checked"; else pass "a link pointed elsewhere: checked in full again"; fi

pgroot_stamp "$root"
touch "$root/bin/extra"
if pgroot_unchanged "$root"; then fail "an added file was taken as checked"; else pass "a file added: checked in full again"; fi

pgroot_stamp "$root"
chmod 0777 "$PREEMPTLAB_VERIFIED_DIR"
if pgroot_unchanged "$root" 2>/dev/null; then fail "a world-writable stamp directory was trusted"; else pass "a stamp directory others can write is not trusted"; fi
chmod 0700 "$PREEMPTLAB_VERIFIED_DIR"
f=$(pgroot_stamp_file "$root")
rm -f "$f"; ln -s "$tmp/elsewhere" "$f"
pgroot_fingerprint "$root" > "$tmp/elsewhere"
if pgroot_unchanged "$root"; then fail "a stamp that is a link was trusted"; else pass "a stamp that is a symbolic link is not trusted"; fi
tests_done
