#!/bin/sh
# The lab's builds of Debian's PostgreSQL source (scripts/pg-source.sh,
# scripts/pg-build.sh; docs/mitigations.md, "Real PostgreSQL"): the source
# lists refuse a tampered InRelease or Sources list (copies, in a scratch
# cache); each built root names its patch in .pg and in version(), its
# library closure is complete inside the root and a library taken out is
# named; the prefault build logs its cost once and its document records
# the patch and the mitigation, while the unpatched build logs nothing of
# the kind (the control).  Builds nothing: SKIP, naming the command, until
# `scripts/pg-build.sh 18 prefault` (about 10-25 minutes) has run.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
cache=${PREEMPTLAB_CACHE:-$top/kernels/cache}
root_of() { find "$cache/pg/build" -maxdepth 2 -path "*/18-*/root-$1" -type d 2>/dev/null | while read -r r; do [ -f "$r/.complete" ] && echo "$r"; done | head -n1; }
rn=$(root_of none) rp=$(root_of prefault) rt=$(root_of touch-before-lock)
if [ -z "$rn" ] || [ -z "$rp" ]; then
	skip "pg_build: no built PostgreSQL 18 (none and prefault) in $cache/pg/build: scripts/pg-build.sh 18 prefault builds both"
	tests_done
	exit 0
fi
tmp=$(mktemp -d /tmp/preemptlab-pgbuild.XXXXXX)
chmod 755 "$tmp"
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

# --- the source lists: tampered copies are refused -----------------------
src=$cache/pg/src-apt/sid
if [ -f "$src/updated" ]; then
	scratch() { rm -rf "$tmp/cache"; mkdir -p "$tmp/cache/pg/src-apt"; cp -a "$src" "$tmp/cache/pg/src-apt/"; }
	refused() {
		rc=0; PREEMPTLAB_CACHE=$tmp/cache "$top/scripts/pg-source.sh" 18 > "$tmp/out" 2>&1 || rc=$?
		if [ "$rc" != 0 ] && grep -q "$2" "$tmp/out"; then
			pass "pg_build: $1 is refused: $(grep "$2" "$tmp/out" | head -n1 | cut -c1-150)"
		else
			fail "pg_build: $1: rc $rc, said $(cat "$tmp/out")"
		fi
	}
	scratch
	rel=$(find "$tmp/cache/pg/src-apt/sid/lists" -name '*_dists_sid_InRelease')
	awk '/^SHA256:/ { s = 1; print; next }
		s == 1 { c = substr($0, 2, 1); $0 = " " (c == "0" ? "1" : "0") substr($0, 3); s = 2 } { print }' "$rel" > "$tmp/InRelease"
	cp "$tmp/InRelease" "$rel"
	refused "a sid InRelease changed by one character" "no good signature"
	scratch
	sl=$(find "$tmp/cache/pg/src-apt/sid/lists" -name '*_dists_sid_main_source_Sources*')
	/usr/lib/apt/apt-helper cat-file "$sl" | sed 's/^Version: 18\.6-3$/Version: 18.6-4/' > "$tmp/Sources"
	rm -f "$sl"; cp "$tmp/Sources" "${sl%.lz4}"
	refused "a Sources list with one version changed" "does not match the signed sid InRelease"
else
	skip "pg_build: no stored sid source lists to tamper with"
fi

# --- each root names its patch; the closure is complete -----------------
for r in "$rn" "$rp" $rt; do
	p=${r##*/root-}
	v=$("$r/usr/lib/postgresql/18/bin/postgres" --version 2>&1 || true)
	if grep -qx "PG_PATCH='$p'" "$r/.pg" && echo "$v" | grep -q "preemptlab build, patch $p)"; then
		pass "pg_build: root-$p: .pg and version() name patch $p ($v)"
	else
		fail "pg_build: root-$p: .pg says $(grep PG_PATCH "$r/.pg"), postgres --version '$v'"
	fi
done
if "$top/build/elfclosure" "$rp" /usr/lib/postgresql/18/bin.elf/postgres /usr/lib/postgresql/18/bin.elf/pgbench \
	> "$tmp/closure" 2> "$tmp/err" && grep -q 'libc\.so\.6$' "$tmp/closure"; then
	pass "pg_build: the prefault build's postgres and pgbench resolve all $(wc -l < "$tmp/closure") libraries inside its root"
else
	fail "pg_build: the closure is incomplete: $(cat "$tmp/err")"
fi
cp -al "$rp" "$tmp/root" 2>/dev/null || cp -a "$rp" "$tmp/root"
rm -f "$tmp/root/usr/lib/x86_64-linux-gnu/"libzstd.so.1
rc=0; "$top/build/elfclosure" "$tmp/root" /usr/lib/postgresql/18/bin.elf/postgres > /dev/null 2> "$tmp/err" || rc=$?
if [ "$rc" != 0 ] && grep -q 'libzstd\.so\.1' "$tmp/err"; then
	pass "pg_build: without libzstd.so.1 the closure fails naming it: $(head -n1 "$tmp/err" | cut -c1-120)"
else
	fail "pg_build: a missing libzstd.so.1 went unnamed (rc $rc): $(cat "$tmp/err")"
fi
rm -rf "$tmp/root"

# --- prefault does what it says: its log line; none (the control) has none
if [ "$(id -u)" = 0 ] && ! id -u postgres > /dev/null 2>&1; then
	skip "pg_build: no postgres user to run the server"
	tests_done
	exit 0
fi
# run ROOT MITIGATION DIR: a 3 s pgbench on a 16 MB shared_buffers.
run() {
	nice -n 10 "$top/scripts/pg-run.sh" --pg-root "$1" --mitigation "$2" --shared-buffers 16M --scale 2 \
		--clients 2 --builtins simple-update --duration 3 --cold on --buffercache-ms 500 "$3" > "$3.log" 2>&1
}
line="prefaulted buffer descriptors: [0-9]* pages of 4 kB, [0-9]* bytes of page table entries, in [0-9.]* ms"
rc=0; run "$rp" prefault "$tmp/p" || rc=$?
doc=$(find "$tmp/p/runs" -name 'pgbench-*-mit_prefault-*.json' 2>/dev/null | head -n1)
log=$(cat "$tmp/p/logs"/postgres-*.log 2>/dev/null || true)
# 16 MB: 2,048 descriptors of 64 bytes, 32 pages of 4 KB (33 when the
# array does not start on a page).
n=$(echo "$log" | sed -n 's/.*prefaulted buffer descriptors: \([0-9]*\) pages.*/\1/p' | head -n1)
if [ "$rc" = 0 ] && [ "$(echo "$log" | grep -c "$line")" -ge 1 ] && { [ "$n" = 32 ] || [ "$n" = 33 ]; }; then
	pass "pg_build: the prefault server logged its cost: $(echo "$log" | grep -o "$line" | head -n1)"
else
	fail "pg_build: no prefault cost line (rc $rc, pages '$n'): $(tail -n 3 "$tmp/p.log")"
fi
if [ "$(echo "$log" | grep -c 'prefaulted buffer descriptors')" -le 2 ]; then
	pass "pg_build: ...once per server start ($(echo "$log" | grep -c 'prefaulted buffer descriptors') lines over the start and the cold restart), not once per backend"
else
	fail "pg_build: $(echo "$log" | grep -c 'prefaulted buffer descriptors') prefault lines: logged per backend"
fi
if [ -n "$doc" ] && jq -e '.config.mitigation == "prefault" and .config.pg_patch == "prefault"
	and .provenance.versions.postgresql_patch == "prefault"
	and (.provenance.versions.postgresql | test("patch prefault\\)"))
	and (.results.phase.fill.tps > 0)' "$doc" > /dev/null; then
	pass "pg_build: the document records the mitigation, the patch, version() '$(jq -r .provenance.versions.postgresql "$doc" | cut -c1-70)...' and a fill tps"
else
	fail "pg_build: the prefault document: $(jq -c '{config, v: .provenance.versions, f: .results.phase}' "$doc" 2>/dev/null || echo none)"
fi
rc=0; run "$rn" none "$tmp/n" || rc=$?
if [ "$rc" = 0 ] && ! cat "$tmp/n/logs"/postgres-*.log | grep -q 'prefaulted'; then
	pass "pg_build: the unpatched build logs no prefault (the control)"
else
	fail "pg_build: the unpatched build: rc $rc, $(grep prefaulted "$tmp/n/logs"/postgres-*.log | head -n1)"
fi
tests_done
