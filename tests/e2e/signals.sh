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
for sig in INT:130 TERM:143 HUP:129; do
	name=${sig%%:*} want=${sig#*:}
	mkdir -p "$tmp/$name"
	rc=0
	sh -c '. "$1/scripts/common.sh"; d=$2; on_exit "echo cleaned >> $d/log; rm -f $d/work"
		: > "$d/work"; kill -'"$name"' $$; echo went-on >> "$d/log"' sh "$top" "$tmp/$name" || rc=$?
	check "$name: exit $want, cleaned once, did not go on (rc $rc, log: $(tr '\n' ' ' < "$tmp/$name/log"))" \
		sh -c "[ $rc -eq $want ] && [ \"\$(cat '$tmp/$name/log')\" = cleaned ] && [ ! -e '$tmp/$name/work' ]"
done
tests_done
