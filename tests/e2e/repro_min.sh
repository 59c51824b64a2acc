#!/bin/sh
# repro/repro-min.c stands alone: it builds with plain cc and with the
# project's -Wall -Wextra -Werror, pops every descriptor of a small pool
# (a failed run exits non-zero), and where 2 MB pages can be reserved its
# holds fault less often on 2 MB than on 4 KB.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
src=$top/repro/repro-min.c
check "repro-min.c builds with cc -O2 alone" cc -O2 -o "$tmp/repro-min" "$src"
check "repro-min.c builds with -std=c11 -Wall -Wextra -Werror" \
	cc -std=c11 -O2 -Wall -Wextra -Werror -o "$tmp/repro-min-strict" "$src"
check "repro-min.c is one file of about 300 lines" test "$(wc -l < "$src")" -le 330
check "repro-min.c needs only libc" sh -c "! grep -E '^#include \"' '$src'"
check "repro-min rejects a bad page size, naming the choices" \
	sh -c "'$tmp/repro-min' -p 1g 2>&1 | grep -q 'want 4k, 2m or both'"
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 2 ] && [ "$(id -u)" != 0 ]; then
	skip "repro-min runs: kernel.perf_event_paranoid > 2 (sysctl kernel.perf_event_paranoid=2)"
	tests_done; exit
fi
REPRO_MIN=$tmp/repro-min sh "$top/scripts/repro-min.sh" -c 16 -n 32768 -w 5 > "$tmp/out" 2>&1 || true
cat "$tmp/out"
# qemu-user has no perf events: repro-min must stop and say so, not hang.
if under_qemu_user; then
	check "repro-min under qemu-user stops, saying there are no perf events" \
		grep -q 'no perf events here: run natively or in a guest' "$tmp/out"
	tests_done; exit
fi
share() { sed -n "s/^pages=$1 .* holds_faulted=\([0-9.]*\)% .*/\1/p" "$tmp/out"; }
k4=$(share 4k)
check "repro-min pops the whole 4 KB pool and prints tps, faulted holds and wait share" \
	grep -Eq '^pages=4k .* tps=[0-9]+ holds_faulted=[0-9.]+% \(([0-9]+)/32784\) wait_share=' "$tmp/out"
check "repro-min names the kernel and the model's source" grep -Eq '^kernel=.* model=' "$tmp/out"
check "some 4 KB holds fault (first touch of a descriptor page under the lock: $k4%)" \
	awk -v a="$k4" 'BEGIN { exit !(a > 0) }'
m2=$(share 2m)
if [ -z "$m2" ]; then
	skip "2 MB vs 4 KB: $(grep '^pages=2m' "$tmp/out" || echo 'no 2 MB line') (run as root with free memory: sysctl vm.nr_hugepages=2)"
else
	check "fewer holds fault on 2 MB ($m2%) than on 4 KB ($k4%)" awk -v a="$m2" -v b="$k4" 'BEGIN { exit !(a < b) }'
fi
tests_done
