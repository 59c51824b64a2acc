#!/bin/sh
# The model targets' variables are data (issue 35, N5): make model RUN=,
# make predict INPUTS=, MODEL=, CPUS=, CLIENTS=, PAGES= were spliced into
# their recipes, so a $(shell ...) ran through make's expansion (and, for
# CLIENTS and the other bench variables, through make's export of them) and
# a quote and ; through the recipe's shell.  Each payload must run nothing
# (no PWNED file), and the program must refuse the value, whole.
# shellcheck disable=SC2016 # the payloads are literal on purpose
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
for b in predict model plan; do
	[ -x "$top/build/$b" ] || { fail "build/$b missing (make first)"; exit 1; }
done
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
P=$tmp/PWNED
n=0

# hostile NAME MAKE-ARGS...: make -C top with the arguments, without the
# bench variables this test's caller may have set; nothing of the payload
# may run, and make must fail.
hostile() {
	h=$1
	rm -f "$P"*
	shift
	rc=0
	env -u CLIENTS -u PAGES -u KERNEL -u CPUS -u MODEL -u INPUTS -u RUN \
		make -s -C "$top" "$@" > "$tmp/$h.out" 2>&1 || rc=$?
	check "$h: no command of the payload ran (no PWNED file)" test -z "$(find "$tmp" -name 'PWNED*')"
	check "$h: refused (rc $rc)" test "$rc" -ne 0
}
# quote N / expand N: the two shapes of payload, each touching PWNED-N.
quote() { echo "x'; touch $P-$1; '"; }
expand() { echo "x\$(shell touch $P-$1)"; }

for shape in quote expand; do
	n=$((n + 1)); v=$($shape $n)
	hostile "model-run-$shape" model RUN="$v"
	check "model-run-$shape: build/model names the value whole" grep -qF "model: $v: " "$tmp/model-run-$shape.out"
	n=$((n + 1)); v=$($shape $n)
	hostile "predict-inputs-$shape" predict INPUTS="$v"
	check "predict-inputs-$shape: build/predict names the file whole" grep -qF "$v" "$tmp/predict-inputs-$shape.out"
	n=$((n + 1)); v=$($shape $n)
	hostile "predict-model-$shape" predict MODEL="$v" CPUS=96 CLIENTS=1024
	check "predict-model-$shape: refused as no model" grep -qF -- "--model $v: none, voluntary, full or lazy" "$tmp/predict-model-$shape.out"
	n=$((n + 1)); v=$($shape $n)
	hostile "predict-cpus-$shape" predict CPUS="$v" CLIENTS=1024
	check "predict-cpus-$shape: refused as no integer" grep -qF -- "--cpus $v: expected an integer" "$tmp/predict-cpus-$shape.out"
	n=$((n + 1)); v=$($shape $n)
	hostile "predict-clients-$shape" predict CPUS=96 CLIENTS="$v"
	check "predict-clients-$shape: refused as no integer" grep -qF -- "--clients $v: expected an integer" "$tmp/predict-clients-$shape.out"
	n=$((n + 1)); v=$($shape $n)
	hostile "predict-pages-$shape" predict PAGES="$v"
	n=$((n + 1)); v=$($shape $n)
	hostile "kernel-$shape" kernel KERNEL="$v"
done
# A bench variable reaches every recipe's environment as given, unexpanded.
n=$((n + 1))
rc=0
env -u CLIENTS make -s --no-print-directory -C "$top" --eval 'envcheck: ; @env' envcheck \
	CLIENTS="\$(shell touch $P-$n)" > "$tmp/env.out" 2>&1 || rc=$?
check "CLIENTS=\$(shell ...): not run by make's export (no PWNED file)" test -z "$(find "$tmp" -name 'PWNED*')"
check "CLIENTS=\$(shell ...): exported as given" grep -qxF "CLIENTS=\$(shell touch $P-$n)" "$tmp/env.out"
# The plain forms still work.
rc=0
env -u CLIENTS -u PAGES make -s -C "$top" predict CPUS=96 CLIENTS=1024 MODEL=lazy > "$tmp/plain.out" 2>&1 || rc=$?
check "make predict CPUS=96 CLIENTS=1024 MODEL=lazy predicts lazy against none (rc $rc)" \
	grep -q '^closed lazy */none [0-9.]*x' "$tmp/plain.out"
rc=0
env -u CLIENTS -u PAGES make -s -C "$top" predict PAGES=2m > "$tmp/plain2.out" 2>&1 || rc=$?
check "make predict PAGES=2m predicts for 2m pages (rc $rc)" grep -q '^blind: .*, 2m pages,' "$tmp/plain2.out"
tests_done
