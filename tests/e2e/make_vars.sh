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
case $out in *"KERNEL=host"*) pass "KERNEL defaults to host" ;; *) fail "KERNEL default missing" ;; esac
out=$(envof BASELINE=none CLIENTS=3)
case $out in *"BASELINE=none"*) pass "BASELINE=none reaches the scripts" ;; *) fail "BASELINE=none not exported" ;; esac
case $out in *"CLIENTS=3"*) pass "CLIENTS=3 reaches the scripts" ;; *) fail "CLIENTS=3 not exported" ;; esac
tests_done
