# shellcheck shell=sh
# Shared by the shell tests: every check prints one PASS/FAIL/SKIP line that
# tests/run.sh counts, so a test script never prints its own totals.
TESTS_FAILED=0

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; TESTS_FAILED=$((TESTS_FAILED + 1)); }
skip() { echo "SKIP: $*"; }

# check NAME CMD...: run CMD, pass if it succeeds.
check() {
	name=$1; shift
	if "$@" >/dev/null; then pass "$name"; else fail "$name"; fi
}

tests_done() { [ "$TESTS_FAILED" -eq 0 ]; }
