#!/bin/sh
# PostgreSQL + pgbench in an arm64 guest from this x86 host (ARCH=arm64):
# Debian's arm64 postgresql-15 and its library closure through the private
# apt (scripts/pg-guest-root.sh arm64), pgsample cross-built against arm64 libpq,
# one boot of Debian's arm64 7.0 under icount with a few seconds of
# pgbench on 2 MB huge pages (huge_pages=on with the guest's reservation).
# Also: the planner plans pgbench for an arm64 guest by default, and the
# library closure (build/elfclosure) fails, naming the library, when one is missing.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
plan=$top/build/plan

# The planner: pgbench is on for an arm64 guest unless asked off.
check "pg arm64: PGBENCH=on is accepted for an arm64 guest" \
	sh -c "'$plan' --check --top '$top' PGBENCH=on KERNEL=7.0 ARCH=arm64 > /dev/null 2>&1"
mkdir -p "$tmp/plan" "$tmp/plan-off"
"$plan" --top "$top" --out "$tmp/plan" KERNEL=7.0 ARCH=arm64 > /dev/null 2>&1 || true
check "pg arm64: an arm64 guest's plan has pgbench by default" \
	jqt "$tmp/plan/plan.json" '.settings.pgbench.enabled == true and .settings.arch == "arm64"'
"$plan" --top "$top" --out "$tmp/plan-off" KERNEL=7.0 ARCH=arm64 PGBENCH=off > /dev/null 2>&1 || true
check "pg arm64: ... and none with PGBENCH=off" jqt "$tmp/plan-off/plan.json" '.settings.pgbench.enabled == false'

for tool in qemu-system-aarch64 aarch64-linux-gnu-gcc readelf; do
	if ! command -v "$tool" > /dev/null; then
		skip "pg arm64: no $tool (./configure --install-deps: qemu-system-arm, gcc-aarch64-linux-gnu, binutils)"
		tests_done; exit 0
	fi
done
if ! root=$("$top/scripts/pg-guest-root.sh" arm64 2> "$tmp/root.err"); then
	if grep -q -e 'apt-get update of .* failed' -e 'download .* failed' "$tmp/root.err"; then
		skip "pg arm64: Debian's archive is unreachable and no arm64 PostgreSQL is cached"
		tests_done; exit 0
	fi
	cat "$tmp/root.err"; fail "pg arm64: scripts/pg-guest-root.sh"; tests_done; exit 1
fi
pass "pg arm64: arm64 PostgreSQL sysroot at $root"
check "pg arm64: its postgres is an aarch64 program" \
	sh -c "file -L '$root/usr/lib/postgresql/15/bin/postgres' | grep -q aarch64"

# The closure: libpq reaches libssl; a root without ICU fails naming it.
"$top/build/elfclosure" "$root" /usr/lib/postgresql/15/bin/pgbench > "$tmp/closure" 2>&1 || true
check "pg arm64: pgbench's closure has libpq, libssl and the aarch64 loader" \
	sh -c "grep -q '/libpq.so.5\$' '$tmp/closure' && grep -q '/libssl.so.3\$' '$tmp/closure' && grep -q 'ld-linux-aarch64.so.1\$' '$tmp/closure'"
mkdir -p "$tmp/thin/usr/lib/postgresql/15/bin"
cp "$root/usr/lib/postgresql/15/bin/postgres" "$tmp/thin/usr/lib/postgresql/15/bin/"
(cd "$root" && find lib -name 'libc.so.6' -o -name 'ld-linux-aarch64.so.1') > "$tmp/libc.list"
(cd "$root" && tar cf - -T "$tmp/libc.list") | (cd "$tmp/thin" && tar xf -)
rc=0; "$top/build/elfclosure" "$tmp/thin" /usr/lib/postgresql/15/bin/postgres > /dev/null 2> "$tmp/thin.err" || rc=$?
check "pg arm64: a sysroot without ICU fails the closure, naming libicuuc.so.72" \
	sh -c "[ $rc = 1 ] && grep -q 'libicuuc.so.72 (needed by /usr/lib/postgresql/15/bin/postgres)' '$tmp/thin.err'"

if ! ARCH=arm64 "$top/scripts/kernel-resolve.sh" 7.0 > "$tmp/k" 2> "$tmp/k.err"; then
	if grep -q -e 'apt-get update of .* failed' -e 'download .* failed' "$tmp/k.err"; then
		skip "pg arm64: Debian's archive is unreachable and no arm64 7.0 image is cached"
		tests_done; exit 0
	fi
	cat "$tmp/k.err"; fail "pg arm64: resolve 7.0 for arm64"; tests_done; exit 1
fi
{ make -C "$top" cross-guest && make -C "$top" cross-pgsample; } > "$tmp/cross.out" 2>&1 ||
	{ tail -n 20 "$tmp/cross.out"; fail "pg arm64: make cross-guest cross-pgsample"; tests_done; exit 1; }
check "pg arm64: pgsample is cross-built for aarch64 against arm64 libpq" \
	sh -c "file '$top/build-arm64/pgsample' | grep -q 'aarch64.*dynamically linked' && readelf -d '$top/build-arm64/pgsample' | grep -q 'libpq.so.5'"

# One boot: one tiny bufbench cell, then one pgbench cluster on 2 MB pages.
export KERNEL=7.0 ARCH=arm64 BASELINE=none PAGES=2m HUGEPAGES=on PG_HUGE_PAGES=on
export CLIENTS=2 DURATION=2 REPEAT=1 PGBENCH=on PG_BUILTINS=select-only PG_REPEAT=1 PG_DURATION=3
export REPRO_MIN=off POOL=64M RELATION=256M ICOUNT_EPOCH=2026-01-01
run=$tmp/run
start=$(date +%s)
if "$top/scripts/bench.sh" "$run" > "$tmp/out" 2>&1; then
	pass "pg arm64: 7.0 arm64 guest bench with pgbench finished ($(( $(date +%s) - start ))s)"
else
	cat "$tmp/out"; tail -n 25 "$run"/logs/console-*.log; fail "pg arm64: 7.0 arm64 guest bench with pgbench"
fi
f=$run/runs/pgbench-7.0-full-hpon-s_lock-select-only-c2-r1.json
if [ -f "$f" ]; then
	check "pg arm64: pgbench ran in the guest with tps > 0" jqt "$f" '.results.tps > 0'
	check "pg arm64: its provenance.arch is aarch64" jqt "$f" '.provenance.arch == "aarch64"'
	check "pg arm64: it records Debian's PostgreSQL 15 ($(jq -r .provenance.versions.postgresql "$f"))" \
		jqt "$f" '.provenance.versions.postgresql | test("^(PostgreSQL )?15\\.[0-9]+ \\(Debian")'
	check "pg arm64: the server got 2 MB huge pages (huge_pages=on)" \
		jqt "$f" '.config.huge_pages == "on" and .provenance.page_size_kb == 2048'
	check "pg arm64: the kernel's static model full is recorded" \
		jqt "$f" '.provenance.preempt_model == "full" and .provenance.preempt_model_source == "plan"'
else
	fail "pg arm64: no pgbench result arrived over the channel"
fi
check "pg arm64: the summary's pgbench row names aarch64" \
	sh -c "sed -n '/^pgbench tps/,\$p' '$run/summary.txt' | grep -q '^7.0(aarch64) .* on '"
check "pg arm64: no QEMU left" no_guest_left "$run"
tests_done
