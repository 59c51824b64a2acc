#!/bin/sh
# scripts/initramfs.sh keeps its scratch files inside its own mktemp
# directory (issue 15, defect 11): the list of PostgreSQL files went to
# "$stage.pgfiles", a predictable name beside the directory in /tmp that
# another user could plant a link at.  Here pg_config, which runs while
# that list is being written, records what TMPDIR holds at that moment.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
for b in bufbench-static pgsample; do
	[ -x "$top/build/$b" ] || { fail "initramfs_tmp: build/$b missing (make build-all)"; exit 1; }
done
pgbin=/usr/lib/postgresql/15/bin
[ -x "$pgbin/postgres" ] || { skip "initramfs_tmp: no PostgreSQL 15 ($pgbin)"; exit 0; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

mkdir -p "$tmp/bin" "$tmp/t"
for p in postgres initdb pg_ctl pgbench; do ln -s "$pgbin/$p" "$tmp/bin/$p"; done
cat > "$tmp/bin/pg_config" <<EOF2
#!/bin/sh
ls -A "$tmp/t" >> "$tmp/seen"
exec "$pgbin/pg_config" "\$@"
EOF2
chmod +x "$tmp/bin/pg_config"
check "initramfs.sh builds with PostgreSQL in it" \
	sh -c "TMPDIR='$tmp/t' PG_BINDIR='$tmp/bin' PGBENCH=on '$top/scripts/initramfs.sh' '$tmp/out.cpio.gz' 2> '$tmp/err'"
check "pg_config ran while the file list was written" test -s "$tmp/seen"
check "TMPDIR held one entry then, its own directory" test "$(sort -u "$tmp/seen" | wc -l)" -eq 1
check "and nothing is left in TMPDIR" test -z "$(ls -A "$tmp/t")"
check "the list did not end up in the initramfs" \
	sh -c "! gzip -dc '$tmp/out.cpio.gz' | cpio -it --quiet 2>/dev/null | grep -q pgfiles"
tests_done
