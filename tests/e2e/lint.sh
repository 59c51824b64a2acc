#!/bin/sh
# Every shell script of the lab passes shellcheck (the project's standard
# for shell), and every C source builds warning-free (the Makefile's -Werror
# already enforces that; this checks the shell half).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
cd "$top"
if ! command -v shellcheck >/dev/null 2>&1; then
	fail "shellcheck is not installed (./configure --install-deps installs it)"
else
	for f in configure .ci/run scripts/*.sh tests/*.sh tests/e2e/*.sh tests/long/*.sh tests/native/*.sh guest/init; do
		[ -f "$f" ] || continue
		if out=$(shellcheck -x "$f" 2>&1); then
			pass "shellcheck $f"
		else
			fail "shellcheck $f: $(echo "$out" | head -n 3 | tr '\n' ' ')"
		fi
	done
fi
# The host's own PostgreSQL (PG_VERSION=system) is one fact in one place:
# scripts/pg-root-lib.sh's PG_SYSTEM_MAJOR; every other script, guest file
# and configure read it there (issue 38).
check "the system PostgreSQL's major is written only in scripts/pg-root-lib.sh (PG_SYSTEM_MAJOR)" \
	sh -c "[ -z \"\$(grep -lE 'postgresql[/-]15' configure scripts/*.sh guest/*)\" ] &&
		[ \"\$(grep -lE '^PG_SYSTEM_MAJOR=' configure scripts/*.sh guest/* | paste -sd' ' -)\" = scripts/pg-root-lib.sh ]"
# set -eu at the top of every script that runs (sourced libraries excepted).
for f in configure .ci/run scripts/*.sh tests/e2e/*.sh tests/long/*.sh tests/native/*.sh; do
	case $(head -n 1 "$f") in
	'#!'*) if grep -q '^set -eu' "$f"; then pass "set -eu in $f"; else fail "$f lacks set -eu"; fi ;;
	esac
done
tests_done
