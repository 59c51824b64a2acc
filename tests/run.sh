#!/bin/sh
# Runs every unit test binary and end-to-end script and prints the totals.
# Usage: tests/run.sh [unit|e2e|all]
# TEST_BUILD: the build directory whose tests/test_* run, under the
# checkout or absolute (build; make sanitize-test gives build-san).
# TEST_EXEC: a program that runs each unit test (make cross-test: the
# aarch64 tests under qemu-aarch64-static).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
what=${1:-all}
log=$(mktemp)
# shellcheck source=scripts/common.sh
. "$top/scripts/common.sh"
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -f "$log" "$log.one" "$log.rc"'

run() {
	echo "== $*"
	# tee keeps long end-to-end tests visible while they run.  The status
	# is taken with || so that set -e, which holds in the pipeline's
	# subshell too, does not end it before the status is written (the
	# file then kept the previous test's 0: a test killed by a sanitizer
	# or a signal passed).
	rm -f "$log.rc"
	{ rc=0; "$@" 2>&1 || rc=$?; echo "$rc" > "$log.rc"; } | tee "$log.one"
	rc=$(cat "$log.rc")
	cat "$log.one" >> "$log"
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL:' "$log.one"; then
		echo "FAIL: $* exited $rc without reporting a failure" | tee -a "$log"
	fi
	rm -f "$log.one"
}

if [ "$what" = unit ] || [ "$what" = all ]; then
	case ${TEST_BUILD:-build} in
	/*) bdir=$TEST_BUILD ;;
	*) bdir=$top/${TEST_BUILD:-build} ;;
	esac
	for t in "$bdir"/tests/test_*; do
		# shellcheck disable=SC2086 # TEST_EXEC is one word or none
		[ -x "$t" ] && run ${TEST_EXEC:-} "$t"
	done
fi
if [ "$what" = e2e ] || [ "$what" = all ]; then
	# tests/long/ last: they may build a kernel, in the time the others left
	# (PREEMPTLAB_TEST_DEADLINE).
	for t in "$top"/tests/e2e/*.sh "$top"/tests/long/*.sh; do
		[ -f "$t" ] && run sh "$t"
	done
	# Last of all, README's quick start in a fresh Debian root, when the
	# deadline leaves time for it (it says what it skipped and why).
	run sh "$top/tests/native/fresh_debian.sh" --from-make-test
fi

passed=$(grep -c '^PASS:' "$log" || true)
failed=$(grep -c '^FAIL:' "$log" || true)
skipped=$(grep -c '^SKIP:' "$log" || true)
if [ "$failed" -ne 0 ]; then
	echo
	echo "Failures:"
	grep '^FAIL:' "$log"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
