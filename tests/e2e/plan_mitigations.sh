#!/bin/sh
# MITIGATIONS and SCENARIO=mitigations in the planner (issue 26,
# docs/mitigations.md): bad values refused naming the valid ones; each
# mitigation a cell per model beside none, made of the page size, lock and
# strategy it stands for, with --mitigation in its bufbench options;
# hugepages 2 MB and 1 GB (1 GB optional); the record keeps the base the
# user gave; the scenario's kernel is 7.2-lab where it is built, the host
# otherwise, said so.  No guest boots here.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
plan=$top/build/plan
[ -x "$plan" ] || { fail "plan_mitigations: build/plan missing (make first)"; exit 1; }
command -v jq >/dev/null || { skip "plan_mitigations: no jq"; exit 0; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
TAB=$(printf '\t')
unset KERNEL HUGEPAGES BASELINE BASELINE_MODELS MODELS MODEL_SWITCH PAGES CLIENTS LOCKS \
	STRATEGY MITIGATIONS SCENARIO DURATION WARMUP REPEAT POOL RELATION WORKLOAD BUFBENCH_ARGS \
	PGBENCH PG_HUGE_PAGES PG_HUGEPAGES PG_SHARED_BUFFERS PG_BUILTINS PG_SCALE PG_REPEAT \
	PROFILE VCPUS MEM_MB ACCEL PREEMPTLAB_ACCEL ARCH EVIDENCE 2>/dev/null || true
export PREEMPTLAB_HOST_ARCH=amd64 PREEMPTLAB_QEMU_USER=0
# An empty kernel cache: 7.2-lab is not built there.
export PREEMPTLAB_CACHE="$tmp/cache"
mkdir -p "$tmp/cache"

refuse() {
	what=$1 want=$2; shift 2
	rc=0; "$plan" --check --top "$top" "$@" > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "$want" "$tmp/out"; then
		pass "plan_mitigations: $what is refused: $(head -n1 "$tmp/out" | cut -c1-140)"
	else
		fail "plan_mitigations: $what: rc $rc, said: $(cat "$tmp/out") (wanted '$want')"
	fi
}
refuse "an unknown mitigation" "MITIGATIONS: 'magic' is not a mitigation; use none, prefault" \
	KERNEL=7.0 MITIGATIONS=none,magic
# ...naming every mitigation of the vocabulary (build/plan --vocabulary).
names=$("$plan" --vocabulary | awk '/^### / { m = ($2 == "mitigations"); next }
	m && /^\| `/ { split($0, f, "`"); print f[2] }')
missing=""
for n in $names; do grep -qF -- "$n" "$tmp/out" || missing="$missing $n"; done
check "plan_mitigations: the refusal names all $(echo "$names" | wc -l) mitigations${missing:+ (missing:$missing)}" \
	sh -c "[ -z '$missing' ] && [ $(echo "$names" | wc -l) -ge 7 ]"
refuse "rseq:4 (under the kernel's 5 us)" "rseq:N takes 5..50 us" KERNEL=7.0 MITIGATIONS=none,rseq:4
refuse "rseq:51" "rseq:N takes 5..50 us" KERNEL=7.0 MITIGATIONS=none,rseq:51
refuse "mitigations without none" "add none" KERNEL=7.0 MITIGATIONS=prefault
# The ranges read alike, whichever variable (issue 35): partitioned:0 was
# "not a strategies value", partitioned:65 bufbench's "unknown --strategy".
refuse "STRATEGY=partitioned:0" "STRATEGY: 'partitioned:0': partitioned:N takes 1..64 parts" KERNEL=host STRATEGY=partitioned:0 PGBENCH=off
refuse "STRATEGY=partitioned:65" "STRATEGY: 'partitioned:65': partitioned:N takes 1..64 parts" KERNEL=host STRATEGY=partitioned:65 PGBENCH=off
refuse "partitioned:65" "MITIGATIONS: 'partitioned:65': partitioned:N takes 1..64 parts" KERNEL=7.0 MITIGATIONS=none,partitioned:65
refuse "partitioned:0" "MITIGATIONS: 'partitioned:0': partitioned:N takes 1..64 parts" KERNEL=7.0 MITIGATIONS=none,partitioned:0
rc=0; "$top/build/bufbench" --mitigation partitioned:65 > "$tmp/out" 2>&1 || rc=$?
check "plan_mitigations: bufbench words --mitigation partitioned:65 as the planner does (rc $rc)" \
	grep -qF "'partitioned:65': partitioned:N takes 1..64 parts" "$tmp/out"
rc=0; "$top/build/bufbench" --strategy partitioned:65 > "$tmp/out" 2>&1 || rc=$?
check "plan_mitigations: ...and --strategy partitioned:65 (rc $rc)" \
	grep -qF "'partitioned:65': partitioned:N takes 1..64 parts" "$tmp/out"
# rseq:05 and rseq:5, partitioned:016 and partitioned:16: one cell each.
mkdir -p "$tmp/n1" "$tmp/n2"
"$plan" --out "$tmp/n1" --top "$top" KERNEL=host MITIGATIONS=none,rseq:05,rseq:5,partitioned:016 \
	PGBENCH=off > "$tmp/out" 2>&1 || true
"$plan" --out "$tmp/n2" --top "$top" KERNEL=host MITIGATIONS=none,rseq:5,partitioned:16 \
	PGBENCH=off > "$tmp/out2" 2>&1 || true
check "plan_mitigations: rseq:05,rseq:5,partitioned:016 plan the cells of rseq:5,partitioned:16" \
	sh -c "[ -s '$tmp/n1/plan.json' ] && jq -c '[.units[].cells[].id]' '$tmp/n1/plan.json' > '$tmp/ids1' && jq -c '[.units[].cells[].id]' '$tmp/n2/plan.json' > '$tmp/ids2' && cmp -s '$tmp/ids1' '$tmp/ids2'"
check "plan_mitigations: ...and record them as rseq:5 and partitioned:16" \
	jqt "$tmp/n1/plan.json" '.settings.mitigations == ["none", "rseq:5", "partitioned:16"]'
mkdir -p "$tmp/n3"
"$plan" --out "$tmp/n3" --top "$top" KERNEL=host STRATEGY=partitioned:016,partitioned:16 PGBENCH=off > "$tmp/out" 2>&1 || true
check "plan_mitigations: STRATEGY=partitioned:016,partitioned:16 is one strategy, partitioned:16" \
	jqt "$tmp/n3/plan.json" '.settings.strategies == ["partitioned:16"]'
refuse "two page sizes beside MITIGATIONS" "give one PAGES" KERNEL=7.0 MITIGATIONS=none,prefault PAGES=4k,2m
refuse "rseq on an arm64 guest" "GENERIC_ENTRY" ARCH=arm64 KERNEL=7.0 MITIGATIONS=none,rseq:20 PGBENCH=off
refuse "touch-before-lock on pg19" "STRATEGY=pg19 has none" KERNEL=7.0 MITIGATIONS=none,touch-before-lock STRATEGY=pg19

mkdir -p "$tmp/r" "$tmp/r2" "$tmp/r3" "$tmp/r4" "$tmp/r5"
# The scenario on Debian's 7.0 (lazy; 6.12 none and full as the baseline).
"$plan" --out "$tmp/r" --top "$top" SCENARIO=mitigations KERNEL=7.0 MODELS=lazy REPEAT=1 \
	POOL=64M RELATION=68M PGBENCH=off > "$tmp/out" 2>&1 || { fail "plan_mitigations: plan: $(cat "$tmp/out")"; exit 1; }
pj=$tmp/r/plan.json
check "the scenario's mitigations are every mitigation" \
	jqt "$pj" '.settings.mitigations == ["none","prefault","touch-before-lock","rseq:5","rseq:20","rseq:50","hugepages","pg19","partitioned:8"]'
check "the record keeps the base the cells vary from (4k, tas, pg)" \
	jqt "$pj" '.settings.pages == ["4k"] and .settings.locks == ["tas"] and .settings.strategies == ["pg"]'
check "seed's fill regime: simple-update, relation 1.06x the pool, runs ended after the fill" \
	jqt "$pj" '.settings.workload == "simple-update" and .settings.steady_s > 0'
# Every unit: each mitigation (hugepages twice) for each of its models, each
# traced (seed's EVIDENCE) beside its bare twin (CONTROLS), which the
# table's timings come from.
for u in main.lazy baseline.none baseline.full; do
	cells=$(cells_file "$tmp/r/plan/$u.plan")
	n=$(grep -c '^bufbench' "$cells")
	ctl=$(cut -f2 "$cells" | grep -c -- '-ctl$')
	check "$u: 10 cells (9 mitigations, hugepages on 2 MB and 1 GB), each with its bare twin: $n, $ctl twins" \
		sh -c "[ $n -eq 20 ] && [ $ctl -eq 10 ]"
done
cells=$(cells_file "$tmp/r/plan/main.lazy.plan")
check "none: 4k, tas, pg, --mitigation none" sh -c "grep -q -- '--pages 4k --lock tas --strategy pg --seed 1 --mitigation none' '$cells'"
check "prefault: 4k tas pg, --mitigation prefault" sh -c "grep -q -- '--pages 4k --lock tas --strategy pg --seed 1 --mitigation prefault' '$cells'"
check "touch-before-lock: --mitigation touch-before-lock" sh -c "grep -q -- '--strategy pg --seed 1 --mitigation touch-before-lock' '$cells'"
for us in 5 20 50; do
	check "rseq:$us: lock rseq, its own grant length" sh -c "grep -- '-mit_rseq_$us-c' '$cells' | grep -q -- '--lock rseq --strategy pg --seed 1 --mitigation rseq:$us'"
done
check "hugepages on 2 MB pages, not optional in a guest" sh -c "awk -F '$TAB' '\$2 ~ /mit_hugepages/ && \$4 == \"2m\" && \$5 == 0' '$cells' | grep -q -- '--mitigation hugepages'"
check "hugepages on 1 GB pages, where they can be had" sh -c "awk -F '$TAB' '\$2 ~ /mit_hugepages/ && \$4 == \"1g\" && \$5 == 1' '$cells' | grep -q -- '--pages 1g'"
check "pg19: strategy pg19" sh -c "grep -q -- '--strategy pg19 --seed 1 --mitigation pg19' '$cells'"
check "partitioned:8: strategy partitioned:8" sh -c "grep -q -- '--strategy partitioned:8 --seed 1 --mitigation partitioned:8' '$cells'"
check "cell ids are unique" test "$(cat "$tmp/r/plan/"*.plan | sed -n "s/^cell${TAB}//p" | cut -f2 | sort | uniq -d | wc -l)" -eq 0
check "plan.json names each cell's mitigation" \
	jqt "$pj" '[.units[].cells[] | select(.tool == "bufbench") | .mitigation] | unique | length == 9'
check "the segment is sized for the largest variant (partitioned, rseq)" jqt "$pj" '.sizing.segment_bytes > 0'

# A variable given beside the scenario wins; a plain plan has no mitigation.
"$plan" --out "$tmp/r2" --top "$top" SCENARIO=mitigations KERNEL=7.0 MODELS=lazy REPEAT=1 \
	MITIGATIONS=none,pg19 POOL=64M RELATION=68M PGBENCH=off > "$tmp/out" 2>&1
check "MITIGATIONS=none,pg19 beside the scenario: 2 cells a unit, and their twins" \
	test "$(grep -c "^cell${TAB}bufbench" "$tmp/r2/plan/main.lazy.plan")" -eq 4
"$plan" --out "$tmp/r3" --top "$top" KERNEL=7.0 MODELS=lazy REPEAT=1 PGBENCH=off > "$tmp/out" 2>&1
check "without MITIGATIONS no cell has --mitigation, ids as before" \
	sh -c "! grep -q -- '--mitigation\\|mit_' '$tmp/r3/plan/main.lazy.plan'"
check "...and plan.json lists no mitigation" jqt "$tmp/r3/plan.json" '.settings.mitigations == []'

# The scenario's kernel: 7.2-lab where built, else the host, said so.
"$plan" --check --top "$top" SCENARIO=mitigations PGBENCH=off > "$tmp/out" 2>&1 || true
check "7.2-lab not built: the host, and the plan says why" grep -q "7.2-lab is not built here" "$tmp/out"
mkdir -p "$tmp/cache/build/7.2-lab/7.2.13-1-test"
: > "$tmp/cache/build/7.2-lab/7.2.13-1-test/bzImage"
"$plan" --out "$tmp/r4" --top "$top" SCENARIO=mitigations PGBENCH=off REPEAT=1 > "$tmp/out" 2>&1 ||
	fail "plan_mitigations: with 7.2-lab built: $(cat "$tmp/out")"
check "7.2-lab built: the scenario runs on it, all four models" \
	jqt "$tmp/r4/plan.json" '.settings.kernel.label == "7.2-lab" and .settings.models == ["none","voluntary","full","lazy"]'
"$plan" --out "$tmp/r5" --top "$top" SCENARIO=mitigations KERNEL=7.0 PGBENCH=off REPEAT=1 MODELS=lazy > "$tmp/out" 2>&1
check "...unless KERNEL is given" jqt "$tmp/r5/plan.json" '.settings.kernel.label == "7.0"'
tests_done
