#!/bin/sh
# Real PostgreSQL + pgbench inside a booted guest, end to end through
# scripts/bench.sh: Debian's 7.0 under TCG runs one short bufbench
# cell, then one 5 s select-only pgbench run (huge_pages=off, model lazy);
# its document must come back over the serial channel with tps, the booted
# release, the model read from debugfs and wait-event samples.  Then a
# pgbench cell that fails inside the guest must be reported with the
# guest's reason while the bufbench result is kept.  First, without a
# guest, the summary's pgbench table on documents with known numbers.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

# --- summary.txt's pgbench table ---------------------------------------------
mkdir -p "$tmp/fx/runs" "$tmp/fx/logs"
# pgdoc KERNEL MODEL REP TPS SPINDELAY: one pgbench document (docs/json.md).
pgdoc() {
	jq -n --arg k "$1" --arg m "$2" --argjson r "$3" --argjson t "$4" --argjson s "$5" \
		'{tool: "pgbench", schema: "preemptlab.pgbench/1", complete: true,
		  config: {clients: 2, builtin: "select-only", huge_pages: "off", scale: 3,
		    shared_buffers: "16MB", repetition: $r},
		  provenance: {kernel_label: $k, kernel_release: "\($k).1-test", preempt_model: $m,
		    page_policy: "huge_pages=off", page_size_kb: 4, virtualization: "tcg", emulated: true},
		  results: {tps: $t},
		  sampler: {samples: 100, spindelay_samples: $s, interval_ms_achieved: 30}}' \
		> "$tmp/fx/runs/pgbench-$1-$2-hpoff-s_lock-select-only-c2-r$3.json"
}
pgdoc 6.12 none 1 100 1; pgdoc 6.12 none 2 120 2; pgdoc 6.12 none 3 110 3
pgdoc 7.0 lazy 1 50 5;   pgdoc 7.0 lazy 2 60 7
"$top/build/report" "$tmp/fx" --baseline 6.12/none 2> /dev/null
prow() { grep -E "^$1 +[^ ]+ +$2 +off " "$tmp/fx/summary.txt" | tr -s ' '; }
check "pg_guest_boot: summary: pgbench baseline median 110 of 3, SpinDelay 6 of 300 samples, 1x" \
	test "$(prow 6.12 none | cut -d' ' -f8,9,13,14,15,16)" = "3 110.0 6 300 30.0 1.000x"
check "pg_guest_boot: summary: 7.0 lazy median 55 is 0.5x the baseline, SpinDelay 12 of 200" \
	test "$(prow 7.0 lazy | cut -d' ' -f8,9,13,14,16)" = "2 55.0 12 200 0.500x"
check "pg_guest_boot: summary: no bufbench table without bufbench documents" \
	sh -c "! grep -q '^bufbench tps' '$tmp/fx/summary.txt'"

# --- the channel: documents and logs, checked, and nothing else --------------
# block KIND NAME FILE: what the cell runner (lab/runner/) writes for one file.
block() {
	echo "@@PL $1 $2 $(wc -c < "$3") $(sha256sum < "$3" | cut -d' ' -f1)"
	base64 "$3"
	echo "@@PL END $2"
}
ch=$tmp/ch
mkdir -p "$ch/runs" "$ch/logs"
echo '{"tool": "pgbench"}' > "$tmp/doc.json"
printf 'progress: 1.0 s, 600.0 tps\n' > "$tmp/p.log"
{
	echo "@@PL START pgbench-7.0-hpoff"
	block JSON pgbench-7.0-lazy-hpoff-x "$tmp/doc.json"
	block LOG pgbench-7.0-lazy-hpoff-x.progress.log "$tmp/p.log"
	block LOG ../escape.log "$tmp/p.log"
	echo "@@PL PASS pgbench-7.0-hpoff 1"
	block LOG cut.log "$tmp/p.log" | head -n 2	# a guest killed mid-block
} > "$ch/channel"
"$top/scripts/qemu-channel.sh" "$ch/channel" "$ch/runs" "$ch/logs" > "$ch/events"
check "pg_guest_boot: channel: the document lands in runs/ as sent" cmp -s "$tmp/doc.json" "$ch/runs/pgbench-7.0-lazy-hpoff-x.json"
check "pg_guest_boot: channel: the log lands in logs/ as sent" cmp -s "$tmp/p.log" "$ch/logs/pgbench-7.0-lazy-hpoff-x.progress.log"
check "pg_guest_boot: channel: the cell's pass is reported with its document count" grep -qx 'pass pgbench-7.0-hpoff 1' "$ch/events"
check "pg_guest_boot: channel: a name with a slash is written nowhere" \
	sh -c "! ls '$tmp'/escape.log '$ch'/escape.log '$ch'/logs/*escape* 2>/dev/null"
check "pg_guest_boot: channel: a truncated block is not written" test ! -e "$ch/logs/cut.log"

# --- in a guest ----------------------------------------------------------------
[ -x "$top/build/bufbench-static" ] || { fail "pg_guest_boot: no build/bufbench-static (make build-all)"; exit 1; }
if ! "$top/scripts/pg-guest-files.sh" > /dev/null 2> "$tmp/files.err"; then
	skip "pg_guest_boot: PostgreSQL cannot go into a guest here: $(cat "$tmp/files.err")"; tests_done; exit
fi
guest_kernel pg_guest_boot
# shellcheck disable=SC1091 # written just above
. "$tmp/k"

# As small as a real run gets: one bufbench cell, one pgbench run.
export KERNEL=7.0 BASELINE=none MODELS=lazy PAGES=4k CLIENTS=2 DURATION=5 REPEAT=1
export PREEMPTLAB_ACCEL=tcg PGBENCH=on PG_BUILTINS=select-only POOL=64M RELATION=256M
# One model, one boot either way; runtime keeps the cell ids model-free.
export MODEL_SWITCH=runtime
# Generous for a loaded machine, never unbounded.
export PREEMPTLAB_PG_TIMEOUT=480


run=$tmp/ok
start=$(date +%s)
if "$top/scripts/bench.sh" "$run" > "$tmp/ok.out" 2>&1; then
	pass "pg_guest_boot: 7.0 bench with pgbench finished ($(( $(date +%s) - start ))s)"
else
	sed 's/^/  /' "$tmp/ok.out"; fail "pg_guest_boot: 7.0 bench with pgbench"
fi
f=$run/runs/pgbench-7.0-lazy-hpoff-s_lock-select-only-c2-r1.json
if [ -f "$f" ]; then
	check "pg_guest_boot: the pgbench document is complete with tps > 0 ($(jq -r .results.tps "$f"))" \
		jqt "$f" '.tool == "pgbench" and .complete and .results.tps > 0'
	check "pg_guest_boot: it ran 5 s, 2 clients, select-only, huge_pages=off on 4 kB pages" \
		jqt "$f" '.config | .duration_s == 5 and .clients == 2 and .builtin == "select-only" and .huge_pages == "off"'
	check "pg_guest_boot: its provenance has the booted release $K_RELEASE and label 7.0" \
		test "$(jq -r '.provenance | "\(.kernel_release) \(.kernel_label)"' "$f")" = "$K_RELEASE 7.0"
	check "pg_guest_boot: and model lazy read from debugfs, under tcg" \
		test "$(jq -r '.provenance | "\(.preempt_model) \(.preempt_model_source) \(.virtualization)"' "$f")" = "lazy debugfs tcg"
	check "pg_guest_boot: the sampler took samples ($(jq -r .sampler.samples "$f"), one per $(jq -r .sampler.interval_ms_achieved "$f") ms)" \
		jqt "$f" '.sampler.samples > 0 and (.sampler.wait_events | has("Timeout:SpinDelay"))'
	check "pg_guest_boot: its pgbench progress log came back where progress_log says" \
		grep -q 'progress:' "$run/$(jq -r .results.progress_log "$f")"
else
	sed 's/^/  /' "$tmp/ok.out"
	fail "pg_guest_boot: no pgbench document arrived"
fi
check "pg_guest_boot: the bufbench cell ran before it" test -f "$run/runs/bufbench-7.0-lazy-4k-tas-c2-r1.json"
check "pg_guest_boot: summary has the pgbench row" grep -qE '^7\.0 .* lazy +off +4k +select-only +2 +1 ' "$run/summary.txt"
check "pg_guest_boot: manifest records the pgbench matrix and its document" jqt "$run/manifest.json" \
	'.plan.settings.pgbench.enabled and .plan.settings.pgbench.huge_pages == ["off"] and .cells.pgbench_documents == 1 and (.plan.units[0].cells[1] | .id == "pgbench-7.0-hpoff" and .models == ["lazy"])'
check "pg_guest_boot: the host showed the result as it arrived" grep -q 'pgbench result pgbench-7.0-lazy-hpoff' "$tmp/ok.out"
check "pg_guest_boot: the guest's server log came back" test -n "$(find "$run/logs" -name "pgbench-7.0-hpoff-postgres-hpoff-*.log" -size +0)"
check "pg_guest_boot: the guest's PostgreSQL steps are in the console log" \
	grep -q 'pg hp=off: pgbench -i' "$run/logs/console-7.0-boot1.log"
check "pg_guest_boot: no QEMU left" no_guest_left "$run"

# A pgbench cell that fails in the guest: huge_pages=on with shared_buffers
# the guest cannot reserve.  pg-run.sh refuses before starting PostgreSQL.
run=$tmp/fail
if PG_HUGEPAGES=on PG_SHARED_BUFFERS=4G MEM_MB=1800 DURATION=2 \
	"$top/scripts/bench.sh" "$run" > "$tmp/fail.out" 2>&1; then
	fail "pg_guest_boot: a pgbench cell that cannot get its huge pages was reported as success"
else
	check "pg_guest_boot: the failed pgbench cell says why, from the guest" \
		grep -q 'huge_pages=on cannot be had' "$run/logs/failed-pgbench-7.0-hpon.txt"
	check "pg_guest_boot: and the bufbench result of that boot is kept" \
		test -f "$run/runs/bufbench-7.0-lazy-4k-tas-c2-r1.json"
	check "pg_guest_boot: and its initdb log came back" test -s "$run/logs/pgbench-7.0-hpon-initdb-hpon.log"
	check "pg_guest_boot: and the summary lists the failed cell" grep -q '^failed: pgbench-7.0-hpon: ' "$run/summary.txt"
	# A failed cell is no reason to boot again; an emulator oops while
	# booting is (run-plan.sh's rule, met by kernel_guest.sh in CI).
	check "pg_guest_boot: and the guest was not rebooted for it" sh -c \
		"[ ! -e '$run/logs/console-7.0-boot2.log' ] || grep -q 'Oops:' '$run/logs/console-7.0-boot1.log'"
fi
check "pg_guest_boot: no QEMU left after the failure" no_guest_left "$run"
tests_done
