#!/bin/sh
# make hands the bench scripts exactly the variables the user set: an unset
# BASELINE must stay unset (the scripts read an empty one as "none"), a set
# one must arrive, and the documented defaults are there.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
cd "$top"
# The environment make gives a recipe, for the given make arguments.
envof() { env -u BASELINE -u CLIENTS make -s --no-print-directory --eval 'envcheck: ; @env' envcheck "$@"; }

out=$(envof)
case $out in *"BASELINE="*) fail "an unset BASELINE is exported (empty)" ;; *) pass "an unset BASELINE is not exported" ;; esac
# KERNEL and HUGEPAGES are the planner's to default (host, compare), so that
# a scenario's own (SCENARIO=mitigations: 7.2-lab where built, 4 KB) applies.
out=$(env -u KERNEL -u HUGEPAGES -u BASELINE -u CLIENTS make -s --no-print-directory --eval 'envcheck: ; @env' envcheck)
case $out in *"KERNEL="*|*"HUGEPAGES="*) fail "an unset KERNEL or HUGEPAGES is exported by make" ;;
*) pass "an unset KERNEL and HUGEPAGES are left to the planner" ;; esac
out=$(env -u KERNEL -u HUGEPAGES build/plan --check --top . PGBENCH=off 2>&1)
case $out in *"on the host"*) pass "...whose KERNEL default is the host" ;; *) fail "planner's KERNEL default: $out" ;; esac
out=$(envof BASELINE=none CLIENTS=3)
case $out in *"BASELINE=none"*) pass "BASELINE=none reaches the scripts" ;; *) fail "BASELINE=none not exported" ;; esac
case $out in *"CLIENTS=3"*) pass "CLIENTS=3 reaches the scripts" ;; *) fail "CLIENTS=3 not exported" ;; esac
# The Makefile's BENCH_VARS is the planner's list (plus PG_HUGEPAGES, an
# old name): make fleet forwards only BENCH_VARS, and a shorter copy once
# dropped SCENARIO, EVIDENCE, ARCH and 15 others on every host.
if [ -x "$top/build/plan" ]; then
	# shellcheck disable=SC2016 # a make expression
	mk=$(make -s --no-print-directory --eval 'printvars: ; @echo $(BENCH_VARS)' printvars | tr ' ' '\n' | grep -v '^PG_HUGEPAGES$' | sort)
	pl=$("$top/build/plan" --variables | sort)
	if [ "$mk" = "$pl" ]; then
		pass "the Makefile's BENCH_VARS are the planner's $(echo "$pl" | wc -l) variables"
	else
		fail "BENCH_VARS and build/plan --variables differ: $(printf '%s\n' "$mk" "$pl" | sort | uniq -u | tr '\n' ' ')"
	fi
	# make fleet forwards every planner variable given to make (the
	# recipe's FLEET_VARS, as make -n prints it), and nothing not given.
	args=$("$top/build/plan" --variables | sed 's/$/=1/' | tr '\n' ' ')
	# shellcheck disable=SC2086 # one NAME=1 word per variable
	fv=$(make -n -s --no-print-directory fleet $args | sed -n "s/^FLEET_VARS='\([^']*\)'.*/\1/p" | tr ' ' '\n' | sed '/^$/d' | sort)
	if [ "$fv" = "$pl" ]; then
		pass "make fleet forwards all $(echo "$fv" | wc -l) planner variables given to it"
	else
		fail "make fleet's FLEET_VARS differ from the planner's: $(printf '%s\n' "$fv" "$pl" | sort | uniq -u | tr '\n' ' ')"
	fi
	fv=$(make -n -s --no-print-directory fleet SCENARIO=seed EVIDENCE=on |
		sed -n "s/^FLEET_VARS='\([^']*\)'.*/\1/p" | tr -s ' ' | sed 's/^ //; s/ $//')
	check "make fleet SCENARIO=seed EVIDENCE=on forwards those two (once dropped), no others" \
		test "$fv" = "SCENARIO EVIDENCE"
	out=$(envof SCENARIO=seed EVIDENCE=on ARCH=arm64 2>/dev/null)
	case $out in *SCENARIO=seed*EVIDENCE=on* | *EVIDENCE=on*SCENARIO=seed*) pass "SCENARIO and EVIDENCE reach the scripts" ;;
	*) fail "SCENARIO or EVIDENCE not exported" ;; esac
else
	fail "build/plan missing (make first)"
fi
tests_done
