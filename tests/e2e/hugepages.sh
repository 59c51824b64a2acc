#!/bin/sh
# scripts/hugepages.sh gives back exactly what it reserved: a reservation
# another job made meanwhile survives the restore (it restores by the
# difference, never to the old absolute nr_hugepages).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
note() { :; }
# shellcheck source=scripts/hugepages.sh
. "$top/scripts/hugepages.sh"
pool=$(hp_pool 2048)
if ! hp_have_pool 2048; then
	skip "hugepages: no writable $pool (root and 2 MB pages needed)"
	tests_done
	exit 0
fi
orig=$(cat "$pool/nr_hugepages")
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'echo "$orig" > "$pool/nr_hugepages"'
free=$(cat "$pool/free_hugepages")
total=14 left=3 cur=2 now=1
if hp_reserve 2048 $((free + 8)); then
	check "the caller's variables survive (total, left, cur, now)" \
		test "$total $left $cur $now" = "14 3 2 1"
	mine=$(( $(cat "$pool/nr_hugepages") - orig ))
	# Another job reserves 3 more pages while this one holds its own.
	echo $(( $(cat "$pool/nr_hugepages") + 3 )) > "$pool/nr_hugepages"
	hp_restore_all
	check "the restore takes back this job's $mine pages and leaves the other job's 3" \
		test "$(cat "$pool/nr_hugepages")" -eq $((orig + 3))
	hp_restore_all
	check "a second restore changes nothing" test "$(cat "$pool/nr_hugepages")" -eq $((orig + 3))
else
	skip "hugepages: could not reserve 8 more 2 MB pages here"
fi
tests_done
