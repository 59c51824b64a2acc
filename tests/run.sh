#!/bin/sh
# Runs every unit test binary and end-to-end script and prints the totals.
# Usage: tests/run.sh [unit|e2e|all]
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
	# tee keeps long end-to-end tests visible while they run.
	{ "$@" 2>&1; echo $? > "$log.rc"; } | tee "$log.one"
	rc=$(cat "$log.rc")
	cat "$log.one" >> "$log"
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL:' "$log.one"; then
		echo "FAIL: $* exited $rc without reporting a failure" | tee -a "$log"
	fi
	rm -f "$log.one"
}

if [ "$what" = unit ] || [ "$what" = all ]; then
	for t in "$top"/build/tests/test_*; do
		[ -x "$t" ] && run "$t"
	done
fi
if [ "$what" = e2e ] || [ "$what" = all ]; then
	for t in "$top"/tests/e2e/*.sh; do
		[ -f "$t" ] && run sh "$t"
	done
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
