#!/bin/sh
# The lab cross-built for aarch64 with -Werror (make cross-test, into
# build-arm64/), its unit tests run under qemu-user: the rseq signature,
# ISB spin delay and every parser and statistic compile and behave on arm64.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

# On an arm64 host the build is native and its programs run as they are.
runner=qemu-aarch64-static how="under qemu-user"
[ "$(uname -m)" = aarch64 ] && runner="" how="natively"
for tool in aarch64-linux-gnu-gcc $runner; do
	if ! command -v "$tool" > /dev/null; then
		skip "cross_arm64: no $tool (run: ./configure --install-deps, or apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static)"
		exit 0
	fi
done
if make -C "$top" cross-test > "$tmp/out" 2>&1; then
	pass "cross_arm64: unit tests for aarch64 $how ($(grep -E '^[0-9]+ passed' "$tmp/out" | tail -n 1))"
else
	grep -E '^FAIL|error:' "$tmp/out" | head -n 20 | sed 's/^/    /'
	fail "cross_arm64: make cross-test failed (above)"
fi
n=$(find "$top/build-arm64/tests" -maxdepth 1 -name 'test_*' -type f | wc -l)
check "cross_arm64: $n unit test programs are aarch64 executables" \
	sh -c "[ $n -ge 5 ] && file '$top'/build-arm64/tests/test_bp_locks | grep -q 'ARM aarch64'"
check "cross_arm64: the aarch64 tests ran and passed some checks" \
	grep -qE '^[1-9][0-9]* passed, 0 failed' "$tmp/out"

# The static aarch64 bufbench runs a 1-second tas run (under qemu-user on
# x86) and records the architecture it measured in its provenance.
bb=$top/build-arm64/bufbench-static
# shellcheck disable=SC2086 # runner is one word or none
if $runner "$bb" --clients 2 --duration 1 --pool 8M --json "$tmp/r.json" \
	> "$tmp/bb.out" 2>&1; then
	check "cross_arm64: aarch64 bufbench records provenance.arch aarch64" \
		test "$(jq -r .provenance.arch "$tmp/r.json")" = aarch64
	# Its times are an emulator's: the result must say so, not "none".
	[ -z "$runner" ] || check "cross_arm64: under qemu-user provenance.virtualization is tcg-user" \
		test "$(jq -r .provenance.virtualization "$tmp/r.json")" = tcg-user
	check "cross_arm64: aarch64 bufbench ran transactions $how" \
		test "$(jq -r '.results.transactions' "$tmp/r.json")" -gt 0
else
	sed 's/^/    /' "$tmp/bb.out" | tail -n 5
	fail "cross_arm64: aarch64 bufbench-static $how failed (above)"
fi
