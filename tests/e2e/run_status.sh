#!/bin/sh
# tests/run.sh counts a test binary that dies without a FAIL line (a
# sanitizer's abort, a signal) as failed.  Under set -e the pipeline's
# subshell ended before writing the status, the previous test's 0 stayed,
# and such a test passed.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
mkdir -p "$tmp/b/tests"
printf '#!/bin/sh\necho "PASS: fine"\n' > "$tmp/b/tests/test_a_fine"
printf '#!/bin/sh\necho "PASS: before dying"\nkill -SEGV $$\n' > "$tmp/b/tests/test_b_dies"
printf '#!/bin/sh\necho "PASS: before exiting"\nexit 3\n' > "$tmp/b/tests/test_c_exits"
chmod +x "$tmp/b/tests/"*
if TEST_BUILD="$tmp/b" sh "$top/tests/run.sh" unit > "$tmp/out" 2>&1; then
	fail "run.sh exits 0 with a test that died"
else
	pass "run.sh exits non-zero with a test that died"
fi
check "a test killed by a signal is a failure" grep -q '^FAIL: .*test_b_dies exited 139 without reporting a failure' "$tmp/out"
check "a test exiting 3 without a FAIL line is a failure" grep -q '^FAIL: .*test_c_exits exited 3' "$tmp/out"
check "the totals count them" grep -qx '3 passed, 2 failed, 0 skipped' "$tmp/out"
tests_done
