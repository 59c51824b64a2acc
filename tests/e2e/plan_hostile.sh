#!/bin/sh
# The planner on hostile values (issue 28, D3-D6 and hardening): control
# characters in any value (they split bench.conf, host.plan and units.tsv
# and reached a directory's name), a KERNEL path over PATH_MAX (cut, so a
# prefix naming another file was planned), plans of 96,000 cells or days
# (accepted; one took 1.5 GB in --check), numbers with blanks, '+' or hex,
# a 31st of February, a FIFO as HOST_TOPOLOGY (blocked), a guest larger
# than the host's RAM.  Each is refused at once (exit 2, within a second,
# naming the variable); FORCE=1 plans past the size limits.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
plan=$top/build/plan
[ -x "$plan" ] || { fail "plan_hostile: build/plan missing (make first)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset KERNEL HUGEPAGES BASELINE MODELS PAGES CLIENTS REPEAT POOL PG_SCALE PG_SHARED_BUFFERS \
	DURATION MEM_MB FORCE ICOUNT_EPOCH HOST_TOPOLOGY 2>/dev/null || true
export PREEMPTLAB_HOST_ARCH=amd64 PREEMPTLAB_QEMU_USER=0
NL='
'
TAB=$(printf '\t')

# refuse "WHAT" "MESSAGE PART" VAR=value...: exit 2 within a second
# (within_ms), the message naming the fix, and nothing written.
within_ms=1000
refuse() {
	what=$1 want=$2; shift 2
	t0=$(date +%s%N)
	rc=0; "$plan" --top "$top" --out "$tmp/run" "$@" > "$tmp/out" 2>&1 || rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	if [ "$rc" = 2 ] && grep -qF -- "$want" "$tmp/out" && [ "$ms" -lt "$within_ms" ] && [ ! -e "$tmp/run" ]; then
		pass "plan_hostile: $what is refused in ${ms} ms: $(head -n1 "$tmp/out" | cut -c1-120)"
	else
		fail "plan_hostile: $what: rc $rc after ${ms} ms, said: $(head -c 300 "$tmp/out") (wanted '$want')"
	fi
	rm -rf "$tmp/run"
}
refuse "a leading newline in POOL (D3)" "POOL holds a control character" KERNEL=host "POOL=${NL}32M"
refuse "a leading TAB in PG_SCALE (D3)" "PG_SCALE holds a control character" KERNEL=host "PG_SCALE=${TAB}3"
refuse "a TAB in PG_SHARED_BUFFERS (D3)" "PG_SHARED_BUFFERS holds a control character" KERNEL=host "PG_SHARED_BUFFERS=${TAB}128M"
mkdir -p "$tmp/k"
cp /dev/null "$tmp/k/img${TAB}host"
refuse "a TAB in a KERNEL path (D4)" "KERNEL holds a control character" "KERNEL=$tmp/k/img${TAB}host"
refuse "a newline in a KERNEL path (D4)" "KERNEL holds a control character" "KERNEL=$tmp/k/a${NL}b"
refuse "ESC in MODELS" "MODELS holds a control character" KERNEL=host "MODELS=$(printf 'current\033[31m')"
long=$tmp/k/$(head -c 4200 /dev/zero | tr '\0' a)
refuse "a KERNEL path over PATH_MAX (D5)" "over PATH_MAX (4096)" "KERNEL=$long"
# A path of 300 characters (over the old 256) is used whole: the cut one
# named another file that exists.
mid=$tmp/k/$(head -c 300 /dev/zero | tr '\0' b)
cut=$(printf '%s' "$mid" | cut -c1-255)
printf 'x' > "$cut"
refuse "a 300-character KERNEL path whose 255-character prefix exists (D5)" "no kernel image there" "KERNEL=$mid"
# The issue's forms; sizing asks bufbench once per client count first.
within_ms=10000
refuse "96,000 cells on the host (D6)" "more than the 20000 a plan may have" KERNEL=host REPEAT=1000 \
	CLIENTS="$(seq -s, 1 32)"
refuse "REPEAT=1000 over 32 client counts in a guest (D6: 60 s, 1.5 GB)" "a plan may have" KERNEL=7.0 \
	REPEAT=1000 CLIENTS="$(seq -s, 1 32)"
within_ms=1000
refuse "a plan of days (D6)" "more than the 72 a plan may take" KERNEL=host DURATION=600 REPEAT=200
refuse "FORCE=yes" "use FORCE=1" KERNEL=host FORCE=yes
refuse "REPEAT=' 3'" "expected a whole number" KERNEL=host "REPEAT= 3"
refuse "REPEAT=+3" "expected a whole number" KERNEL=host REPEAT=+3
refuse "CLIENTS=0x8" "CLIENTS" KERNEL=host CLIENTS=0x8
refuse "POOL=0x1p25 (a hex float)" "expected a size" KERNEL=host POOL=0x1p25
refuse "POOL=' 32M'" "expected a size" KERNEL=host "POOL= 32M"
refuse "POOL=+32M" "expected a size" KERNEL=host POOL=+32M
refuse "POOL=1e3M" "expected a size" KERNEL=host POOL=1e3M
refuse "POOL=3.2.1M" "expected a size" KERNEL=host POOL=3.2.1M
refuse "ICOUNT_EPOCH=2026-02-31" "ICOUNT_EPOCH=2026-02-31" KERNEL=7.0 ICOUNT_EPOCH=2026-02-31
refuse "ICOUNT_EPOCH=2026-04-31T10:00:00" "ICOUNT_EPOCH" KERNEL=7.0 ICOUNT_EPOCH=2026-04-31T10:00:00
mkfifo "$tmp/fifo"
refuse "HOST_TOPOLOGY=a FIFO" "is not a regular file" KERNEL=7.0 HOST_TOPOLOGY="$tmp/fifo"
refuse "HOST_TOPOLOGY=/dev/zero" "is not a regular file" KERNEL=7.0 HOST_TOPOLOGY=/dev/zero
ram=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
refuse "MEM_MB over the host's $ram MB" "more than this host's RAM" KERNEL=7.0 MEM_MB=$((ram + 1024))

# ok "WHAT" VAR=value...: planned (exit 0).
ok() {
	what=$1; shift
	rc=0; "$plan" --check --top "$top" "$@" > "$tmp/out" 2>&1 || rc=$?
	check "plan_hostile: $what is planned (rc $rc)" test "$rc" = 0
}
ok "POOL=32M and POOL=1.5G" KERNEL=host POOL=32M RELATION=1.5G
ok "ICOUNT_EPOCH=2028-02-29 (a leap day)" KERNEL=7.0 ICOUNT_EPOCH=2028-02-29
ok "FORCE=1 past the cell limit" KERNEL=host REPEAT=700 CLIENTS=1,2,4,8,16,32,64,128,256,512 FORCE=1
ok "FORCE=1 past the hour limit" KERNEL=host DURATION=600 REPEAT=200 FORCE=1

# FORCE=1 on the issue's plan (issue 35): 384,000 cells took over 60 s and
# 2.2 GB (a cell grew the array by one, and each carried two 3 KB lists).
# Under a 1 GB address-space limit, within 30 s.
clients=$(seq -s, 1 32)
t0=$(date +%s)
rc=0
# shellcheck disable=SC3045 # dash's and bash's ulimit have -v
(ulimit -v 1048576; exec "$plan" --check --top "$top" KERNEL=7.0 REPEAT=1000 CLIENTS="$clients" \
	PGBENCH=off FORCE=1) > "$tmp/out" 2>&1 || rc=$?
s=$(($(date +%s) - t0))
check "plan_hostile: FORCE=1 REPEAT=1000 CLIENTS=1..32 plans 384000 cells in 1 GB (rc $rc, ${s} s)" \
	grep -q '384000 bufbench cells' "$tmp/out"
check "plan_hostile: ...within 30 s (${s} s)" test "$s" -lt 30
# FORCE stays out of the reproduce line: the plan's command and, for a
# manifest that has it, the report's.
mkdir "$tmp/forced"
rc=0; "$plan" --top "$top" --out "$tmp/forced" KERNEL=host DURATION=600 REPEAT=200 FORCE=1 > "$tmp/out" 2>&1 || rc=$?
check "plan_hostile: a FORCE=1 plan's command has no FORCE (rc $rc)" \
	sh -c "grep -q '\"command\": \"make bench .*REPEAT=200' '$tmp/forced/plan.json' && ! grep -q 'FORCE' '$tmp/forced/plan.json'"
if [ -x "$top/build/report" ]; then
	cp -r "$top/tests/data/run-fixture" "$tmp/fx"
	sed -i 's/"command": "make bench KERNEL=6.12,7.0 /"command": "make bench FORCE=1 KERNEL=6.12,7.0 /' "$tmp/fx/manifest.json"
	rc=0; "$top/build/report" --reproduce-command "$tmp/fx" > "$tmp/repro" 2> "$tmp/repro.err" || rc=$?
	check "plan_hostile: a manifest's FORCE=1 is left out of the reproduce command (rc $rc)" \
		sh -c "grep -q '^make bench KERNEL=' '$tmp/repro' && ! grep -q FORCE '$tmp/repro'"
else
	fail "plan_hostile: build/report missing (make first)"
fi
tests_done
