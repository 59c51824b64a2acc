#!/bin/sh
# scripts/materials.sh (issue 38): the servers a plan names are had once,
# into logs/pg-version.tsv and logs/pg-roots.tsv.  The host's own server
# has an empty ROOT column (run-plan.sh reads it with cut: a `read` with
# IFS=TAB collapses it, and a guest's pgbench cell once took the package
# for the root; tests/e2e/pg_guest_boot.sh runs that path).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
plan=$top/build/plan
[ -x "$plan" ] || { fail "materials: build/plan missing (make first)"; exit 1; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
unset KERNEL HUGEPAGES MODELS PAGES CLIENTS PGBENCH PG_VERSION MITIGATIONS SCENARIO 2>/dev/null || true
TAB=$(printf '\t')

mkdir -p "$tmp/run"
"$plan" --top "$top" --out "$tmp/run" KERNEL=host PGBENCH=on PG_VERSION=system CLIENTS=2 REPEAT=1 \
	> "$tmp/plan.out" 2>&1 || fail "materials: build/plan: $(tail -n 2 "$tmp/plan.out")"
"$top/scripts/materials.sh" "$tmp/run" > "$tmp/m.out" 2>&1 ||
	fail "materials: scripts/materials.sh: $(tail -n 2 "$tmp/m.out")"
v=$tmp/run/logs/pg-version.tsv
check "materials: PG_VERSION=system is one line: system, debian, no root, the package" \
	sh -c "[ \$(wc -l < '$v') = 1 ] && [ \"\$(cut -f1-3 '$v')\" = 'system${TAB}debian${TAB}' ]"
check "materials: no MITIGATIONS: pg-roots.tsv is empty" test ! -s "$tmp/run/logs/pg-roots.tsv"
check "materials: the host fetches no kernel (no kernel-*.env)" \
	sh -c "! ls '$tmp'/run/logs/kernel-*.env >/dev/null 2>&1"
tests_done
