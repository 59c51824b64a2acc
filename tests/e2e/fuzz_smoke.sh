#!/bin/sh
# A short fuzz run of the report's readers over the seed corpus in
# tests/fuzz/corpus/: the JSON reader (with the sanitiser and the shell
# quoting of what it reads), the folded-stack reader, the perf-script
# reader and the planner's variable parser (fuzz_plan.c), FUZZ_SECONDS
# (default 5) each, under ASan and UBSan.  With
# clang's libFuzzer (Debian: clang, libclang-rt-14-dev) it is
# coverage-guided; without, tests/fuzz/driver.c mutates the seeds
# deterministically, and the run says which.  A crash's input is kept
# in build-fuzz/ (crash-*), which reproduces it: build-fuzz/fuzz_TARGET FILE.
# FUZZ_SECONDS: seconds per target; FUZZ_ENGINE=driver: the fallback.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
secs=${FUZZ_SECONDS:-5}
out=$top/build-fuzz
mkdir -p "$out"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

flags="-std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined
	-fno-sanitize-recover=all -I$top -I$top/lab -I$top/lab/common"
rep=$top/lab/report
# srcs_of TARGET: the sources a target needs beside its harness.
srcs_of() {
	case $1 in
	json) echo "$top/lab/common/json_read.c $rep/escape.c $rep/repro.c $top/lab/common/bench_vars.c" ;;
	fold) echo "$rep/fold.c $rep/flame.c $rep/svg.c" ;;
	perf) echo "$rep/perf_script.c $rep/fold.c $rep/flame.c $rep/svg.c" ;;
	plan) echo "$top/lab/plan/vars.c $top/lab/common/bench_vars.c $top/lab/common/size.c" ;;
	esac
}

# The engine: libFuzzer where clang links a fuzzer, else the driver
# (FUZZ_ENGINE=driver forces it, to check the fallback).
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$tmp/probe.c"
if [ "${FUZZ_ENGINE:-}" != driver ] && command -v clang >/dev/null 2>&1 &&
	clang -fsanitize=fuzzer,address,undefined -o "$tmp/probe" "$tmp/probe.c" > /dev/null 2>&1; then
	engine=libfuzzer
	echo "fuzz_smoke: engine libFuzzer ($(clang --version | head -n 1)), ${secs}s per target"
else
	engine=driver
	echo "fuzz_smoke: engine tests/fuzz/driver.c, deterministic mutations under ASan and UBSan" \
		"(clang's libFuzzer not found: apt-get install clang libclang-rt-14-dev), ${secs}s per target"
fi

for t in json fold perf plan; do
	srcs=$(srcs_of "$t")
	bin=$out/fuzz_$t
	# shellcheck disable=SC2086 # flags and srcs are word lists
	if [ "$engine" = libfuzzer ]; then
		built=$(clang $flags -fsanitize=fuzzer -o "$bin" "$top/tests/fuzz/fuzz_$t.c" $srcs -ljansson -lm 2>&1) || built="failed: $built"
	else
		built=$(${CC:-cc} $flags -o "$bin" "$top/tests/fuzz/driver.c" "$top/tests/fuzz/fuzz_$t.c" $srcs -ljansson -lm 2>&1) || built="failed: $built"
	fi
	case $built in
	failed:*) fail "fuzz_smoke: build fuzz_$t: $(echo "$built" | head -n 3 | tr '\n' ' ')"; continue ;;
	esac
	seeds=$top/tests/fuzz/corpus/$t
	rm -f "$out/crash-$t-"*
	if [ "$engine" = libfuzzer ]; then
		# New inputs go to a scratch directory, never into the seeds.
		mkdir -p "$tmp/$t"
		"$bin" "$tmp/$t" "$seeds" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix="$out/crash-$t-" -print_final_stats=1 > "$tmp/log" 2>&1 && rc=0 || rc=$?
		what=$(grep -E '^stat::number_of_executed_units' "$tmp/log" | awk '{ print $2 " inputs" }')
	else
		FUZZ_CRASH_FILE="$out/crash-$t-input" "$bin" "$secs" "$seeds"/* > "$tmp/log" 2>&1 && rc=0 || rc=$?
		what=$(grep '^driver:' "$tmp/log" | sed 's/^driver: //')
		[ "$rc" = 0 ] || cp "$tmp/log" "$out/crash-$t-driver.log"
	fi
	if [ "$rc" = 0 ]; then
		pass "fuzz_smoke: $t reader, ${secs}s of $engine: ${what:-no count}"
	else
		grep -E -A 12 'ERROR: |runtime error|deadly signal|Timeout' "$tmp/log" | head -n 30 | sed 's/^/    /'
		fail "fuzz_smoke: $t reader failed under $engine (exit $rc; input kept in $out/crash-$t-*)"
	fi
done
tests_done
