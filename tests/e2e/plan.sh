#!/bin/sh
# The planner (build/plan): every bad value refused at once, naming the
# valid ones and creating nothing; the units, cells, sizes and estimate of
# good input; the flat files the runners read.  No guest boots here.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
plan=$top/build/plan
[ -x "$plan" ] || { fail "plan: build/plan missing (make first)"; exit 1; }
command -v jq >/dev/null || { skip "plan: no jq"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TAB=$(printf '\t')
# Only what a test sets reaches the planner.
unset KERNEL HUGEPAGES BASELINE BASELINE_MODELS MODELS MODEL_SWITCH PAGES CLIENTS LOCKS \
	STRATEGY DURATION WARMUP REPEAT POOL RELATION WORKLOAD BUFBENCH_ARGS PGBENCH PG_HUGE_PAGES \
	PG_HUGEPAGES PG_SHARED_BUFFERS PG_BUILTINS PG_SCALE PG_REPEAT PROFILE PROFILE_FREQ \
	PROFILE_CALLGRAPH VCPUS MEM_MB ACCEL PREEMPTLAB_ACCEL SCENARIO EVIDENCE CONTROLS HOLD_EVENTS \
	2>/dev/null || true

# These checks describe the plans of an x86 host (the amd64 catalog, huge
# pages its kernel maps); on an arm64 machine, or in an arm64 chroot under
# qemu-user (tests/native/arm64_chroot.sh), the planner plans as one would.
# arm64_guest.sh checks an arm64 host's and qemu-user's own plans.
export PREEMPTLAB_HOST_ARCH=amd64 PREEMPTLAB_QEMU_USER=0

# refuse "WHAT" "MESSAGE PART" VAR=value...: exit 2 within a second, and
# the message names the fix.
refuse() {
	what=$1 want=$2; shift 2
	t0=$(date +%s%N)
	rc=0; "$plan" --check --top "$top" "$@" > "$tmp/out" 2>&1 || rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	if [ "$rc" = 2 ] && grep -qF -- "$want" "$tmp/out" && [ "$ms" -lt 5000 ]; then
		pass "plan: $what is refused in ${ms} ms: $(head -n1 "$tmp/out" | cut -c1-150)"
	else
		fail "plan: $what: rc $rc after ${ms} ms, said: $(cat "$tmp/out") (wanted '$want')"
	fi
}
refuse "an unknown kernel" "known: 6.1 6.12 6.12-lab-hz250 7.0" KERNEL=7.9
refuse "an unknown page size" "use 4k, thp, 2m, 1g, try-2m, try-1g or 64k" PAGES=4k,3m
refuse "an unknown HUGEPAGES" "use off, on, try or compare" HUGEPAGES=yes
refuse "an unknown lock" "use tas, rseq, futex, mcs, resilient or resilient-late" LOCKS=tas,spin
refuse "an unknown strategy" "partitioned:N" STRATEGY=lru
refuse "partitioned:0" "partitioned:N" STRATEGY=partitioned:0
refuse "an unknown workload" "select-only or simple-update" WORKLOAD=tpcc
refuse "a model the kernel lacks" "offers the models 'lazy full', not 'none'" KERNEL=7.0 MODELS=none
refuse "an unknown model" "use none, voluntary, full, lazy or current" KERNEL=6.12 MODELS=rt
refuse "a baseline without PREEMPT_NONE" "has no PREEMPT_NONE" KERNEL=7.0 BASELINE=7.0.13
refuse "a baseline model it lacks" "BASELINE_MODELS" KERNEL=7.0 BASELINE_MODELS=lazy
refuse "an unknown MODEL_SWITCH" "use boot or runtime" KERNEL=7.0 MODEL_SWITCH=hot
refuse "an unknown ACCEL" "use kvm, tcg or icount" KERNEL=7.0 ACCEL=hvf
refuse "an ICOUNT_EPOCH that is no date" "YYYY-MM-DDTHH:MM:SS or YYYY-MM-DD" KERNEL=7.0 ICOUNT_EPOCH=yesterday
refuse "an ICOUNT_EPOCH with trailing junk" "YYYY-MM-DDTHH:MM:SS or YYYY-MM-DD" KERNEL=7.0 ICOUNT_EPOCH=2026-01-01Tnoon
refuse "BOOTS=0" "BOOTS" KERNEL=7.0 BOOTS=0
refuse "a missing kernel image" "no kernel image there" KERNEL=/nonexistent/bzImage
refuse "a bad bufbench option" "BUFBENCH_ARGS=--bogus: bufbench: unknown option" BUFBENCH_ARGS=--bogus
refuse "a bad size" "expected a size such as 128M" POOL=lots
refuse "an absurd size" "expected a size such as 128M" POOL=1e30
refuse "a fault-around the kernel would round" "a power of two from 4K" KERNEL=7.0 FAULT_AROUND_BYTES=96K
refuse "a fault-around past one page table" "a power of two from 4K" KERNEL=7.0 FAULT_AROUND_BYTES=4M
refuse "a fault-around on the host" "set in a guest only" KERNEL=host FAULT_AROUND_BYTES=4K
refuse "a base slice under 100 us" "from 100 to 100000" KERNEL=7.0 BASE_SLICE_US=50
refuse "a base slice on the host" "set in a guest only" KERNEL=host BASE_SLICE_US=3000
refuse "a pool too small for its clients" "too many clients" POOL=256k CLIENTS=64
refuse "a zero duration" "DURATION=0: expected a whole number from 1" DURATION=0
refuse "a non-numeric client count" "CLIENTS=x" CLIENTS=2,x
refuse "PGBENCH=maybe" "use on or off" PGBENCH=maybe
refuse "an unknown PG_HUGE_PAGES" "use off, on, try or compare" PG_HUGE_PAGES=always
refuse "an unknown pgbench builtin" "select-only, simple-update or tpcb-like" PG_BUILTINS=tpcc
refuse "a guest asked for dwarf unwinding" "frame pointers only" KERNEL=7.0 PROFILE_CALLGRAPH=dwarf
refuse "a shell metacharacter in a list" "has a character" LOCKS='tas;reboot'

# bench.sh refuses the same way before it makes a results directory.
before=$(find "$top/results" -mindepth 1 -maxdepth 1 | wc -l)
rc=0; PAGES=3m sh "$top/scripts/bench.sh" > "$tmp/b.out" 2>&1 || rc=$?
check "plan: make bench with a bad value exits 2 (rc $rc)" test "$rc" = 2
check "plan: and creates no results directory" test "$(find "$top/results" -mindepth 1 -maxdepth 1 | wc -l)" = "$before"

# --- the host's default plan -------------------------------------------------
run=$tmp/host
mkdir -p "$run"
"$plan" --top "$top" --out "$run" > /dev/null 2>&1
p=$run/plan.json
check "plan: host default: one unit that does not boot" jqt "$p" '(.units | length) == 1 and .units[0].kind == "host" and .estimate.boots == 0'
check "plan: host default: 4k, 2m and 1g x 3 repetitions = 9 bufbench cells" jqt "$p" '.estimate.bufbench_cells == 9'
check "plan: host default: 2m and 1g may be skipped where they cannot be had, 4k may not" \
	jqt "$p" '[.units[0].cells[] | select(.tool == "bufbench") | {pages, optional}] | unique_by(.pages) == [{pages: "1g", optional: true}, {pages: "2m", optional: true}, {pages: "4k", optional: false}]'
check "plan: host default: repetition outermost (r1 r1 r1 r2 ...)" \
	jqt "$p" '[.units[0].cells[] | select(.tool == "bufbench") | .rep] == [1,1,1,2,2,2,3,3,3]'
check "plan: host default: today's cell names" \
	jqt "$p" '.units[0].cells[0].id == "bufbench-host-4k-tas-c8-r1"'
check "plan: host default: pgbench with huge_pages off and on, shared_buffers = POOL" \
	jqt "$p" '.settings.pgbench | .huge_pages == ["off", "on"] and .shared_buffers == "128M"'
# Three runs a cell, as bufbench: with one, every pgbench comparison of the
# first report was "not computable: 1 and 1 runs" (issue 35).
check "plan: host default: pgbench runs 3 times a cell" jqt "$p" '.settings.pgbench.repeat == 3'
seg=$("$top/build/bufbench" --pool 128M --relation 512M --clients 8 --segment-size)
check "plan: the segment size is bufbench's own ($seg bytes)" jqt "$p" ".sizing.segment_bytes == $seg"
check "plan: 2 MB pages cover the segment with a little slack" \
	jqt "$p" ".sizing.hugepages_2m == ($seg + 2097151 | ./2097152 | floor) + 4"
check "plan: the estimate is the cells' time ($(jq .estimate.seconds "$p") s)" jqt "$p" '.estimate.seconds >= 9 * 10'
check "plan: the command that reruns it" jqt "$p" '.command == "make bench"'

# The flat files the runners read: no shell code, one cell a line.
cells=$(cells_file "$run/plan/host.plan")
check "plan: host.plan has a cell line per cell" test "$(wc -l < "$cells")" = "$(jq '.estimate.cells' "$p")"
check "plan: a bufbench line carries bufbench's argv word for word" \
	test "$(head -n1 "$cells")" = "bufbench${TAB}bufbench-host-4k-tas-c8-r1${TAB}current${TAB}4k${TAB}0${TAB}off${TAB}--clients 8 --duration 10 --warmup 0 --pool 128M --relation 512M --workload select-only --pages 4k --lock tas --strategy pg --seed 1"
check "plan: a pgbench line names its cluster's settings" \
	grep -qx "pgbench${TAB}pgbench-host-hpoff${TAB}off${TAB}current${TAB}8${TAB}3" "$cells"
check "plan: units.tsv has the unit, bench.conf its cell counts" \
	sh -c "grep -qx 'host${TAB}host${TAB}host${TAB}host${TAB}-' '$run/plan/units.tsv' && grep -qx 'total_cells${TAB}11' '$run/plan/bench.conf' && grep -qx 'total_bufbench${TAB}9' '$run/plan/bench.conf' && grep -qx 'total_pgbench${TAB}2' '$run/plan/bench.conf' && grep -qx 'total_pgruns${TAB}12' '$run/plan/bench.conf'"

# --- guests --------------------------------------------------------------------
run=$tmp/guest
mkdir -p "$run"
"$plan" --top "$top" --out "$run" KERNEL=7.0 CLIENTS=2 PGBENCH=off > /dev/null 2>&1
p=$run/plan.json
check "plan: KERNEL=7.0: baseline 6.12/none and 6.12/full, then 7.0 lazy and full, one boot each" \
	jqt "$p" '[.units[] | .id] == ["baseline.none", "baseline.full", "main.lazy", "main.full"] and .estimate.boots == 4'
check "plan: each boot sets its model on the command line" \
	jqt "$p" '[.units[] | .boot_model] == ["none", "full", "lazy", "full"]'
check "plan: guest 1g cells are optional under HUGEPAGES=compare, 2m not" \
	jqt "$p" '[.units[0].cells[] | select(.pages == "2m" or .pages == "1g") | {pages, optional}] | unique_by(.pages) == [{pages: "1g", optional: true}, {pages: "2m", optional: false}]'
check "plan: guest cell names keep kernel and model" \
	jqt "$p" '.units[2].cells[0].id == "bufbench-7.0-lazy-4k-tas-c2-r1"'
"$plan" --top "$top" --out "$run" KERNEL=7.0 CLIENTS=2 PGBENCH=off FAULT_AROUND_BYTES=4K BASE_SLICE_US=8000 > /dev/null 2>&1
check "plan: FAULT_AROUND_BYTES=4K reaches plan.json and every unit's knob lines (lab/plan/knobs.c), which the runner applies" \
	sh -c "jq -e '.settings.fault_around_bytes == 4096' '$p' > /dev/null &&
		[ \$(grep -lx 'knob${TAB}/sys/kernel/debug/fault_around_bytes 4096 fail keep FAULT_AROUND_BYTES=4096 CONFIG_DEBUG_FS, CONFIG_MMU' '$run'/plan/*.plan | wc -l) -eq 4 ]"
check "plan: BASE_SLICE_US=8000 likewise, in nanoseconds, after fault-around (the table's order)" \
	sh -c "jq -e '.settings.base_slice_us == 8000' '$p' > /dev/null &&
		[ \$(grep -l '^knob${TAB}/sys/kernel/debug/sched/base_slice_ns 8000000 fail keep BASE_SLICE_US=8000 ' '$run'/plan/*.plan | wc -l) -eq 4 ] &&
		grep '^knob' '$run'/plan/main.lazy.plan | cut -d' ' -f1 | tr '\\n' ' ' | grep -qx 'knob${TAB}/sys/kernel/debug/fault_around_bytes knob${TAB}/sys/kernel/debug/sched/base_slice_ns '"
check "plan: plan.json lists each unit's knobs, none restored in a guest" \
	jqt "$p" '[.units[].run.knobs[] | [.variable, .value, .restore]] | unique == [["BASE_SLICE_US", 8000000, false], ["FAULT_AROUND_BYTES", 4096, false]]'
"$plan" --top "$top" --out "$run" KERNEL=host CLIENTS=2 PGBENCH=off SLICE_EXT_US=20 LOCKS=tas,rseq > /dev/null 2>&1
hrun=$tmp/hrtick
mkdir -p "$hrun"
"$plan" --top "$top" --out "$hrun" KERNEL=7.2-lab BASELINE= MODELS=none,lazy PGBENCH=off SCHED_HRTICK=off > /dev/null 2>&1
check "plan: SCHED_HRTICK=off is a word knob line in each guest unit (NO_HRTICK to sched/features), and a string in plan.json" \
	sh -c "[ \$(grep -lx 'knob${TAB}/sys/kernel/debug/sched/features NO_HRTICK fail keep SCHED_HRTICK=off debugfs sched/features (and CONFIG_SCHED_DEBUG where the kernel has that option)' '$hrun'/plan/*.plan | wc -l) -eq 2 ] &&
	       jq -e '[.units[].run.knobs[] | .value] | unique == [\"NO_HRTICK\"]' '$hrun/plan.json' > /dev/null"
refuse "SCHED_HRTICK=maybe" "SCHED_HRTICK=maybe: use on or off" KERNEL=7.2-lab SCHED_HRTICK=maybe
refuse "SCHED_HRTICK on the host" "SCHED_HRTICK=off: set in a guest only" KERNEL=host SCHED_HRTICK=off
check "plan: SLICE_EXT_US=20 on the host is a knob line that skips a kernel without the file and restores the host's value" \
	grep -qx "knob${TAB}/sys/kernel/debug/rseq/slice_ext_nsec 20000 skip restore SLICE_EXT_US=20 CONFIG_RSEQ_SLICE_EXTENSION" "$run/plan/host.plan"
check "plan: every guest unit's conf names where its kernel's config is shipped (its tick, CONFIG_HZ)" \
	sh -c "[ \$(grep -lx 'kernel_config${TAB}/plan/kernel.config' '$run'/plan/*.plan | wc -l) -eq 4 ]"
"$plan" --top "$top" --out "$run" KERNEL=7.0 BASELINE_MODELS=none CLIENTS=2 PGBENCH=off > /dev/null 2>&1
check "plan: BASELINE_MODELS=none keeps the baseline to 6.12/none" \
	jqt "$p" '[.units[] | .id] == ["baseline.none", "main.lazy", "main.full"]'
"$plan" --top "$top" --out "$run" KERNEL=7.0 ARCH=arm64 CLIENTS=2 PGBENCH=off > /dev/null 2>&1
check "plan: an arm64 baseline with one model runs that model only" \
	jqt "$p" '[.units[] | select(.role == "baseline") | .boot_model] == ["voluntary"]'
"$plan" --top "$top" --out "$run" KERNEL=7.0 CLIENTS=2 PGBENCH=off > /dev/null 2>&1
mem0=$(jq .sizing.guest_mem_mb "$p")
"$plan" --top "$top" --out "$run" --initramfs-bytes 104857600 KERNEL=7.0 CLIENTS=2 PGBENCH=off > /dev/null 2>&1
check "plan: a 100 MB initramfs adds 400 MB of guest RAM ($mem0 -> $(jq .sizing.guest_mem_mb "$p"))" \
	jqt "$p" ".sizing.guest_mem_mb == $mem0 + 400"
"$plan" --top "$top" --out "$run" KERNEL=7.0 MODEL_SWITCH=runtime BASELINE=none PGBENCH=off > /dev/null 2>&1
check "plan: MODEL_SWITCH=runtime: one boot for both models" \
	jqt "$p" '(.units | length) == 1 and .units[0].models == ["lazy", "full"] and .units[0].boot_model == ""'
check "plan: guest clients default to 4 per vCPU" jqt "$p" ".settings.clients == [\"$(( $(nproc) * 4 ))\"]"
"$plan" --top "$top" --out "$run" KERNEL=7.0 BASELINE=none MODELS=lazy PG_HUGEPAGES=on PAGES=4k > /dev/null 2>&1
check "plan: PG_HUGEPAGES (old name) still sets PostgreSQL's huge_pages" jqt "$p" '.settings.pgbench.huge_pages == ["on"]'
mem=$(jq .sizing.guest_mem_mb "$p")
# shellcheck disable=SC2016 # jq's variables
check "plan: a guest's shared_buffers is a power of two near a sixteenth of its RAM ($mem MB), within 16M..128M" \
	jqt "$p" '.settings.pgbench.shared_buffers as $s | ($s | rtrimstr("M") | tonumber) as $m |
		($s | endswith("M")) and $m >= 16 and $m <= 128 and (["16","32","64","128"] | index($s | rtrimstr("M")))'
# shellcheck disable=SC2016 # jq's variables
check "plan: ... its tables 1.06x shared_buffers (the fill regime), each run cold, simple-update only" \
	jqt "$p" '.settings.pgbench as $g | ($g.shared_buffers | rtrimstr("M") | tonumber) as $m |
		($g.scale | tonumber) == ((1.06 * $m / 15) | ceil) and $g.cold and $g.builtins == ["simple-update"]'
"$plan" --top "$top" --out "$run" KERNEL=7.0 BASELINE=none MODELS=lazy PG_SHARED_BUFFERS=32M PG_SCALE=7 PG_COLD=off PAGES=4k > /dev/null 2>&1
check "plan: PG_SHARED_BUFFERS, PG_SCALE and PG_COLD given win in a guest" \
	jqt "$p" '.settings.pgbench | .shared_buffers == "32M" and .scale == "7" and (.cold | not)'
"$plan" --top "$top" --out "$run" KERNEL=7.0 BASELINE=none MODELS=lazy STRATEGY=pg,global PAGES=4k REPEAT=1 PGBENCH=off > /dev/null 2>&1
check "plan: STRATEGY is a dimension: pg keeps the old names, others are named" \
	jqt "$p" '[.units[0].cells[] | .id] == ["bufbench-7.0-lazy-4k-tas-c8-r1", "bufbench-7.0-lazy-4k-tas-global-c8-r1"] or [.units[0].cells[] | .strategy] == ["pg", "global"]'

# BOOTS: every guest unit booted again, the boot outermost; a boot's runs
# continue the numbering and seeds of the one before; under icount each
# boot's clock starts a second after the one before.
"$plan" --top "$top" --out "$run" KERNEL=7.0 BASELINE=none MODELS=full,lazy PAGES=4k REPEAT=2 \
	BOOTS=2 ACCEL=icount ICOUNT_EPOCH=2026-01-01T23:59:59 PG_REPEAT=2 > /dev/null 2>&1
check "plan: BOOTS=2: each unit twice, boots outermost" \
	jqt "$p" '[.units[] | .id] == ["main.full.b1", "main.lazy.b1", "main.full.b2", "main.lazy.b2"] and .estimate.boots == 4 and .settings.boots == 2'
check "plan: BOOTS=2: boot 2 numbers its runs 3 and 4, and seeds them so" \
	jqt "$p" '[.units[2].cells[] | select(.tool == "bufbench") | .id] == ["bufbench-7.0-full-4k-tas-c8-r3", "bufbench-7.0-full-4k-tas-c8-r4"]'
check "plan: BOOTS=2: bufbench's seed follows the run number" \
	grep -q "^cell${TAB}bufbench${TAB}bufbench-7.0-full-4k-tas-c8-r4.*--seed 4" "$run/plan/main.full.b2.plan"
check "plan: BOOTS=2: pgbench cells are named by boot and continue PG_REPEAT's numbering" \
	sh -c "grep -q '^cell${TAB}pgbench${TAB}pgbench-7.0-full-hpoff-b2' '$run/plan/main.full.b2.plan' && grep -qx 'pg_run${TAB}pgbench-7.0-full-hpoff-b2 run 3 full simple-update 8 2' '$run/plan/main.full.b2.plan' && grep -qx 'pg_run${TAB}pgbench-7.0-full-hpoff-b1 run 1 full simple-update 8 2' '$run/plan/main.full.b1.plan'"
# A pgbench cell's runs are the plan's (lab/plan/pg_runs.c): repetition
# outermost, a thread a vCPU at most (the plan's 2 vCPUs), max_connections
# the most clients plus the runner policy's headroom.
check "plan: a pgbench cell's runs, numbered and in order, with its max_connections" \
	sh -c "sed -n 's/^pg_run${TAB}pgbench-7.0-full-hpoff-b2 //p' '$run/plan/main.full.b2.plan' | tr '\\n' ';' | grep -qx 'max_connections 18;run 3 full simple-update 8 2;run 4 full simple-update 8 2;'"
# PG_WARMUP=on: one warm-up run first in each cluster (run 0 ... warm),
# counted in the cell's runs and the estimate.
mkdir -p "$tmp/warm"
"$plan" --top "$top" --out "$tmp/warm" KERNEL=7.0 BASELINE= MODELS=full,lazy MODEL_SWITCH=runtime \
	PAGES=4k PG_REPEAT=2 PG_WARMUP=on > /dev/null 2>&1
check "plan: PG_WARMUP=on: the cluster's first run is run 0 of its first model, marked warm" \
	sh -c "sed -n 's/^pg_run${TAB}pgbench-7.0-hpoff //p' '$tmp/warm/plan/main.plan' | sed -n 2,3p | tr '\\n' ';' |
		grep -qx 'run 0 full simple-update 8 2 warm;run 1 full simple-update 8 2;' &&
		[ \$(grep -c '^pg_run${TAB}.* run ' '$tmp/warm/plan/main.plan') = 5 ] &&
		jq -e '.settings.pgbench.warmup and .estimate.pgbench_runs == 5' '$tmp/warm/plan.json' > /dev/null"
# pg-run.sh by hand asks the same expansion; a typo is refused before a
# cluster exists, naming the values.
check "plan: --pg-runs refuses an unknown builtin, naming the known ones" \
	sh -c "out=\$('$plan' --pg-runs none tpcb 8 1 1 2>&1); [ \$? = 2 ] && echo \"\$out\" | grep -q 'use select-only, simple-update or tpcb-like'"
check "plan: --pg-runs on the host: one thread a client up to its CPUs" \
	sh -c "'$plan' --pg-runs current select-only 1 1 1 | grep -qx 'run 1 current select-only 1 1'"
check "plan: BOOTS=2 under icount: boot 2's clock starts a second later, over midnight" \
	jqt "$p" '[.units[] | .icount_epoch] == ["2026-01-01T23:59:59", "2026-01-01T23:59:59", "2026-01-02T00:00:00", "2026-01-02T00:00:00"]'
check "plan: the unit's conf carries its epoch for the runner" \
	grep -qx "icount_epoch${TAB}2026-01-02T00:00:00" "$run/plan/main.lazy.b2.plan"
"$plan" --top "$top" --out "$run" KERNEL=7.0 ACCEL=icount PGBENCH=off > /dev/null 2>&1
check "plan: ICOUNT_EPOCH defaults to the plan's own time (UTC)" \
	jqt "$p" "(.settings.icount_epoch | .[0:13]) == \"$(date -u +%Y-%m-%dT%H)\" or (.settings.icount_epoch | .[0:10]) == \"$(date -u +%Y-%m-%d)\""
check "plan: BOOTS is for guests: the host ignores it, saying so" \
	sh -c "'$plan' --check --top '$top' BOOTS=2 PGBENCH=off 2>&1 | grep -q 'BOOTS is for guest kernels'"

# ARCH=arm64: Debian's arm64 PostgreSQL runs in the guest (pg_arm64_guest.sh
# boots it), so pgbench is planned there as in an amd64 guest, huge pages too.
"$plan" --top "$top" --out "$run" KERNEL=7.0 ARCH=arm64 HUGEPAGES=on > /dev/null 2>&1
check "plan: ARCH=arm64: pgbench is on by default, with huge_pages=on in both boots" \
	sh -c "grep -qx 'pgbench${TAB}on' '$run/plan/bench.conf' && grep -q '^cell${TAB}pgbench${TAB}pgbench-7.0-full-hpon' '$run/plan/main.full.plan' && grep -q '^cell${TAB}pgbench${TAB}pgbench-6.12-voluntary-hpon' '$run/plan/baseline.voluntary.plan'"
check "plan: ARCH=arm64 PGBENCH=on is accepted" sh -c "'$plan' --check --top '$top' KERNEL=7.0 ARCH=arm64 PGBENCH=on > /dev/null 2>&1"
"$plan" --top "$top" --out "$run" KERNEL=7.0 ARCH=arm64 PGBENCH=off > /dev/null 2>&1
check "plan: ARCH=arm64 PGBENCH=off plans bufbench alone" \
	sh -c "grep -qx 'pgbench${TAB}off' '$run/plan/bench.conf' && ! grep -q '^cell${TAB}pgbench' '$run/plan/main.full.plan'"

# Every vocabulary value is accepted where it belongs.
for pg in 4k thp 2m 1g try-2m try-1g; do
	check "plan: PAGES=$pg accepted" "$plan" --check --top "$top" PAGES="$pg" PGBENCH=off
done
for l in tas rseq futex mcs; do
	check "plan: LOCKS=$l accepted" "$plan" --check --top "$top" LOCKS="$l" PGBENCH=off
done

# --- SCENARIO=seed: the report's ratios scaled to the machine ---------------
run=$tmp/seed
mkdir -p "$run"
"$plan" --top "$top" --out "$run" SCENARIO=seed > /dev/null 2>&1
p=$run/plan.json
cpus=$(nproc)
ram=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
check "plan: seed on the host: 10.7 clients per CPU ($cpus CPUs)" \
	jqt "$p" ".settings.clients == [\"$(awk -v c="$cpus" 'BEGIN { n = int(10.7 * c + 0.5); print n < 2 ? 2 : n }')\"]"
check "plan: seed on the host: the pool is 30% of this machine's $ram MB" \
	jqt "$p" ".scenario.ram_mb == $ram and .settings.pool == \"\(.scenario.pool_mb)M\" and (.scenario.pool_mb - $ram * 0.3 | fabs) < 64"
check "plan: seed: simple-update, pg against pg19, 4k 2m 1g, relation 1.06x the pool" \
	jqt "$p" '.settings.workload == "simple-update" and .settings.strategies == ["pg", "pg19"] and .settings.pages == ["4k", "2m", "1g"] and (.scenario.relation_mb / .scenario.pool_mb - 1.06 | fabs) < 0.01'
# Counted without an instrument inside the hold (issue 24): the trace where
# this host can trace (root, tracefs), else --hold-events' window mode.
if [ "$(id -u)" -eq 0 ] && grep -q '	tracefs$' /proc/filesystems; then seed_count='--trace-holds --trace-channel'; else seed_count=--hold-events; fi
check "plan: seed: each run ends after its fill (--steady), counts faulting holds ($seed_count)" \
	grep -q -- "--steady 5 $seed_count\$" "$run/plan/host.plan"
check "plan: seed: pgbench cold per run, fillfactor 90, pg_buffercache, tables ~ shared_buffers" \
	sh -c "grep -qx 'pg_cold${TAB}on' '$run/plan/host.plan' && grep -qx 'pg_fillfactor${TAB}90' '$run/plan/host.plan' && grep -qx 'pg_buffercache_ms${TAB}1000' '$run/plan/host.plan' && jq -e '.settings.pgbench.builtins == [\"simple-update\"] and (.settings.pgbench.scale | tonumber) * 15 > (.scenario.pg_shared_buffers_mb)' '$p' >/dev/null"
"$plan" --top "$top" --out "$run" SCENARIO=seed CLIENTS=4 STRATEGY=pg > /dev/null 2>&1
check "plan: a host unit's conf names no kernel config (the host's programs read /boot or /proc/config.gz)" \
	sh -c "! grep -q '^kernel_config' '$run/plan/host.plan'"
check "plan: seed: what the user sets wins over the scenario" \
	jqt "$p" '.settings.clients == ["4"] and .settings.strategies == ["pg"] and .settings.workload == "simple-update"'
"$plan" --top "$top" --out "$run" KERNEL=7.0 SCENARIO=seed PGBENCH=off > /dev/null 2>&1
check "plan: seed in a guest: a TCG-sized pool, RAM sized so it is 30% of it beside 1 GB pages" \
	jqt "$p" '.scenario.pool_mb == 384 and .sizing.guest_mem_mb >= 1280 + 1024'
rc=0; "$plan" --check --top "$top" SCENARIO=bogus > "$tmp/sc.out" 2>&1 || rc=$?
check "plan: SCENARIO=bogus exits 2 naming every scenario" sh -c "[ $rc -eq 2 ] && grep -q 'use default, seed, overhead, mitigations or hot-lock' '$tmp/sc.out'"
# --- CONTROLS: timings never from an instrumented run (issue 24) ------------
"$plan" --top "$top" --out "$run" KERNEL=7.0 SCENARIO=seed PGBENCH=off > /dev/null 2>&1
cells=$(cells_file "$run/plan/main.full.plan")
check "plan: seed gets controls: every instrumented cell has a bare twin, same seed" \
	sh -c "[ \$(grep -c -- '--trace-holds' '$cells') -gt 0 ] && [ \$(grep -c -- '--trace-holds' '$cells') = \$(grep -c -- '-ctl$TAB' '$cells') ] &&
	awk -F '$TAB' '\$1 == \"bufbench\" { id = \$2; sub(/-ctl\$/, \"\", id); s = \$7; sub(/.*--seed /, \"\", s); sub(/ .*/, \"\", s); seed[id] = seed[id] \" \" s } END { for (i in seed) { split(seed[i], a, \" \"); if (a[1] != a[2]) exit 1 } }' '$cells' &&
	! grep -- '-ctl$TAB' '$cells' | grep -q -- '--trace-holds'"
check "plan: seed: plan.json marks the twins (control, no instruments)" \
	jqt "$run/plan.json" '.settings.controls and ([.units[].cells[] | select(.tool == "bufbench" and .control) | .instruments == []] | length > 0 and all) and ([.units[].cells[] | select(.tool == "bufbench" and (.control | not)) | .instruments == ["channel"]] | all)'
"$plan" --top "$top" --out "$run" KERNEL=7.0 MODELS=full BASELINE=none PAGES=4k EVIDENCE=on REPEAT=2 PGBENCH=off > /dev/null 2>&1
check "plan: EVIDENCE=on: the twin alternates, instrumented first in r1, bare first in r2" \
	sh -c "cut -f2 '$(cells_file "$run/plan/main.full.plan")' | tr '\n' ' ' | grep -qx 'bufbench-7.0-full-4k-tas-c8-r1 bufbench-7.0-full-4k-tas-c8-r1-ctl bufbench-7.0-full-4k-tas-c8-r2-ctl bufbench-7.0-full-4k-tas-c8-r2 '"
"$plan" --top "$top" --out "$run" KERNEL=7.0 MODELS=full BASELINE=none PAGES=4k EVIDENCE=on CONTROLS=off REPEAT=2 PGBENCH=off > /dev/null 2>&1
check "plan: EVIDENCE=on carries the census's channel events (--trace-channel) unless CHANNEL=off" \
	sh -c "grep -- '-r1$TAB' '$run/plan/main.full.plan' | grep -q -- '--trace-holds --trace-channel\$'"
"$plan" --top "$top" --out "$run" KERNEL=7.0 MODELS=full BASELINE=none PAGES=4k EVIDENCE=on CHANNEL=off CONTROLS=off REPEAT=1 PGBENCH=off > /dev/null 2>&1
check "plan: CHANNEL=off: the trace without the channel events" \
	sh -c "grep -- '-r1$TAB' '$run/plan/main.full.plan' | grep -q -- '--trace-holds\$' && jq -e '[.units[].cells[] | select(.tool == \"bufbench\") | .instruments] == [[\"trace\"]]' '$run/plan.json' >/dev/null"
refuse "CHANNEL=on without the trace" "CHANNEL=on adds events to the EVIDENCE trace: add EVIDENCE=on" KERNEL=7.0 CHANNEL=on
"$plan" --top "$top" --out "$run" KERNEL=7.0 MODELS=full BASELINE=none PAGES=4k EVIDENCE=on CONTROLS=off REPEAT=2 PGBENCH=off > /dev/null 2>&1
check "plan: CONTROLS=off: no twins" sh -c "! grep -q -- '-ctl$TAB' '$run/plan/main.full.plan' && [ \$(grep -c '^cell$TAB' '$run/plan/main.full.plan') = 2 ]"
refuse "an unknown CONTROLS" "CONTROLS=maybe: use on or off" CONTROLS=maybe
"$plan" --top "$top" --out "$run" KERNEL=7.0 MODELS=full BASELINE=none PAGES=4k CONTROLS=on REPEAT=2 PGBENCH=off > "$tmp/ctl.out" 2>&1
check "plan: CONTROLS=on with no instrument adds nothing, and says so" \
	sh -c "grep -q 'nothing to control' '$tmp/ctl.out' && [ \$(grep -c '^cell$TAB' '$run/plan/main.full.plan') = 2 ]"

# --- SCENARIO=overhead: every instrument beside the bare run, one boot a model
"$plan" --top "$top" --out "$run" KERNEL=7.0 SCENARIO=overhead MODELS=full,lazy PAGES=4k REPEAT=2 > /dev/null 2>&1
cells=$(cells_file "$run/plan/main.full.plan")
check "plan: overhead: one kernel (no 6.12 baseline), one boot per model, no pgbench, no repro-min" \
	jqt "$run/plan.json" '[.units[].id] == ["main.full", "main.lazy"] and (.settings.pgbench.enabled | not) and (.settings.repro_min | not) and .scenario.name == "overhead"'
check "plan: overhead: a warm-up run first, then per repetition the bare run and each instrument" \
	sh -c "[ \$(wc -l < '$cells') = 15 ] && head -n1 '$cells' | cut -f2 | grep -qx 'bufbench-7.0-full-4k-tas-c8-r0-warm' &&
	for v in ctl trace kprobe channel records events profile; do [ \$(cut -f2 '$cells' | grep -c -- \"-\$v\$\") = 2 ] || exit 1; done"
check "plan: overhead: the instruments' options, one each; the profile in its own column" \
	sh -c "grep -- '-r1-trace$TAB' '$cells' | grep -q -- '--trace-holds\$' &&
	grep -- '-r1-kprobe$TAB' '$cells' | grep -q -- '--trace-holds --fault-event kprobe\$' &&
	grep -- '-r1-channel$TAB' '$cells' | grep -q -- '--trace-holds --trace-channel\$' &&
	grep -- '-r1-records$TAB' '$cells' | grep -q -- '--hold-records\$' &&
	grep -- '-r1-events$TAB' '$cells' | grep -q -- '--hold-events\$' &&
	[ \$(awk -F '$TAB' '\$6 == \"on\"' '$cells' | wc -l) = 2 ] && awk -F '$TAB' '\$6 == \"on\"' '$cells' | cut -f2 | grep -qv -- '-profile\$' && exit 1;
	grep -- '-ctl$TAB' '$cells' | grep -q -- '--steady 1\$' || grep -- '-ctl$TAB' '$cells' | grep -qv -- '--trace\\|--hold'"
check "plan: overhead: each repetition's runs share one seed, and the order rotates" \
	sh -c "[ \$(grep -- '-r1-' '$cells' | grep -cE -- '--seed 1( |\$)') = 7 ] && [ \$(grep -- '-r2-' '$cells' | grep -cE -- '--seed 2( |\$)') = 7 ] &&
	[ \$(sed -n 2p '$cells' | cut -f2) = bufbench-7.0-full-4k-tas-c8-r1-ctl ] && [ \$(sed -n 9p '$cells' | cut -f2) = bufbench-7.0-full-4k-tas-c8-r2-trace ]"
refuse "SCENARIO=overhead with EVIDENCE=on" "leave EVIDENCE, HOLD_EVENTS and PROFILE unset" KERNEL=7.0 SCENARIO=overhead EVIDENCE=on
rc=0; "$plan" --check --top "$top" STEADY=20 DURATION=10 PGBENCH=off > "$tmp/sc.out" 2>&1 || rc=$?
check "plan: STEADY longer than DURATION is refused" sh -c "[ $rc -eq 2 ] && grep -q 'STEADY=20' '$tmp/sc.out'"

# A guest plan whose emulator is missing is refused at once, before a
# results directory or a fetch: a fresh machine once booted nothing after
# fetching two kernels, because QEMU had never been installed.
nq=$tmp/no-qemu-bin
mkdir -p "$nq"
for f in /usr/bin/* /usr/sbin/*; do
	case ${f##*/} in qemu-system-*) continue ;; esac
	[ -e "$nq/${f##*/}" ] || ln -s "$f" "$nq/${f##*/}"
done
emu=qemu-system-x86; [ "$(uname -m)" = aarch64 ] && emu=qemu-system-arm
t0=$(date +%s%N); rc=0
env PATH="$nq" KERNEL=7.0 sh "$top/scripts/bench.sh" "$tmp/noemu-run" > "$tmp/noemu.out" 2>&1 || rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "plan: a guest plan without the emulator on PATH exits 2 naming $emu ($ms ms)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'apt-get install $emu' '$tmp/noemu.out'"
check "plan: ... in under a second, with no results directory" \
	sh -c "[ $ms -lt 1000 ] && [ ! -e '$tmp/noemu-run' ]"
rc=0; "$plan" --check --top "$top" KERNEL=7.0 QEMU=/nonexistent/qemu > "$tmp/noemu.out" 2>&1 || rc=$?
check "plan: QEMU=/nonexistent/qemu is refused naming the variable and $emu" \
	sh -c "[ $rc -eq 2 ] && grep -q 'QEMU=/nonexistent/qemu: no such program' '$tmp/noemu.out'"
nperf=$tmp/no-perf-bin
mkdir -p "$nperf"
for f in /usr/bin/*; do
	case ${f##*/} in perf|perf_*) continue ;; esac
	[ -e "$nperf/${f##*/}" ] || ln -s "$f" "$nperf/${f##*/}"
done
rc=0; env PATH="$nperf" "$plan" --check --top "$top" PROFILE=on > "$tmp/noperf.out" 2>&1 || rc=$?
check "plan: PROFILE=on without perf is refused naming linux-perf" \
	sh -c "[ $rc -eq 2 ] && grep -q 'apt-get install linux-perf' '$tmp/noperf.out'"

# COSTBENCH: on where a guest's models are compared or EVIDENCE=on, off on
# the host and for one guest model alone; a given value wins; the unit's
# flat file carries it to the runner.
cbrun=$tmp/costbench
cb() { rm -rf "$cbrun"; mkdir -p "$cbrun"; "$plan" --top "$top" --out "$cbrun" PGBENCH=off "$@" > /dev/null 2>&1 && jq -r .settings.costbench "$cbrun/plan.json"; }
check "plan: COSTBENCH defaults on for a guest comparing models" test "$(cb KERNEL=7.0 BASELINE=none MODELS=full,lazy)" = true
check "plan: COSTBENCH defaults off for one guest model alone" test "$(cb KERNEL=7.0 BASELINE=none MODELS=lazy)" = false
check "plan: COSTBENCH defaults on under EVIDENCE=on, one model or not" \
	test "$(cb KERNEL=7.0 BASELINE=none MODELS=lazy EVIDENCE=on)" = true
check "plan: COSTBENCH defaults off on the host" test "$(cb KERNEL=host)" = false
check "plan: COSTBENCH=off wins over the default" test "$(cb KERNEL=7.0 BASELINE=none MODELS=full,lazy COSTBENCH=off)" = false
cb KERNEL=7.0 BASELINE=none MODELS=lazy COSTBENCH=on > /dev/null
check "plan: COSTBENCH=on reaches the runner's unit file: costbench's costs, the wake test with an RT and a fair waker, the remote wake test and its traced twin, in that order" \
	sh -c "[ \"\$(grep '^costbench_run' '$cbrun'/plan/*.plan | cut -f2 | tr '\\n' ';')\" = 'costbench;wakefault --wake-in-fault 120;wakefair --wake-in-fault 120 --competitor fair;wakefolio --wake-in-fault 120 --contend-page alloc;wakefoliofair --wake-in-fault 120 --competitor fair --contend-page alloc;wakefoliomap --wake-in-fault 120 --contend-page map;wakefoliotrace --wake-in-fault 30 --contend-page alloc --trace on;remotewake --remote-wake 100;ipisenders --remote-wake 30 --trace-ipis on;' ]"
cb KERNEL=7.0 BASELINE=none MODELS=lazy COSTBENCH=off > /dev/null
check "plan: COSTBENCH=off: no costbench run in the unit file" sh -c "! grep -q '^costbench_run' '$cbrun'/plan/*.plan"
refuse "COSTBENCH=maybe" "COSTBENCH=maybe: use on or off" COSTBENCH=maybe
# --- PG_VERSION: pg/majors, the host's 17, a guest's own -----------------------
refuse "a PostgreSQL major Debian's archive lacks" "available: 15 (bookworm), 17 (trixie), 18 (sid), 19 (experimental)" PG_VERSION=16
refuse "PG_VERSION=abc" "PostgreSQL abc is not in Debian's archive" PG_VERSION=abc
refuse "a fetched major in an arm64 guest" "PG_VERSION=system there" KERNEL=7.0 ARCH=arm64 PG_VERSION=17
run=$tmp/pgv
mkdir -p "$run"
"$plan" --top "$top" --out "$run" > /dev/null 2>&1
check "plan: the host runs PostgreSQL 17 (trixie) by default, the report's version" \
	jqt "$run/plan.json" '.settings.pgbench.version == "17" and .settings.pgbench.suite == "trixie"'
check "plan: bench.conf and the unit tell the runner pg_version 17" \
	sh -c "grep -qx 'pg_version${TAB}17' '$run/plan/bench.conf' && grep -qx 'pg_version${TAB}17' '$run/plan/host.plan'"
rm -rf "$run"; mkdir -p "$run"
"$plan" --top "$top" --out "$run" KERNEL=7.0 CLIENTS=2 BASELINE=none MODELS=lazy PAGES=4k > /dev/null 2>&1
check "plan: a guest keeps the host's PostgreSQL (system) unless asked" \
	jqt "$run/plan.json" '.settings.pgbench.version == "system"'
rm -rf "$run"; mkdir -p "$run"
"$plan" --top "$top" --out "$run" KERNEL=7.0 CLIENTS=2 BASELINE=none MODELS=lazy PAGES=4k PG_VERSION=19 > /dev/null 2>&1
check "plan: PG_VERSION=19 in a guest: experimental's, in every unit's conf" \
	sh -c "jq -e '.settings.pgbench.version == \"19\" and .settings.pgbench.suite == \"experimental\"' '$run/plan.json' > /dev/null && grep -qx 'pg_version${TAB}19' '$run/plan/main.lazy.plan'"
rm -rf "$run"; mkdir -p "$run"
"$plan" --top "$top" --out "$run" PG_VERSION=system > /dev/null 2>&1
check "plan: PG_VERSION=system on the host" jqt "$run/plan.json" '.settings.pgbench.version == "system"'

# The model's validation grid (lab/plan/validate_grid.c, read by
# scripts/model-validate.sh grid): its cells in their order, and each run's
# make bench variables.  The literal lists are the grid: change the grid
# and this fails.
echo '{ "cpus": 2, "pool_pages": 8192, "block_size": 8192, "q": { "none": {}, "full": {}, "lazy": {} } }' \
	> "$tmp/inputs.json"
"$plan" --validation-grid "$tmp/inputs.json" 7.2-lab > "$tmp/grid.tsv"
grid_col() { awk -F '\t' -v w="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[w] }' "$tmp/grid.tsv"; }
check "plan: the validation grid's columns by name" \
	sh -c "head -n1 '$tmp/grid.tsv' | grep -qx 'run${TAB}cpus${TAB}pages${TAB}clients${TAB}cell${TAB}models${TAB}bench'"
check "plan: the validation grid: 1 and 2 vCPUs x 4k, 2m x 8, 21, 64, 256 clients, in this order" \
	[ "$(grid_col cell | paste -sd' ' -)" = "4k:8:1 4k:21:1 4k:64:1 4k:256:1 2m:8:1 2m:21:1 2m:64:1 2m:256:1 4k:8:2 4k:21:2 4k:64:2 4k:256:2 2m:8:2 2m:21:2 2m:64:2 2m:256:2" ]
grid_col pages > "$tmp/p"; grid_col clients > "$tmp/c"; grid_col cpus > "$tmp/v"
check "plan: the validation grid's cell column is its pages, clients and cpus" \
	[ "$(grid_col cell)" = "$(paste -d: "$tmp/p" "$tmp/c" "$tmp/v")" ]
check "plan: the validation grid's runs v1 and v2, 8 cells each, and every model with a q but none" \
	[ "$(grid_col run | uniq -c | tr -s ' ' | paste -sd' ' -)|$(grid_col models | sort -u)" = " 8 v1  8 v2|full,lazy" ]
check "plan: the validation grid's make bench variables, the inputs' pool (64M) and a relation 17/16 of it" \
	[ "$(grid_col bench | uniq | paste -sd'|' -)" = "KERNEL=7.2-lab VCPUS=1 MODELS=none,full,lazy PAGES=4k,2m CLIENTS=8,21,64,256 LOCKS=tas WORKLOAD=simple-update POOL=64M RELATION=68M STEADY=1 DURATION=30 REPEAT=5 PGBENCH=off REPRO_MIN=off EVIDENCE=on ACCEL=icount|KERNEL=7.2-lab VCPUS=2 MODELS=none,full,lazy PAGES=4k,2m CLIENTS=8,21,64,256 LOCKS=tas WORKLOAD=simple-update POOL=64M RELATION=68M STEADY=1 DURATION=30 REPEAT=5 PGBENCH=off REPRO_MIN=off EVIDENCE=on ACCEL=icount" ]
"$plan" --validation-grid "$tmp/inputs.json" 6.12 lazy > "$tmp/grid.tsv"
check "plan: the validation grid with MODELS: only those, on the kernel asked" \
	[ "$(grid_col models | sort -u)|$(grid_col bench | sed -n 1p | cut -d' ' -f1-3)" = "lazy|KERNEL=6.12 VCPUS=1 MODELS=none,lazy" ]
# grid_refuse WHAT MESSAGE INPUTS-JSON ARG...: exit 2, naming what is wrong, no table.
grid_refuse() {
	what=$1 want=$2 json=$3; shift 3
	printf '%s\n' "$json" > "$tmp/bad.json"
	rc=0; "$plan" --validation-grid "$tmp/bad.json" "$@" > "$tmp/out" 2>&1 || rc=$?
	check "plan: the validation grid refuses $what ($(head -n1 "$tmp/out" | cut -c1-120))" \
		sh -c "[ $rc -eq 2 ] && grep -qF -- \"\$1\" '$tmp/out' && ! grep -q '^run' '$tmp/out'" sh "$want"
}
good='{"pool_pages":8192,"block_size":8192,"q":{"none":{},"full":{}}}'
grid_refuse "inputs with a q for none only" "a q for none only" '{"pool_pages":8192,"block_size":8192,"q":{"none":{}}}' 7.2-lab
grid_refuse "inputs without a pool" "no pool_pages and block_size" '{"q":{"none":{},"full":{}}}' 7.2-lab
grid_refuse "a kernel name with a slash" "not a kernel name" "$good" 7.2/lab
grid_refuse "a model the vocabulary lacks" "'fast' is not a models value" "$good" 7.2-lab full,fast
grid_refuse "a file that is not JSON" "bad.json" 'not json' 7.2-lab

# The lock-capacity law's grid (build/plan --capacity-grid, read by
# scripts/model-validate.sh capacity), held literally as above.
"$plan" --capacity-grid > "$tmp/grid.tsv"
check "plan: the capacity grid: fault-around 1, 16, 64 pages x ICOUNT_SHIFT 0, 2, 3, in this order" \
	[ "$(grid_col run | paste -sd' ' -)|$(grid_col cell | paste -sd' ' -)" = "fa1-s0 fa1-s2 fa1-s3 fa16-s0 fa16-s2 fa16-s3 fa64-s0 fa64-s2 fa64-s3|1:0 1:2 1:3 16:0 16:2 16:3 64:0 64:2 64:3" ]
check "plan: the capacity grid's hot-lock runs under none, on 7.2-lab unless asked" \
	[ "$(grid_col bench | sed -n '1p;6p;9p' | paste -sd'|' -)" = "KERNEL=7.2-lab MODELS=none BASELINE= SCENARIO=hot-lock FAULT_AROUND_BYTES=4K ICOUNT_SHIFT=0 PGBENCH=off|KERNEL=7.2-lab MODELS=none BASELINE= SCENARIO=hot-lock FAULT_AROUND_BYTES=64K ICOUNT_SHIFT=3 PGBENCH=off|KERNEL=7.2-lab MODELS=none BASELINE= SCENARIO=hot-lock FAULT_AROUND_BYTES=256K ICOUNT_SHIFT=3 PGBENCH=off" ]
"$plan" --capacity-grid 7.0 > "$tmp/grid.tsv"
check "plan: the capacity grid on the kernel asked, its byte and page counts agreeing" \
	[ "$(grid_col bench | cut -d' ' -f1 | sort -u)|$(grid_col fault_around_bytes | uniq | paste -sd, -)|$(grid_col fault_around_pages | uniq | paste -sd, -)" = "KERNEL=7.0|4K,64K,256K|1,16,64" ]
rc=0; "$plan" --capacity-grid '7.0;x' > "$tmp/out" 2>&1 || rc=$?
check "plan: the capacity grid refuses a kernel name with a ';'" sh -c "[ $rc -eq 2 ] && grep -q 'not a kernel name' '$tmp/out'"

# docs/vocabulary.md is generated from the same table the planner validates with.
"$plan" --vocabulary > "$run.vocabulary.md"
check "plan: docs/vocabulary.md matches build/plan --vocabulary (regenerate it)" \
	cmp -s "$run.vocabulary.md" "$top/docs/vocabulary.md"
# docs/variables.md likewise, from the variable table (lab/common/variables.def).
"$plan" --variables-md > "$run.variables.md"
check "plan: docs/variables.md matches build/plan --variables-md (regenerate it)" \
	cmp -s "$run.variables.md" "$top/docs/variables.md"
nvars=$("$plan" --variables | wc -l)
nrows=$(grep -c '^| .[A-Z][A-Z0-9_]*. | ' "$run.variables.md")
check "plan: docs/variables.md has a row for each of the $nvars variables ($nrows)" test "$nvars" = "$nrows"
# Every docs page a row names exists.
missing=$(sed -n 's/.*](\([a-z0-9-]*\.md\)) |$/\1/p' "$run.variables.md" | sort -u |
	while read -r page; do [ -f "$top/docs/$page" ] || echo "$page"; done)
check "plan: every page docs/variables.md links exists (missing: ${missing:-none})" test -z "$missing"
tests_done
