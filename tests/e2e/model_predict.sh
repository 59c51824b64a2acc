#!/bin/sh
# build/predict and make predict (lab/model/, docs/scale.md): the closed
# form's ratio and interval for the issue's worked example, the simulation
# through the same CLI, and the refusal of inputs measured with an
# instrument inside the hold.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
cd "$top"
[ -x build/predict ] || { fail "build/predict missing (make build-all first)"; exit 1; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
data=tests/data/model

build/predict --inputs $data/worked-3.8.json --cpus 96 --clients 1024 --model full > "$tmp/closed"
cat "$tmp/closed"
check "closed form: worked example, q ratio 3.8 -> 0.527x at 96 CPUs, 1024 clients" \
	grep -q '^closed full     /none 0\.527x  95% interval 0\.4[0-9]*\.\.0\.5[0-9]*' "$tmp/closed"

make -s predict INPUTS=$data/worked-1.7.json CPUS=96 CLIENTS=1024 MODEL=full > "$tmp/make" 2>&1 || true
cat "$tmp/make"
check "make predict: worked example, q ratio 1.7 -> 0.777x" grep -q '^closed full     /none 0\.777x' "$tmp/make"

make -s predict > "$tmp/default" 2>&1 || true
cat "$tmp/default"
check "make predict without INPUTS: the published calibration moved to the report's 96 CPUs, 1024 clients" \
	sh -c "grep -q '^inputs docs/model/calibrated-4k.json .*predicting 96 CPUs, 1024 clients' '$tmp/default' &&
		grep -q 'window [0-9]* -> 1024 descriptors' '$tmp/default' &&
		grep -q '^closed full     /none [01]\.[0-9]*x  95% interval' '$tmp/default'"

build/predict --inputs $data/worked-1.7.json --cpus 96 --clients 1024 --need 0.527 > "$tmp/need"
cat "$tmp/need"
check "--need 0.527 on the worked example: q_M / q_none 3.8 (worked-3.8.json gives 0.527x)" \
	grep -q '^need 0\.527x: q_M / q_none = 3\.8 ' "$tmp/need"

build/predict --inputs $data/long-faults-2cpu.json --cpus 2 --clients 21 --model full --sim --reps 2 \
	> "$tmp/sim"
cat "$tmp/sim"
check "simulation: a full/none ratio, a range over input draws, q and T per model" \
	sh -c "grep -q '^sim    full     /none [01]\.[0-9]*x  range ' '$tmp/sim' &&
		grep -q '^  full .* q 0\.[0-9]* (.*T [0-9]* us' '$tmp/sim'"

rc=0
build/predict --inputs $data/in-hold.json --cpus 96 --clients 1024 > "$tmp/out" 2> "$tmp/err" || rc=$?
cat "$tmp/err"
check "inputs with in_hold_instrument true are refused (exit 3), saying why" \
	sh -c "[ $rc -eq 3 ] && grep -q 'instrument inside the hold' '$tmp/err' && [ ! -s '$tmp/out' ]"
# The issue's own test: make predict (not only build/predict) refuses them,
# with and without a size, and prints no prediction.
for size in "" "CPUS=96 CLIENTS=1024"; do
	what=${size:-at the report size}
	rc=0
	# shellcheck disable=SC2086 # size is two words or none
	make -s predict INPUTS=$data/in-hold.json $size > "$tmp/out" 2>&1 || rc=$?
	cat "$tmp/out"
	check "make predict INPUTS=in-hold.json $what is refused, saying why" \
		sh -c "[ $rc -ne 0 ] && grep -q 'instrument inside the hold' '$tmp/out' && ! grep -q '^closed' '$tmp/out'"
done
# The fault-duration rule measured: costbench --procs on this machine, then
# predict --extrapolate moving the fault durations by its growth.
if build/costbench --procs 1,4,16 --procs-pages 8 --json "$tmp/fb.json" 2> "$tmp/fb.err"; then
	check "costbench --procs: one entry per process count, each touch one fault" \
		jq -e '[.procs[] | select(.each_faulted and .faults == .procs * 8)] | length == 3' "$tmp/fb.json"
	build/predict --inputs docs/model/calibrated-4k.json --report --model full --fault-bench "$tmp/fb.json" \
		> "$tmp/fbpred"
	cat "$tmp/fbpred"
	check "predict --report --fault-bench: fault durations moved by the sweep from 21 to 1024 (clamped at 16)" \
		grep -q '^fault durations x [0-9.]*: median fault CPU [0-9]* ns at 21 processes -> [0-9]* ns at 1024 .*nearest' "$tmp/fbpred"
else
	cat "$tmp/fb.err"
	fail "costbench --procs 1,4,16 failed"
fi
rc=0
build/predict --inputs $data/worked-1.7.json --cpus 96 --clients 1024 --fault-bench "$tmp/fb.json" > /dev/null 2>&1 || rc=$?
check "--fault-bench without --extrapolate is a usage error (exit 2)" test "$rc" -eq 2
rc=0
build/predict --inputs $data/small-2cpu.json --cpus 96 > /dev/null 2>&1 || rc=$?
check "a missing --clients is a usage error (exit 2)" test "$rc" -eq 2
tests_done
