#!/bin/sh
# build/predict and make predict (lab/model/, docs/scale.md): the closed
# form's ratio and interval for the issue's worked example (1/X = 1/X0 + k,
# issue 37), the blind prediction over the whole run (--report), the
# simulation through the same CLI, --tsv's table against the human output,
# and the refusals: inputs measured with
# an instrument inside the hold, inputs out of range, a none tps no X0 can
# give, a simulation too large to finish.
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
# Saturated (X k 0.93): the ratio tends to k_none/k_full = 1/3.8 = 0.263, not 1/sqrt(3.8).
check "closed form: worked example, q ratio 3.8 -> 0.278x at 96 CPUs, 1024 clients, stalled share below 1" \
	sh -c "grep -q '^closed full     /none 0\.278x  95% interval 0\.2[0-9]*\.\.0\.3[0-9]*' '$tmp/closed' &&
		grep -q 'stalled share X k 0\.928 none, 0\.98 full' '$tmp/closed'"

make -s predict INPUTS=$data/worked-1.7.json CPUS=96 CLIENTS=1024 MODEL=full > "$tmp/make" 2>&1 || true
cat "$tmp/make"
check "make predict: worked example, q ratio 1.7 -> 0.606x" grep -q '^closed full     /none 0\.606x' "$tmp/make"

make -s predict > "$tmp/default" 2>&1 || true
cat "$tmp/default"
check "make predict without INPUTS: the blind prediction for the report's 96 CPUs, 1024 clients, whole run" \
	sh -c "grep -q '^inputs docs/model/calibrated-72lab-4k-c21-twins.json .*predicting 96 CPUs, 1024 clients' '$tmp/default' &&
		grep -q 'whole 1200 s run' '$tmp/default' &&
		grep -q \"rules' spans, drawn log-uniformly: p_f 0\.0[0-9]*\\.\\.0\.63\" '$tmp/default' &&
		grep -q '^blind  full     /none whole run [01]\.[0-9]*x  95% interval' '$tmp/default' &&
		grep -q 'the one measurement that narrows it most: ' '$tmp/default' &&
		grep -q 'emulator_freeze): excluded' '$tmp/default' &&
		grep -q 'blocked_in_fault): NOT INCLUDED: unmeasured' '$tmp/default'"

build/predict --inputs $data/worked-1.7.json --cpus 96 --clients 1024 --need 0.527 > "$tmp/need"
cat "$tmp/need"
# (1 + a)/(1 + r a) = 0.527 at a = X_free k_none = 12.9: r = 1.97, just above 1/0.527.
check "--need 0.527 on the worked example: q_M / q_none 1.97 (not 3.8: at saturation 1/need)" \
	grep -q '^need 0\.527x: q_M / q_none = 1\.97 at equal T' "$tmp/need"

build/predict --inputs $data/long-faults-2cpu.json --cpus 2 --clients 21 --model full --sim --reps 2 \
	> "$tmp/sim"
cat "$tmp/sim"
check "simulation: a full/none ratio, a range over input draws, q and T per model" \
	sh -c "grep -q '^sim    full     /none [01]\.[0-9]*x  range ' '$tmp/sim' &&
		grep -q '^  full .* q 0\.[0-9]* (.*T [0-9]* us' '$tmp/sim'"

# --tsv (issue 38): the same prediction as a table read by column name, no prose.
tsvargs="--inputs docs/model/calibrated-72lab-4k-c21-twins.json --cpus 2 --clients 64 --extrapolate --pages 4k --fault-around-pages 1"
# shellcheck disable=SC2086 # tsvargs is a word list
build/predict $tsvargs --model full > "$tmp/human"
# shellcheck disable=SC2086
build/predict $tsvargs --model full --tsv > "$tmp/tsv"
cat "$tmp/tsv"
check "--tsv: a header naming the columns, then one row, nothing else" \
	sh -c "[ \"\$(head -n 1 '$tmp/tsv')\" = \"\$(printf 'model\tpages\tclients\tcpus\tratio\tlo\thi\tp_f\tt_us\tnone_tps\tmodel_tps')\" ] &&
		[ \$(wc -l < '$tmp/tsv') -eq 2 ] && [ \$(awk -F '\t' 'NF != 11' '$tmp/tsv' | wc -l) -eq 0 ]"
# The human output's numbers, in the table's order: full 4k 64 2, ratio, interval, p_f and T moved, X_none.
sed -n -e 's/^  p_f [^ ]* -> \([^ ]*\) .*/pf \1/p' -e 's/^  T [^ ]* -> \([^ ]*\) us .*/t \1/p' \
	-e 's/^closed full *\/none \([0-9.]*\)x  95% interval \([0-9.]*\)\.\.\([0-9.]*\) .*X_none \([0-9]*\) tps.*/r \1 \2 \3 \4/p' \
	"$tmp/human" > "$tmp/said"
want=$(awk '$1 == "r" { r = $2 "\t" $3 "\t" $4; x = $5 } $1 == "pf" { pf = $2 } $1 == "t" { t = $2 }
	END { print "full\t4k\t64\t2\t" r "\t" pf "\t" t "\t" x }' "$tmp/said")
got=$(sed -n 2p "$tmp/tsv" | cut -f1-10)
echo "human: $want"
check "--tsv row: model, pages, clients, cpus, ratio, interval, p_f, T and none's tps equal the human output's" \
	test "$got" = "$want"
build/predict --inputs $data/worked-3.8.json --cpus 96 --clients 1024 --tsv > "$tmp/all"
check "--tsv without --model: a row for each model with a q but none (full here), a ratio each" \
	sh -c "[ \$(wc -l < '$tmp/all') -ge 2 ] && ! cut -f1 '$tmp/all' | grep -qx none &&
		[ \$(awk -F '\t' 'NR > 1 && \$5 !~ /^[0-9]+\.[0-9][0-9][0-9]\$/' '$tmp/all' | wc -l) -eq 0 ]"
for other in --sim --report "--need 0.5"; do
	rc=0
	# shellcheck disable=SC2086 # other is one option, or one with its value
	build/predict --inputs $data/worked-3.8.json --cpus 96 --clients 1024 --tsv $other > "$tmp/out" 2> "$tmp/err" || rc=$?
	check "--tsv with $other is refused (exit 2), nothing on stdout" \
		sh -c "[ $rc -eq 2 ] && grep -q -- '--tsv prints the closed form' '$tmp/err' && [ ! -s '$tmp/out' ]"
done

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

# Meaningless inputs are refused, not printed as "0 tps".
jq '.x0_tps = 1e-300' $data/small-2cpu.json > "$tmp/tiny.json"
rc=0
build/predict --inputs "$tmp/tiny.json" --cpus 2 --clients 21 > "$tmp/out" 2> "$tmp/err" || rc=$?
cat "$tmp/err"
check "x0_tps 1e-300 is refused (exit 2), saying the range, no prediction" \
	sh -c "[ $rc -eq 2 ] && grep -q 'x0_tps in 1\.\.1e9' '$tmp/err' && ! grep -q '^closed' '$tmp/out'"
# No block_size: X0 is not moved to another page size by a guessed one.
jq 'del(.block_size)' docs/model/calibrated-72lab-4k-c21-twins.json > "$tmp/nobs.json"
build/predict --inputs "$tmp/nobs.json" --cpus 2 --clients 21 --extrapolate --pages 2m --model full > "$tmp/nobs"
check "block_size missing: X0 kept at another page size, saying it needs block_size" \
	grep -q 'X0 kept at .*needs block_size' "$tmp/nobs"
# A none tps that no X0 gives: the stalls and the lock's service would take more than all the time.
rc=0
build/predict --inputs docs/model/calibrated-72lab-4k-c21.json --cpus 96 --clients 1024 --extrapolate \
	--pool-pages 15728640 --fault-around-pages 16 --hz 250 --x-none-tps 98566 > "$tmp/out" 2> "$tmp/err" || rc=$?
cat "$tmp/err"
check "none anchored at 98,566 with the lab's 86 us faults is refused (exit 4): X (m s + k) >= 1" \
	sh -c "[ $rc -eq 4 ] && grep -q 'none cannot run at 98566 tps' '$tmp/err' && ! grep -q '^closed' '$tmp/out'"
rc=0
build/predict --inputs $data/small-2cpu.json --cpus 96 --clients 100000 --sim > "$tmp/out" 2> "$tmp/err" || rc=$?
cat "$tmp/err"
check "--sim with 100,000 clients is refused at once (exit 2): its work is bounded" \
	sh -c "[ $rc -eq 2 ] && grep -q 'client-seconds, more than the bound' '$tmp/err'"
tests_done
