#!/bin/sh
# MITIGATIONS' pgbench cells in the planner (issue 26, docs/mitigations.md):
# one cluster per mitigation that exists in PostgreSQL (none, prefault,
# touch-before-lock, hugepages, pg19), each naming its server (version and
# build); rseq and partitioned have none, and the plan says so; where
# Debian's source of the major cannot be fetched (pg/sources: 17 here) the
# patched cells are left out naming why, and SCENARIO=mitigations picks
# the freelist's newest major whose source can be (18) unless PG_VERSION
# is given; pg-source.sh refuses such a major the same way.  No fetch, no
# build, no run.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
plan=$top/build/plan
[ -x "$plan" ] || { fail "plan_pg_mitigations: build/plan missing (make first)"; exit 1; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
unset KERNEL HUGEPAGES MODELS PAGES CLIENTS LOCKS STRATEGY MITIGATIONS SCENARIO PGBENCH \
	PG_VERSION PG_HUGE_PAGES PG_HUGEPAGES ARCH EVIDENCE 2>/dev/null || true
export PREEMPTLAB_HOST_ARCH=amd64 PREEMPTLAB_QEMU_USER=0 PREEMPTLAB_CACHE="$tmp/cache"
mkdir -p "$tmp/cache"
TAB=$(printf '\t')

# cells OUT VAR=...: the host unit's pgbench lines of a fresh plan.
cells() {
	out=$1; shift
	rm -rf "$tmp/run"; mkdir -p "$tmp/run"
	"$plan" --out "$tmp/run" --top "$top" KERNEL=host "$@" > "$tmp/$out.log" 2>&1 ||
		{ fail "plan_pg_mitigations: $*: $(tail -n2 "$tmp/$out.log")"; return 1; }
	sed -n "s/^cell${TAB}pgbench/pgbench/p" "$tmp/run/plan/host.plan" | cut -f3,7- > "$tmp/$out"
}

if cells scen SCENARIO=mitigations; then
	want=$(printf 'off\tnone\t18\tnone\noff\tprefault\t18\tprefault\noff\ttouch-before-lock\t18\ttouch-before-lock\non\thugepages\t18\tnone\noff\tpg19\t19\tdebian')
	if [ "$(cat "$tmp/scen")" = "$want" ]; then
		pass "plan_pg_mitigations: the scenario's pgbench cells: none, prefault, touch-before-lock, hugepages (huge_pages=on) on the lab's 18 builds, pg19 on Debian's 19"
	else
		fail "plan_pg_mitigations: the scenario's pgbench cells: $(tr '\t\n' ' |' < "$tmp/scen")"
	fi
	if grep -q 'PG_VERSION=18: the patched PostgreSQL of MITIGATIONS is built from Debian.s source, and Debian.s source of PostgreSQL 17 .* cannot be fetched here' "$tmp/scen.log"; then
		pass "plan_pg_mitigations: 18 instead of 17, and the plan says why"
	else
		fail "plan_pg_mitigations: no note for 18 instead of 17: $(cat "$tmp/scen.log")"
	fi
	if grep -q 'rseq:5 has no pgbench cell' "$tmp/scen.log" && grep -q 'partitioned:8 has no pgbench cell' "$tmp/scen.log" &&
		[ "$(grep -c 'rseq:[0-9]* has no pgbench' "$tmp/scen.log")" = 1 ]; then
		pass "plan_pg_mitigations: rseq and partitioned: no pgbench cell, said once each"
	else
		fail "plan_pg_mitigations: rseq/partitioned notes: $(grep 'no pgbench' "$tmp/scen.log")"
	fi
	if jq -e '[.units[0].cells[] | select(.tool == "pgbench") | .pg_build] == ["none","prefault","touch-before-lock","none","debian"]' \
		"$tmp/run/plan.json" > /dev/null 2>&1; then
		pass "plan_pg_mitigations: plan.json names each pgbench cell's build"
	elif ! command -v jq > /dev/null; then
		skip "plan_pg_mitigations: no jq for plan.json"
	else
		fail "plan_pg_mitigations: plan.json's pgbench builds: $(jq -c '[.units[0].cells[] | select(.tool == "pgbench") | .pg_build]' "$tmp/run/plan.json")"
	fi
fi

# PG_VERSION=17 given: Debian's 17, without the patched cells, and why.
if cells v17 SCENARIO=mitigations PG_VERSION=17; then
	if [ "$(cut -f2 "$tmp/v17" | tr '\n' ' ')" = "none hugepages pg19 " ] &&
		[ "$(cut -f4 "$tmp/v17" | sort -u | tr '\n' ' ')" = "debian " ] &&
		grep -q 'no pgbench cell for prefault or touch-before-lock: Debian.s source of PostgreSQL 17' "$tmp/v17.log"; then
		pass "plan_pg_mitigations: PG_VERSION=17: none, hugepages and pg19 on Debian's packages; prefault and touch-before-lock left out, naming why"
	else
		fail "plan_pg_mitigations: PG_VERSION=17: $(tr '\t\n' ' |' < "$tmp/v17") / $(grep MITIGATIONS "$tmp/v17.log")"
	fi
fi

# Without a patched cell none runs Debian's package; PG_VERSION=19 has no pg19 cell.
if cells v19 MITIGATIONS=none,pg19,hugepages PG_VERSION=19; then
	if [ "$(cut -f2,3,4 "$tmp/v19" | tr '\t\n' ' |')" = "none 19 debian|hugepages 19 debian|" ] &&
		grep -q "pg19's pgbench cell is none's" "$tmp/v19.log"; then
		pass "plan_pg_mitigations: PG_VERSION=19: none on Debian's 19, no separate pg19 cell"
	else
		fail "plan_pg_mitigations: PG_VERSION=19: $(tr '\t\n' ' |' < "$tmp/v19")"
	fi
fi

# The source fetch refuses what pg/sources marks missing, before any download.
rc=0; "$top/scripts/pg-source.sh" 17 > "$tmp/src.out" 2>&1 || rc=$?
if [ "$rc" = 2 ] && grep -q "cannot be fetched here: missing 17" "$tmp/src.out" && grep -q '18 (sid)' "$tmp/src.out"; then
	pass "plan_pg_mitigations: pg-source.sh 17 is refused naming why and what there is"
else
	fail "plan_pg_mitigations: pg-source.sh 17: rc $rc, $(cat "$tmp/src.out")"
fi
rc=0; "$top/scripts/pg-build.sh" 18 magic > "$tmp/b.out" 2>&1 || rc=$?
if [ "$rc" = 2 ] && grep -q 'prefault touch-before-lock' "$tmp/b.out"; then
	pass "plan_pg_mitigations: pg-build.sh refuses an unknown patch naming the patches"
else
	fail "plan_pg_mitigations: pg-build.sh 18 magic: rc $rc, $(cat "$tmp/b.out")"
fi
tests_done
