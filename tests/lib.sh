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

# fixture_run TEST FIXTURE BIN...: how a test of the report tools on
# tests/data/FIXTURE starts: FAIL and stop unless build/BIN... are built,
# SKIP and stop without jq; then tmp, a directory removed on exit, and run,
# a copy of the fixture in it.  $top is the checkout, as every test sets it.
# on_exit 'COMMANDS': as scripts/common.sh's: clean up on exit and on
# INT, TERM and HUP, which then end the test instead of letting it go on
# without what the cleanup removed.
on_exit() {
	# shellcheck disable=SC2064 # the commands are fixed now, on purpose
	trap "$1" EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
}

fixture_run() {
	fx_test=$1 fx_dir=$2
	shift 2
	# shellcheck disable=SC2154 # top is the caller's
	for fx_b in "$@"; do
		[ -x "$top/build/$fx_b" ] || { fail "$fx_test: build/$fx_b missing (make first)"; exit 1; }
	done
	command -v jq >/dev/null || { skip "$fx_test: jq not installed (apt-get install jq)"; exit 0; }
	tmp=$(mktemp -d)
	# shellcheck disable=SC2016 # expanded when the trap runs
	on_exit 'rm -rf "$tmp"'
	cp -r "$top/tests/data/$fx_dir" "$tmp/run"
	# shellcheck disable=SC2034 # run is the caller's
	run=$tmp/run
}

# no_guest_left DIR: no QEMU still runs with its logs in DIR.
no_guest_left() {
	for p in /proc/[0-9]*; do
		{ tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null | grep -q "^[^ ]*qemu-system[^ ]* .*$1" && return 1
	done
	return 0
}

# jqt FILE EXPR: EXPR holds for the JSON in FILE.
# cells_file UNIT_PLAN: a unit's cells as its runner gets them (the plan
# file's "cell" lines without the key), written beside it as UNIT.cells,
# afresh on every call; prints that path.
cells_file() {
	sed -n "s/^cell$(printf '\t')//p" "$1" > "${1%.plan}.cells"
	echo "${1%.plan}.cells"
}
jqt() { jq -e "$2" "$1" > /dev/null; }

# wilson K N: the 95% Wilson interval of K in N, in whole percent, as the
# report's tables print it ("[38, 62]").
wilson() {
	awk -v k="$1" -v n="$2" 'BEGIN { z = 1.959964; p = k / n; d = 1 + z * z / n
		c = (p + z * z / (2 * n)) / d; h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
		lo = c - h; hi = c + h; if (lo < 0 || k == 0) lo = 0; if (hi > 1 || k == n) hi = 1
		printf "[%.0f, %.0f]", 100 * lo, 100 * hi }'
}

# pct BASE NEW: the report's %change of NEW against BASE (e.g. +12.3%).
pct() { awk -v b="$1" -v n="$2" 'BEGIN { printf "%+.1f%%", 100 * (n - b) / b }'; }

# row TITLE METRIC: the row of METRIC in the report.txt ($txt) block whose
# title holds TITLE.
# shellcheck disable=SC2154 # txt is set by the calling test
row() { awk -v t="$1" -v m="$2" 'index($0, t) { f = 1 } f && $0 ~ ("  " m "$") { print; exit }' "$txt"; }

# bench_interrupted RUN LIMIT OUT: scripts/bench.sh RUN in the background,
# Ctrl-C once its first result is in (or after LIMIT seconds); prints the
# exit status.  A background job ignores SIGINT in sh; perl restores it,
# as a terminal would.
bench_interrupted() {
	# shellcheck disable=SC2154 # top is the caller's
	perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
		sh "$top/scripts/bench.sh" "$1" > "$3" 2>&1 &
	bi_pid=$!
	bi_i=0
	while [ $bi_i -lt "$2" ] && [ -z "$(ls "$1/runs" 2>/dev/null)" ]; do sleep 1; bi_i=$((bi_i + 1)); done
	kill -INT "$bi_pid"
	bi_rc=0; wait "$bi_pid" || bi_rc=$?
	echo "$bi_rc"
}

tests_done() { [ "$TESTS_FAILED" -eq 0 ]; }

# guest_kernel NAME: QEMU is here and Debian's 7.0 resolves, its K_
# assignments in $tmp/k; an unreachable archive with nothing cached skips
# the test (exit 0), anything else fails it (exit 1).  $tmp is the caller's.
guest_kernel() {
	command -v qemu-system-x86_64 >/dev/null ||
		{ fail "$1: no qemu-system-x86_64 (./configure --install-deps)"; exit 1; }
	# shellcheck disable=SC2154 # top and tmp are the caller's
	"$top/scripts/kernel-resolve.sh" 7.0 > "$tmp/k" 2> "$tmp/k.err" && return 0
	if grep -q 'apt-get update of .* failed' "$tmp/k.err"; then
		skip "$1: Debian's archive is unreachable and no 7.0 image is cached"
		tests_done
		exit 0
	fi
	cat "$tmp/k.err"
	fail "$1: resolve 7.0"
	exit 1
}

# under_qemu_user: this shell runs under qemu-user (an arm64 chroot on an
# x86 machine: tests/native/arm64_chroot.sh): aarch64 programs, x86 kernel,
# whose /proc/cpuinfo still describes x86 (as provenance.c's check).
under_qemu_user() {
	[ "$(uname -m)" = aarch64 ] && grep -q '^vendor_id' /proc/cpuinfo 2>/dev/null
}

# built_kernel TEST SERIES WHAT MAKE SLACK_S: the built catalog SERIES (for
# $ARCH) resolved into $tmp/k, or built when PREEMPTLAB_TEST_DEADLINE
# (epoch seconds) leaves twice the catalog's estimate plus SLACK_S and the
# cache's disk has ~8 GB free; otherwise the test skips naming MAKE, the
# command that builds it (exit 0).  WHAT names the image in messages.
built_kernel() {
	bk_test=$1 bk_series=$2 bk_what=$3 bk_make=$4 bk_slack=$5
	case ${ARCH:-amd64} in arm64|aarch64) bk_arch=arm64 ;; *) bk_arch=amd64 ;; esac
	# The recipe's build time, scaled to this machine (R_MINUTES).
	bk_minutes=$("$top/build/plan" --kernel-build "$top/kernels" "$bk_arch" "$bk_series" recipe |
		sed -n "s/^R_MINUTES='\(.*\)'\$/\1/p")
	# shellcheck disable=SC2154 # tmp is the caller's
	"$top/scripts/kernel-resolve.sh" "$bk_series" > "$tmp/k" 2> "$tmp/k.err" && return 0
	bk_left=$(( ${PREEMPTLAB_TEST_DEADLINE:-0} - $(date +%s) ))
	bk_need=$(( bk_minutes * 2 * 60 + bk_slack ))
	if [ -z "${PREEMPTLAB_TEST_DEADLINE:-}" ] || [ "$bk_left" -lt "$bk_need" ]; then
		skip "$bk_test: $bk_what is not built (\`$bk_make\`, ~$bk_minutes min here); ${PREEMPTLAB_TEST_DEADLINE:+only $((bk_left / 60)) min left of the test budget, $((bk_need / 60)) needed; }then this test boots it once per model"
		tests_done; exit 0
	fi
	# The unpacked tree and its objects: about 5 GB while it builds.
	bk_cache=${PREEMPTLAB_CACHE:-$top/kernels/cache}
	mkdir -p "$bk_cache"
	bk_free=$(( $(df -Pk "$bk_cache" | awk 'NR == 2 { print $4 }') / 1048576 ))
	if [ "$bk_free" -lt 8 ]; then
		skip "$bk_test: $bk_what is not built and $bk_cache has only $bk_free GB free (a build needs ~8); \`$bk_make\` on a larger disk, then this test boots it"
		tests_done; exit 0
	fi
	echo "$bk_test: building $bk_what (~$bk_minutes min; $((bk_left / 60)) min left of the test budget)"
	bk_t0=$(date +%s)
	if "$top/scripts/kernel-resolve.sh" --build "$bk_series" > "$tmp/k" 2> "$tmp/k.err"; then
		pass "$bk_test: $bk_make built it in $(( ($(date +%s) - bk_t0) / 60 )) min"
	else
		tail -n 20 "$tmp/k.err"; fail "$bk_test: building $bk_what"; tests_done; exit 1
	fi
}

# git_checkout_or_skip NAME: end the test with a SKIP (exit 0) unless
# $top is the top of a git checkout (a test that reads git ls-files or
# archives the source).  $top is the caller's.
git_checkout_or_skip() {
	# shellcheck disable=SC2154 # top is the caller's
	if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" != "$(cd "$top" && pwd -P)" ]; then
		skip "$1: $top is not a git checkout (git clone the lab)"
		exit 0
	fi
}
