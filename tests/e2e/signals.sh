#!/bin/sh
# on_exit (scripts/common.sh): a script interrupted by INT, TERM or HUP
# cleans up once and ends with the signal's status; it does not carry on
# without what its cleanup removed (the old `trap '...' EXIT INT TERM`
# ran the cleanup on INT and then went on).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
# A signal this shell inherited as ignored (nohup's HUP, a background
# job's INT) cannot be trapped by any sh below it (POSIX): on_exit is not
# what such a run would test.  /proc's SigIgn mask says which.
ignored() {
	mask=$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status 2>/dev/null)
	[ -n "$mask" ] && [ $(( (0x$mask >> ($1 - 1)) & 1 )) = 1 ]
}
for sig in INT:130 TERM:143 HUP:129; do
	name=${sig%%:*} want=${sig#*:}
	if ignored $((want - 128)); then
		skip "$name: ignored by whatever started this test (nohup, or a background job without job control): untestable here"
		continue
	fi
	mkdir -p "$tmp/$name"
	rc=0
	sh -c '. "$1/scripts/common.sh"; d=$2; on_exit "echo cleaned >> $d/log; rm -f $d/work"
		: > "$d/work"; kill -'"$name"' $$; echo went-on >> "$d/log"' sh "$top" "$tmp/$name" || rc=$?
	check "$name: exit $want, cleaned once, did not go on (rc $rc, log: $(tr '\n' ' ' < "$tmp/$name/log"))" \
		sh -c "[ $rc -eq $want ] && [ \"\$(cat '$tmp/$name/log')\" = cleaned ] && [ ! -e '$tmp/$name/work' ]"
done
tests_done
