#!/bin/sh
# A PostgreSQL root of the cache is used again only when it is what its
# packages make (issue 35, N2).  scripts/pg-fetch.sh returned the root
# whenever its .complete existed: a changed wrapper ran, an index entry
# ../../evilroot returned a directory outside the cache, a symbolic link
# at the root was followed, and with a .deb removed, a changed unpacked
# package went into a new root with exit 0.  Each case here, on a private
# copy of the cache (the shared one is never changed): the root is refused
# and made again from the verified packages (a removed .deb downloaded
# again), naming what differed; and an untouched root is reused, timed.
# Needs PostgreSQL 17 fetched (or the archive): otherwise SKIP.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fetch=$top/scripts/pg-fetch.sh
cache=${PREEMPTLAB_CACHE:-$top/kernels/cache}
tmp=$(mktemp -d /tmp/preemptlab-pgreuse.XXXXXX)
chmod 755 "$tmp"
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
if ! shared=$("$fetch" 17 2> "$tmp/fetch.log"); then
	skip "pg_fetch_reuse: PostgreSQL 17 could not be fetched (no archive here?): $(tail -n1 "$tmp/fetch.log")"
	tests_done
	exit 0
fi
rname=$(basename "$shared")
pv=/usr/lib/postgresql/17

# private: a copy of what the shared cache holds for 17 (copies, never
# links: the cases below change files in place).
private() {
	rm -rf "$tmp/cache"
	mkdir -p "$tmp/cache/pg" "$tmp/cache/debs"
	cp -a "$cache/pg/apt" "$cache/pg/index" "$cache/pg/pkgs" "$shared" "$tmp/cache/pg/"
	while read -r p v _; do
		cp -a "$cache/debs/${p}_$(echo "$v" | sed 's/:/%3a/')"_*.deb "$tmp/cache/debs/"
	done < "$shared/.packages"
}
# fetched CASE: pg-fetch.sh 17 on the private cache; its root in $got,
# its stderr in $tmp/CASE.err, its status in $rc.
fetched() {
	rc=0
	got=$(PREEMPTLAB_CACHE=$tmp/cache "$fetch" 17 2> "$tmp/$1.err") || rc=$?
}
# genuine CASE: the root printed is the cache's own, whole, and its
# wrapped server runs without running anything else.
genuine() {
	check "$1: exit 0 (rc $rc)" test "$rc" = 0
	check "$1: the root is the private cache's $rname, not a link" \
		sh -c "test '$got' = '$tmp/cache/pg/$rname' && test ! -L '$got'"
	rm -f "$tmp"/PWNED*
	"$got$pv/bin/postgres" --version > "$tmp/$1.version" 2>&1 || true
	check "$1: its postgres runs ($(cat "$tmp/$1.version"))" grep -q '^postgres (PostgreSQL) 17' "$tmp/$1.version"
	check "$1: and ran nothing of the tampering (no PWNED file)" test -z "$(find "$tmp" -name 'PWNED*')"
}
# cow FILE: FILE a file of its own (a copy may share it with the root).
cow() { cp -p "$1" "$1.cow" && mv -f "$1.cow" "$1"; }

# 0. Untouched: reused, and how long the check takes.
private
t0=$(date +%s.%N)
fetched untouched
t1=$(date +%s.%N)
check "untouched: reused ($got)" sh -c "test '$rc' = 0 && test '$got' = '$tmp/cache/pg/$rname' && ! grep -q 'not used' '$tmp/untouched.err'"
pass "untouched: the reuse with its check took $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s ($(find "$got" -type f | wc -l) files, $(du -sm "$got" | cut -f1) MB)"

# 1. A wrapper, a program and a library changed in the root, the library
#    in its unpacked package too (the .deb still there).
w=$tmp/cache/pg/$rname$pv/bin/postgres
printf '#!/bin/sh\ntouch %s/PWNED_wrapper\n' "$tmp" > "$w"
b=$tmp/cache/pg/$rname$pv/bin.elf/pg_ctl
cow "$b"
printf 'X' | dd of="$b" bs=1 seek=4000 conv=notrunc 2>/dev/null
lib=$(cd "$tmp/cache/pg/$rname" && find usr/lib -name 'libpq.so.5.*' -type f | head -n 1)
libpkg=$(echo "$tmp"/cache/pg/pkgs/libpq5-*)
for f in "$tmp/cache/pg/$rname/$lib" "$libpkg/$lib"; do
	rm -f "$f"
	printf 'not libpq\n' > "$f"
done
fetched changed
check "changed: the wrapper is named" grep -q "changed: ${pv#/}/bin/postgres" "$tmp/changed.err"
check "changed: the program is named" grep -q "changed: ${pv#/}/bin.elf/pg_ctl" "$tmp/changed.err"
check "changed: the library is named" grep -q "changed: $lib" "$tmp/changed.err"
check "changed: so is the unpacked package's, unpacked again" \
	grep -q "$(basename "$libpkg") is not what .* unpacks to (changed: $lib" "$tmp/changed.err"
genuine changed
check "changed: the root's libpq is the package's again" cmp "$got/$lib" "$cache/pg/$rname/$lib"
check "changed: the next fetch reuses the root made again, silently" sh -c \
	"PREEMPTLAB_CACHE='$tmp/cache' '$fetch' 17 2> '$tmp/again.err' | grep -qx '$got' && ! grep -q 'not used' '$tmp/again.err'"

# 2. The .deb removed and the unpacked package changed.
private
deb=$(echo "$tmp"/cache/debs/libpq5_*.deb)
rm -f "$deb"
for f in "$tmp/cache/pg/$rname/$lib" "$libpkg/$lib"; do
	rm -f "$f"
	printf 'not libpq\n' > "$f"
done
fetched nodeb
check "nodeb: the root is not checked without its .deb, and says so" grep -q "the .deb of libpq5 .* is gone" "$tmp/nodeb.err"
check "nodeb: the .deb is downloaded again" sh -c "grep -q 'downloading libpq5' '$tmp/nodeb.err' && test -f '$deb'"
check "nodeb: and matches the signed lists" sh -c "PREEMPTLAB_CACHE='$tmp/cache' '$fetch' --verify trixie '$deb' > /dev/null 2>&1"
genuine nodeb
check "nodeb: the root's libpq is the package's again" cmp "$got/$lib" "$cache/pg/$rname/$lib"

# 3. An index entry out of the cache, to a directory that would pass as a
#    root, and at the root's own name a symbolic link to a changed copy
#    (one fetch: the lists' package set is found again, slowly).
private
mkdir -p "$tmp/evilroot"
touch "$tmp/evilroot/.complete"
for i in "$tmp"/cache/pg/index/17-*; do echo "../../evilroot" > "$i"; done
mv "$tmp/cache/pg/$rname" "$tmp/elsewhere"
printf '#!/bin/sh\ntouch %s/PWNED_link\n' "$tmp" > "$tmp/elsewhere$pv/bin/postgres"
ln -s "$tmp/elsewhere" "$tmp/cache/pg/$rname"
fetched index
check "index: the entry is named and ignored" grep -q "is no root's name ('../../evilroot')" "$tmp/index.err"
check "index: the link at the root's name is not used" grep -q "$rname is a symbolic link" "$tmp/index.err"
genuine index
check "index: what the link pointed to is untouched" grep -q PWNED_link "$tmp/elsewhere$pv/bin/postgres"
tests_done
