#!/bin/sh
# PostgreSQL majors from Debian's archive (scripts/pg-fetch.sh, PG_VERSION):
# a major the archive lacks is refused naming those it has; the stored
# lists and a .deb pass the signature and hash checks, and a tampered
# InRelease, Packages list or .deb is refused (on copies, in a scratch
# cache); the fetched 17's library closure is complete and all inside its
# root, a library taken out is named; the wrapped server loads the root's
# libc, not the host's; and a short pg-run.sh --pg-version 17 records the
# server's version() and its package in the document.
# Needs the archive once (or a cache that fetched 17 before): otherwise SKIP.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fetch=$top/scripts/pg-fetch.sh
cache=${PREEMPTLAB_CACHE:-$top/kernels/cache}
tmp=$(mktemp -d /tmp/preemptlab-pgfetch.XXXXXX)
chmod 755 "$tmp"
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

# A major the archive does not have: exit 2, naming what it has.
rc=0; "$fetch" 16 > "$tmp/out" 2>&1 || rc=$?
if [ "$rc" = 2 ] && grep -q '17 (trixie)' "$tmp/out" && grep -q '15 (bookworm)' "$tmp/out"; then
	pass "pg_fetch: 16 refused naming the majors there are: $(cut -c1-160 "$tmp/out")"
else
	fail "pg_fetch: 16: rc $rc, said $(cat "$tmp/out")"
fi

if ! root=$("$fetch" 17 2> "$tmp/fetch.log"); then
	skip "pg_fetch: PostgreSQL 17 could not be fetched (no archive here?): $(tail -n1 "$tmp/fetch.log")"
	tests_done
	exit 0
fi
pass "pg_fetch: 17 fetched or reused: $root"

# --- signatures: the stored lists and a .deb, then tampered copies -------
deb=$(find "$cache/debs" -name 'postgresql-17_*_amd64.deb' | head -n1)
if "$fetch" --verify trixie "$deb" > "$tmp/out" 2>&1; then
	pass "pg_fetch: trixie's lists and $(basename "$deb") verify"
else
	fail "pg_fetch: the untouched lists or .deb do not verify: $(cat "$tmp/out")"
fi
scratch() {
	rm -rf "$tmp/cache"
	mkdir -p "$tmp/cache/pg/apt" "$tmp/cache/debs"
	cp -r "$cache/pg/apt/trixie" "$tmp/cache/pg/apt/"
}
# refused WHAT WORDS: --verify in the scratch cache fails, saying WORDS.
refused() {
	rc=0
	# shellcheck disable=SC2046 # one argument per .deb (none: lists only)
	PREEMPTLAB_CACHE=$tmp/cache "$fetch" --verify trixie $(find "$tmp/cache/debs" -name '*.deb') > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" != 0 ] && grep -q "$2" "$tmp/out"; then
		pass "pg_fetch: $1 is refused: $(grep "$2" "$tmp/out" | head -n1 | cut -c1-160)"
	else
		fail "pg_fetch: $1: rc $rc, said $(cat "$tmp/out")"
	fi
}
lists=$tmp/cache/pg/apt/trixie/lists
scratch
rel=$(find "$lists" -name '*_dists_trixie_InRelease')
# One hex digit of the first SHA256 line changed, inside the signed text.
awk '/^SHA256:/ { s = 1; print; next }
	s == 1 { c = substr($0, 2, 1); $0 = " " (c == "0" ? "1" : "0") substr($0, 3); s = 2 } { print }' \
	"$rel" > "$tmp/InRelease"
cp "$tmp/InRelease" "$rel"
refused "an InRelease changed by one character" "no good signature"
scratch
pk=$(find "$lists" -name '*_dists_trixie_main_binary-amd64_Packages*')
# Kept uncompressed in its place (apt reads either; no lz4 program needed).
/usr/lib/apt/apt-helper cat-file "$pk" | sed 's/^Version: 17\.12-0+deb13u1$/Version: 17.99-0+deb13u1/' > "$tmp/Packages"
rm -f "$pk"
cp "$tmp/Packages" "${pk%.lz4}"
refused "a Packages list with one version changed" "does not match the signed trixie InRelease"
scratch
cp "$deb" "$tmp/cache/debs/"
printf 'X' | dd of="$tmp/cache/debs/$(basename "$deb")" bs=1 seek=5000 conv=notrunc 2>/dev/null
refused "a .deb with one byte changed" "does not match the signed trixie lists"

# --- the closure ----------------------------------------------------------
bin=$root/usr/lib/postgresql/17/bin.elf
if "$top/build/elfclosure" "$root" /usr/lib/postgresql/17/bin.elf/postgres \
	/usr/lib/postgresql/17/bin.elf/pgbench > "$tmp/closure" 2> "$tmp/err" &&
	grep -q 'libc\.so\.6$' "$tmp/closure" && grep -q 'ld-linux-x86-64\.so\.2$' "$tmp/closure"; then
	pass "pg_fetch: postgres and pgbench resolve all $(wc -l < "$tmp/closure") libraries inside the root, its libc and ld.so among them"
else
	fail "pg_fetch: the closure is incomplete: $(cat "$tmp/err")"
fi
outside=""
while read -r l; do
	real=$(readlink -f "$root$l")
	case $real in "$(readlink -f "$root")"/*) ;; *) outside="$outside $l" ;; esac
done < "$root/.closure"
if [ -z "$outside" ]; then pass "pg_fetch: every library of .closure is a file of the root"
else fail "pg_fetch: libraries outside the root:$outside"; fi
# A root with one library taken out: build/elfclosure names it.
cp -al "$root" "$tmp/root" 2>/dev/null || cp -a "$root" "$tmp/root"
icu=$(cd "$tmp/root" && find usr/lib/x86_64-linux-gnu -name 'libicuuc.so.[0-9]*' | head -n1)
rm -f "$tmp/root/$icu"
rc=0; "$top/build/elfclosure" "$tmp/root" /usr/lib/postgresql/17/bin.elf/postgres > /dev/null 2> "$tmp/err" || rc=$?
if [ "$rc" != 0 ] && grep -q "$(basename "$icu" | sed 's/\.so\.\([0-9]*\).*/.so.\1/')" "$tmp/err"; then
	pass "pg_fetch: without $(basename "$icu") the closure fails naming it: $(head -n1 "$tmp/err")"
else
	fail "pg_fetch: a missing $(basename "$icu") went unnamed (rc $rc): $(cat "$tmp/err")"
fi
rm -rf "$tmp/root"

# --- the wrapper runs on the root's libc --------------------------------
LD_DEBUG=libs "$root/usr/lib/postgresql/17/bin/postgres" --version > "$tmp/out" 2> "$tmp/ld"
# The wrapper's own shell (and its dirname) load the host's libc first;
# the program it execs last is postgres.
libc=$(sed -n 's/.*calling init: \(.*libc\.so\.6\)$/\1/p' "$tmp/ld" | tail -n1)
case $libc in
"$root"/*) pass "pg_fetch: the wrapped postgres ($(cat "$tmp/out")) loads libc from its root: ${libc#"$root"}" ;;
*) fail "pg_fetch: the wrapped postgres loaded libc '$libc', not the root's" ;;
esac
[ -x "$bin/postgres" ] || fail "pg_fetch: no $bin/postgres"

# --- the server starts, answers, and the document says which it was -----
if [ "$(id -u)" = 0 ] && ! id -u postgres > /dev/null 2>&1; then
	skip "pg_fetch: no postgres user to run the server (apt-get install postgresql-15)"
elif [ ! -x "$top/build/pgsample" ]; then
	fail "pg_fetch: build/pgsample missing (make first)"
else
	rc=0
	nice -n 10 "$top/scripts/pg-run.sh" --pg-version 17 --shared-buffers 16M --scale 3 --clients 2 \
		--builtins select-only --duration 3 "$tmp/run" > "$tmp/run.log" 2>&1 || rc=$?
	doc=$(find "$tmp/run/runs" -name 'pgbench-*.json' 2>/dev/null | head -n1)
	if [ "$rc" = 0 ] && [ -n "$doc" ] &&
		jq -e '.provenance.versions.postgresql | startswith("PostgreSQL 17.")' "$doc" > /dev/null &&
		jq -e '.provenance.versions.postgresql_package | test("^postgresql-17 17\\..* \\(trixie\\)$")' "$doc" > /dev/null &&
		jq -e '.results.tps > 0' "$doc" > /dev/null; then
		pass "pg_fetch: the fetched 17 served pgbench ($(jq -r .results.tps "$doc") tps); the document says '$(jq -r .provenance.versions.postgresql "$doc" | cut -c1-60)...', package '$(jq -r .provenance.versions.postgresql_package "$doc")'"
	else
		fail "pg_fetch: pg-run.sh --pg-version 17: rc $rc; $(tail -n 5 "$tmp/run.log")"
	fi
fi
tests_done
