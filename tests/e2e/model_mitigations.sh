#!/bin/sh
# make model RUN= on a SCENARIO=mitigations run with all four models (the
# calibration family the lead runs on 7.2-lab: 21 clients, 4 KB, EVIDENCE
# on, none voluntary full lazy, every mitigation beside none).  Built from
# tests/data/run-model's six real documents: config.mitigation "none" added
# to each, and relabelled copies (marked as such below) for what 6.12 has
# not measured: a voluntary and a lazy run, and prefault and hugepages
# cells that must be left out.  The inputs must be those of the unmitigated
# cells alone, with a q per model; and a costbench log gives fault costs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
cd "$top"
[ -x build/model ] || { fail "build/model missing (make build-all first)"; exit 1; }
command -v jq >/dev/null || { skip "model_mitigations: jq not installed"; exit 0; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
src=tests/data/run-model/runs
run=$tmp/run
mkdir -p "$run/runs" "$run/logs"
for f in "$src"/*.json; do
	jq '.config.mitigation = "none"' "$f" > "$run/runs/$(basename "$f" .json | sed 's/-c21/-mit_none-c21/').json"
done
# Relabelled copies (not measurements): a voluntary and a lazy run.
jq '.config.mitigation = "none" | .provenance.preempt_model = "voluntary"' \
	"$src/bufbench-6.12-none-4k-tas-c21-r1.json" > "$run/runs/bufbench-x-voluntary-4k-tas-mit_none-c21-r1.json"
jq '.config.mitigation = "none" | .provenance.preempt_model = "lazy"' \
	"$src/bufbench-6.12-full-4k-tas-c21-r1.json" > "$run/runs/bufbench-x-lazy-4k-tas-mit_none-c21-r1.json"
# Mitigation cells: a prefault cell with no faulting hold and twice the
# tps, a hugepages cell on 2 MB; neither may reach the inputs.
jq '.config.mitigation = "prefault" | (.evidence.phases[] | select(.name == "fill") | .holds_with_fault) = 0 |
	(.results.phases[] | select(.name == "fill") | .tps) *= 2' \
	"$src/bufbench-6.12-none-4k-tas-c21-r2.json" > "$run/runs/bufbench-6.12-none-4k-tas-mit_prefault-c21-r1.json"
jq '.config.mitigation = "hugepages" | .provenance.page_policy = "2m"' \
	"$src/bufbench-6.12-none-4k-tas-c21-r3.json" > "$run/runs/bufbench-6.12-none-2m-tas-mit_hugepages-c21-r1.json"
cp tests/data/run-costbench/logs/costbench-7.0-full.json "$run/logs/"

build/model "$run" > "$tmp/out" 2>&1
cat "$tmp/out"
in=$run/model-inputs-4k-c21.json
check "mitigations run: one inputs file, for 4k (no 2m file from the hugepages cell)" \
	sh -c "[ -s '$in' ] && [ ! -e '$run/model-inputs-2m-c21.json' ]"
check "make model says it left the 2 mitigation cells out" grep -q '^model: 2 documents of a mitigation other than none left out' "$tmp/out"
sums=$(jq -s '[.[] | select(.config.mitigation == "none") | .evidence.phases[] | select(.name == "fill")] |
	[(map(.holds_with_fault) | add), (map(.holds) | add)]' "$run"/runs/*.json)
# shellcheck disable=SC2016 # jq variables
check "p_f pools the unmitigated cells only ($(echo "$sums" | tr -d ' \n'))" \
	jq -e --argjson s "$sums" '(.p_f.value - $s[0] / $s[1]) | fabs < 1e-6' "$in"
for m in none voluntary full lazy; do
	q=$(jq -s --arg m "$m" '[.[] | select(.config.mitigation == "none" and .provenance.preempt_model == $m) |
		.evidence.phases[] | select(.name == "fill") | .q_m] | [(map(.k) | add), (map(.n) | add)]' "$run"/runs/*.json)
	# shellcheck disable=SC2016 # jq variables
	check "q.$m pools $m's unmitigated runs: k and n $(echo "$q" | tr -d ' \n')" \
		jq -e --arg m "$m" --argjson q "$q" '.q[$m].k == $q[0] and .q[$m].n == $q[1]' "$in"
done
check "none's fill tps from its 3 unmitigated runs (not the prefault cell's)" \
	jq -e '.measured_fill_tps.none.runs == 3' "$in"
check "fault costs from the run's costbench log (4k and 2m, alloc and map)" \
	jq -e '.fault_costs_us["4k"].alloc > 100 and .fault_costs_us["2m"].map > 10 and
		(.fault_costs_us.source | test("costbench"))' "$in"
build/predict --inputs "$in" --cpus 2 --clients 21 --extrapolate --pages 2m --model lazy > "$tmp/pred"
cat "$tmp/pred"
check "predict: a 2 MB prediction from these 4 KB inputs moves X0 by the faults' own cost" \
	sh -c "grep -q '^  X0 [0-9]* -> [0-9]* tps  (4k -> 2m' '$tmp/pred' &&
		grep -q '^closed lazy     /none ' '$tmp/pred'"
tests_done
