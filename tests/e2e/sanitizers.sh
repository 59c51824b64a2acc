#!/bin/sh
# The unit tests built with ASan and UBSan (make sanitize-test, into
# build-san/) pass with no sanitizer report, and the report tools built
# the same way read every fixture, a 20,000-frame stack and hostile
# strings without one.  A sanitizer report aborts its program
# (-fno-sanitize-recover), so each check below is its exit status.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
[ -f "$top/config.mk" ] || { fail "sanitizers: run ./configure first"; exit 1; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

if make -C "$top" sanitize-test > "$tmp/unit" 2>&1; then
	pass "sanitizers: the unit tests under ASan and UBSan ($(grep -E "^[0-9]+ passed" "$tmp/unit" | tail -n 1))"
else
	grep -E '^FAIL|runtime error|ERROR: ' "$tmp/unit" | head -n 20 | sed 's/^/    /'
	fail "sanitizers: make sanitize-test failed (above)"
fi
check "sanitizers: every unit test ran under them" \
	test "$(find "$top/build-san/tests" -name 'test_*' -type f | wc -l)" -ge 5
check "sanitizers: no sanitizer report in the unit tests" \
	sh -c "! grep -qE 'runtime error|ERROR: (Address|Leak)Sanitizer' '$tmp/unit'"

if ! make -C "$top" SAN=1 B=build-san build-san/report build-san/stackfold build-san/flamegraph \
	> "$tmp/build" 2>&1; then
	tail -n 20 "$tmp/build"
	fail "sanitizers: build the report tools under ASan and UBSan"
	exit 1
fi
san=$top/build-san
# san_run NAME CMD...: CMD exits 0 and says nothing of a sanitizer.
san_run() {
	n=$1; shift
	if "$@" > "$tmp/o" 2>&1 && ! grep -qE 'runtime error|ERROR: (Address|Leak)Sanitizer' "$tmp/o"; then
		pass "sanitizers: $n"
	else
		grep -E -A 8 'runtime error|ERROR: ' "$tmp/o" | head -n 20 | sed 's/^/    /'
		fail "sanitizers: $n"
	fi
}
for d in run-fixture run-host run-pgbench run-fill; do
	cp -r "$top/tests/data/$d" "$tmp/$d"
	san_run "build/report on $d" "$san/report" "$tmp/$d"
done
mkdir -p "$tmp/run-fixture/perf"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "f%d;", i; print "leaf 5" }' > "$tmp/deep.folded"
for r in 1 2 3; do
	cp "$tmp/deep.folded" "$tmp/run-fixture/perf/bufbench-6.12-none-4k-tas-c4-r$r.folded"
	cp "$top/tests/data/perf-script-bufbench.folded" "$tmp/run-fixture/perf/bufbench-7.0-lazy-4k-tas-c4-r$r.folded"
done
evil=$(printf 'E\033]0;x\007\302\233|<b>\n# h')
for f in "$tmp"/run-fixture/runs/*-r1.json; do
	jq --arg e "$evil" '.provenance.hostname = $e | .provenance.kernel_version = $e' "$f" > "$f.n"
	mv "$f.n" "$f"
done
san_run "build/report with deep profiles and hostile strings" "$san/report" "$tmp/run-fixture"
san_run "build/report --reproduce-command" "$san/report" --reproduce-command "$tmp/run-fixture"
san_run "stackfold on perf script text" "$san/stackfold" -q "$top/tests/data/perf-script-bufbench.txt"
san_run "flamegraph on a 20,000-frame stack" "$san/flamegraph" "$tmp/deep.folded"
san_run "flamegraph --diff" "$san/flamegraph" --diff "$top/tests/data/perf-script-bufbench.folded" "$tmp/deep.folded"
: > "$tmp/empty.folded"
san_run "flamegraph on an empty profile" "$san/flamegraph" "$tmp/empty.folded"
mkdir -p "$tmp/none/runs"
if "$san/report" "$tmp/none" > "$tmp/o" 2>&1; then
	fail "sanitizers: build/report on a run without documents exits 0"
else
	check "sanitizers: build/report on a run without documents, nothing leaked" \
		sh -c "! grep -qE 'runtime error|ERROR: ' '$tmp/o'"
fi

# The planner under them (issue 28, D10: -O1 made catalog.c's
# format-truncation an error, so it did not build at all).
if make -C "$top" SAN=1 B=build-san build-san/plan > "$tmp/build" 2>&1; then
	pass "sanitizers: the planner builds under ASan and UBSan"
	san_run "build/plan --check of a guest plan" "$san/plan" --check --top "$top" KERNEL=7.0 PGBENCH=off
	"$san/plan" --check --top "$top" KERNEL=host "POOL=$(printf '\t32M')" > "$tmp/o" 2>&1 || true
	check "sanitizers: build/plan refuses a hostile value without a report" \
		sh -c "grep -q 'control character' '$tmp/o' && ! grep -qE 'runtime error|ERROR: ' '$tmp/o'"
else
	grep -E 'error' "$tmp/build" | head -n 5 | sed 's/^/    /'
	fail "sanitizers: the planner builds under ASan and UBSan"
fi
tests_done
