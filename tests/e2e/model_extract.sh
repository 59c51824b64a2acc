#!/bin/sh
# make model RUN= (lab/model/extract.c, docs/scale.md) on real runs: the
# inputs file it writes, with p_f and q summed from the documents by jq;
# the refusal of a run with an instrument inside the hold (exit 3);
# build/predict --extrapolate on the result; and scripts/model-validate.sh,
# which writes predictions only into a run not yet measured and compares
# them afterwards.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
cd "$top"
[ -x build/model ] || { fail "build/model missing (make build-all first)"; exit 1; }
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
# The fixture is copied: make model writes into the run directory.
cp -r tests/data/run-model "$tmp/run"

make -s model RUN="$tmp/run" > "$tmp/out" 2>&1
cat "$tmp/out"
in=$tmp/run/model-inputs-4k-c21.json
check "make model writes model-inputs-4k-c21.json" test -s "$in"
pf=$(jq -s '[.[] | .evidence.phases[] | select(.name == "fill")] |
	((map(.holds_with_fault) | add) / (map(.holds) | add))' "$tmp"/run/runs/*.json)
# shellcheck disable=SC2016 # jq variables
check "p_f is the fill holds that faulted over all fill holds ($pf)" \
	jq -e --argjson pf "$pf" '(.p_f.value - $pf) | fabs < 1e-6' "$in"
qn=$(jq -s '[.[] | select(.provenance.preempt_model == "none") | .evidence.phases[] |
	select(.name == "fill") | .q_m] | [(map(.k) | add), (map(.n) | add)]' "$tmp"/run/runs/*.json)
# shellcheck disable=SC2016 # jq variables
check "q.none pools none's q_m: k and n $(echo "$qn" | tr -d ' \n')" \
	jq -e --argjson q "$qn" '.q.none.k == $q[0] and .q.none.n == $q[1]' "$in"
check "none's and full's measured fill tps, 3 runs each" \
	jq -e '.measured_fill_tps.none.runs == 3 and .measured_fill_tps.full.runs == 3' "$in"

# CONTROLS: a bare twin (NAME-ctl.json, no evidence) times its run; the
# instrumented run keeps only its counts.  Every none run gets a twin with
# twice its fill tps: none's measured tps doubles, its q stays.
cp -r tests/data/run-model "$tmp/twin"
for f in "$tmp"/twin/runs/*.json; do
	[ "$(jq -r .provenance.preempt_model "$f")" = none ] || continue
	jq 'del(.evidence) | .results.phases |= map(if .name == "fill" then .tps *= 2 else . end)' "$f" > "${f%.json}-ctl.json"
done
make -s model RUN="$tmp/twin" > "$tmp/out.twin" 2>&1
check "make model says which runs its twins timed" grep -q 'runs timed by their bare twin' "$tmp/out.twin"
# shellcheck disable=SC2016 # jq variables
check "none's fill tps comes from the twins (twice the instrumented runs'), its q does not" \
	jq -e --slurpfile a "$in" '(.measured_fill_tps.none.value / $a[0].measured_fill_tps.none.value - 2 | fabs < 1e-3)
		and .q.none.k == $a[0].q.none.k and .measured_fill_tps.full.value == $a[0].measured_fill_tps.full.value' \
	"$tmp/twin/model-inputs-4k-c21.json"

rc=0
make -s model > "$tmp/out" 2>&1 || rc=$?
check "make model without RUN says what it needs" sh -c "[ $rc -ne 0 ] && grep -q 'give RUN=' '$tmp/out'"

cp -r tests/data/run-model-inhold "$tmp/inhold"
rc=0
build/model "$tmp/inhold" > "$tmp/out" 2> "$tmp/err" || rc=$?
cat "$tmp/err"
check "a run with an in-hold instrument is refused (exit 3), naming the document and why" \
	sh -c "[ $rc -eq 3 ] && grep -q 'bufbench-host-unknown-4k-tas-c4-r1.json: config.in_hold_syscalls' '$tmp/err' &&
		[ -z \"\$(ls '$tmp/inhold' | grep model-inputs)\" ]"

# A document's page policy names the output file: it must not choose a path.
mkdir -p "$tmp/hostile/runs"
jq '.provenance.page_policy = "../../escaped"' tests/data/run-model/runs/bufbench-6.12-none-4k-tas-c21-r1.json \
	> "$tmp/hostile/runs/a.json"
rc=0
build/model "$tmp/hostile" > /dev/null 2> "$tmp/err" || rc=$?
check "a page policy that is not a page size name writes no file (exit $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'not a page size name' '$tmp/err' && [ ! -e '$tmp/escaped-c21.json' ] &&
		[ -z \"\$(find '$tmp' -name '*escaped*')\" ]"

build/predict --inputs "$in" --cpus 96 --clients 1024 --extrapolate --pool-pages 15728640 \
	--fault-around-pages 16 --model full > "$tmp/pred"
cat "$tmp/pred"
check "predict --extrapolate: p_f from the fault window (1024 descriptors) and a full/none ratio" \
	sh -c "grep -q 'window 960 -> 1024 descriptors' '$tmp/pred' &&
		grep -q '^closed full     /none [01]\.[0-9]*x  95% interval' '$tmp/pred'"

rc=0
scripts/model-validate.sh predict "$in" "$tmp/run" full 4k:21 > /dev/null 2> "$tmp/err" || rc=$?
check "predictions are refused for a run already measured" \
	sh -c "[ $rc -ne 0 ] && grep -q 'must come before' '$tmp/err'"
scripts/model-validate.sh predict "$in" "$tmp/next" full 4k:21 2m:21 > /dev/null
check "predictions are written with their time, commit and inputs' checksum" \
	sh -c "grep -q '^# written 20' '$tmp/next/predictions.tsv' &&
		grep -q 'sha256 [0-9a-f]\{64\}' '$tmp/next/predictions.tsv' &&
		[ \$(grep -c '^4k	21	full	1\.0' '$tmp/next/predictions.tsv') -eq 1 ]"
# The row is build/predict --tsv's numbers, found by column name (issue 38).
cpus_in=$(build/jget cpus "$in")
build/predict --tsv --inputs "$in" --cpus "$cpus_in" --clients 21 --extrapolate --pages 2m --model full > "$tmp/tsv"
want=$(awk -F '\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["pages"], $c["clients"], $c["model"], $c["ratio"], $c["lo"], $c["hi"], $c["p_f"], $c["t_us"], $c["cpus"] }' "$tmp/tsv")
check "predictions.tsv's row is build/predict --tsv's columns by name (2m 21 full)" \
	sh -c "grep -qxF '$want' '$tmp/next/predictions.tsv'"
# The row is written by build/predict itself (--predictions), from the
# numbers --tsv prints (PRED_NUMS); a malformed cell stops it before a
# predictions file is begun.
rc=0
scripts/model-validate.sh predict "$in" "$tmp/cellsyntax" full 4k:21 4k > /dev/null 2> "$tmp/err" || rc=$?
check "a cell not PAGES:CLIENTS[:CPUS] is refused, naming it, before predictions.tsv is begun" \
	sh -c "[ $rc -ne 0 ] && grep -q '4k: not PAGES:CLIENTS\[:CPUS\]' '$tmp/err' && [ ! -e '$tmp/cellsyntax/predictions.tsv' ]"
scripts/model-validate.sh predict --fault-around-pages 1 --base-slice-us 8000 "$in" "$tmp/knobs" full 4k:21 > /dev/null
check "predictions for a run with FAULT_AROUND_BYTES and BASE_SLICE_US name both and move p_f and T" \
	sh -c "grep -q -- '--fault-around-pages 1 --base-slice-us 8000' '$tmp/knobs/predictions.tsv' &&
		[ \"\$(grep '^4k	21	full' '$tmp/knobs/predictions.tsv' | cut -f7,8)\" != \"\$(grep '^4k	21	full' '$tmp/next/predictions.tsv' | cut -f7,8)\" ]"
rc=0
scripts/model-validate.sh predict --base-slice-us 50 "$in" "$tmp/bad" full 4k:21 > /dev/null 2> "$tmp/err" || rc=$?
check "a base slice build/predict would refuse is refused before a predictions file is written" \
	sh -c "[ $rc -ne 0 ] && grep -q 'expected microseconds, 100 to 100000' '$tmp/err' && [ ! -e '$tmp/bad/predictions.tsv' ]"
rc=0
scripts/model-validate.sh predict "$in" "$tmp/badcell" full 4k:21 9m:21 > /dev/null 2> "$tmp/err" || rc=$?
check "a cell build/predict refuses stops predict with both reasons, and no empty row is written" \
	sh -c "[ $rc -ne 0 ] && grep -q 'no fault window known' '$tmp/err' && grep -q 'refused cell 9m:21' '$tmp/err' &&
		grep -q '^4k	21	full' '$tmp/badcell/predictions.tsv' && ! grep -q '^9m' '$tmp/badcell/predictions.tsv'"
cp -r "$tmp/run/runs" "$tmp/next/"
scripts/model-validate.sh compare "$tmp/next" > "$tmp/cmp"
cat "$tmp/cmp"
check "compare: the measured 4k cell judged, the unmeasured 2m cell said to be missing" \
	sh -c "grep -q '^4k       2      21 full .* \(hit\|miss\) ' '$tmp/cmp' &&
		grep -q '^2m       2      21 full .*ratio not measured' '$tmp/cmp' &&
		grep -q 'of 1 cells' '$tmp/cmp'"

# The issue's validation grid from calibrated inputs: predictions for both
# vCPU counts written first, with the commands that measure them.
scripts/model-validate.sh grid "$in" "$tmp/grid" 7.2-lab > "$tmp/gridout"
cat "$tmp/gridout" "$tmp/grid-v1/bench-command.txt"
for v in 1 2; do
	check "grid, $v vCPU: 8 predicted cells (4k and 2m x 8 21 64 256 clients) for full, timestamped" \
		sh -c "[ \$(grep -c '^\(4k\|2m\)	\(8\|21\|64\|256\)	full	[01]\.[0-9]*	.*	$v\$' '$tmp/grid-v$v/predictions.tsv') -eq 8 ] &&
			grep -q '^# written 20' '$tmp/grid-v$v/predictions.tsv'"
	check "grid, $v vCPU: the make bench command for its cells, with the calibration's pool" \
		sh -c "grep -q 'KERNEL=7.2-lab VCPUS=$v MODELS=none,full PAGES=4k,2m CLIENTS=8,21,64,256' '$tmp/grid-v$v/bench-command.txt' &&
			grep -q 'POOL=64M RELATION=68M' '$tmp/grid-v$v/bench-command.txt' &&
			grep -q 'EVIDENCE=on .*scripts/bench.sh $tmp/grid-v$v\$' '$tmp/grid-v$v/bench-command.txt'"
done
# The grid is the planner's (tests/e2e/plan.sh checks the planned grid
# itself): the script predicts its cells in its order and writes its command.
build/plan --validation-grid "$in" 7.2-lab > "$tmp/grid.tsv"
# by_name FILE COL... [where COL VALUE]: columns by their header's names.
by_name() {
	awk -F '\t' -v OFS=: -v w="$2" -v k="${3:-}" -v kv="${4:-}" '/^#/ { next }
		!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		k == "" || $c[k] == kv { n = split(w, ws, ","); s = $c[ws[1]]
			for (j = 2; j <= n; j++) s = s OFS $c[ws[j]]; print s }' "$1"
}
for v in 1 2; do
	check "grid, $v vCPU: the cells predicted are build/plan --validation-grid's run v$v, in its order" \
		[ "$(by_name "$tmp/grid-v$v/predictions.tsv" pages,clients,cpus)" = "$(by_name "$tmp/grid.tsv" cell run "v$v")" ]
	check "grid, $v vCPU: bench-command.txt measures with the planner's make bench variables" \
		grep -qxF "$(by_name "$tmp/grid.tsv" bench run "v$v" | sed -n 1p) scripts/bench.sh $tmp/grid-v$v" "$tmp/grid-v$v/bench-command.txt"
done
# build/predict reads the planner's table by column name: the same table
# with its columns reversed gives the same predictions; one without the
# cell column is refused, naming it, and writes nothing.
awk -F '\t' -v OFS='\t' '{ for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? OFS : "\n") }' "$tmp/grid.tsv" |
	build/predict --predictions-grid --lab-revision test "$in" "$tmp/rgrid" > /dev/null
check "--predictions-grid reads build/plan's table by column name: columns reversed, the same rows" \
	sh -c "[ \"\$(grep -v '^#' '$tmp/rgrid-v2/predictions.tsv')\" = \"\$(grep -v '^#' '$tmp/grid-v2/predictions.tsv')\" ]"
rc=0
cut -f1-4,6- "$tmp/grid.tsv" | build/predict --predictions-grid --lab-revision test "$in" "$tmp/ngrid" > /dev/null 2> "$tmp/err" || rc=$?
check "a grid table without the cell column is refused, naming it, and nothing is written" \
	sh -c "[ $rc -ne 0 ] && grep -q 'no column cell' '$tmp/err' && [ ! -e '$tmp/ngrid-v1' ]"
cp -r "$tmp/run/runs" "$tmp/grid-v2/"
cp "$tmp/grid-v1/predictions.tsv" "$tmp/v1-before"
rc=0
scripts/model-validate.sh grid "$in" "$tmp/grid" 7.2-lab > /dev/null 2> "$tmp/err" || rc=$?
check "grid refuses to predict again once one of its runs is measured, and rewrites neither" \
	sh -c "[ $rc -ne 0 ] && grep -q 'must come before' '$tmp/err' && cmp -s '$tmp/v1-before' '$tmp/grid-v1/predictions.tsv'"
scripts/model-validate.sh compare "$tmp/grid-v1" "$tmp/grid-v2" > "$tmp/cmp"
cat "$tmp/cmp"
check "compare over both: the measured 2-vCPU cell judged with its tolerance, the 1-vCPU cells missing" \
	sh -c "grep -q '^4k       2      21 full .* \(hit\|miss\) ' '$tmp/cmp' &&
		grep -q '^4k       1      21 full .*ratio not measured' '$tmp/cmp' &&
		[ \$(grep -c 'of 1 cells' '$tmp/cmp') -eq 1 ]"
check "compare: each run's skill against the null 1.000x, then every run's cells pooled" \
	sh -c "grep -q '^skill against the null 1\.000x (these cells): .* over 1 cells' '$tmp/cmp' &&
		grep -A1 '^== all' '$tmp/cmp' | grep -q '^skill against the null 1\.000x (all pooled): .* over 1 cells'"

# The lock-capacity grid (issue 36) on the committed hot-lock calibration:
# the planner's cells predicted, one command a planned run, none twice.
cal=docs/model/hot-lock/calibration-7.0-lazy.json
scripts/model-validate.sh capacity "$cal" 1.6 "$tmp/cap" > /dev/null
build/plan --capacity-grid > "$tmp/capgrid.tsv"
check "capacity: a predicted row for each cell of build/plan --capacity-grid, in its order" \
	[ "$(by_name "$tmp/cap/capacity-predictions.tsv" fa_pages,shift)" = "$(by_name "$tmp/capgrid.tsv" cell)" ]
check "capacity: bench-command.txt runs each planned run into its directory, in the plan's order" \
	[ "$(grep '^KERNEL=' "$tmp/cap/bench-command.txt")" = "$(by_name "$tmp/capgrid.tsv" bench,run | sed "s|:| scripts/bench.sh $tmp/cap/|")" ]
mkdir -p "$tmp/cap/runs" && touch "$tmp/cap/runs/x.json"
rc=0
scripts/model-validate.sh capacity "$cal" 1.6 "$tmp/cap" > /dev/null 2> "$tmp/err" || rc=$?
check "capacity refuses a base that holds runs" sh -c "[ $rc -ne 0 ] && grep -q 'must come before' '$tmp/err'"
rc=0
scripts/model-validate.sh capacity "$in" 1.6 "$tmp/nocal" > /dev/null 2> "$tmp/err" || rc=$?
check "capacity: a document build/capacity cannot calibrate on is refused, naming why, and nothing is written" \
	sh -c "[ $rc -ne 0 ] && grep -q 'no fill phase with rho' '$tmp/err' && grep -q 'nothing written' '$tmp/err' &&
		[ ! -e '$tmp/nocal/capacity-predictions.tsv' ] && [ ! -e '$tmp/nocal/bench-command.txt' ]"

# The report's section "At the report's scale" from the run's own inputs.
build/report "$tmp/run" > /dev/null 2>&1
check "report.txt: 'At the report's scale' with this run's full/none measured, here and at 96/1024" \
	sh -c "grep -q \"^At the report's scale\" '$tmp/run/report.txt' &&
		grep -q '^4k       2      21 full/none      0\.9[0-9]*x \[.*\]  *1\.000x \[.*\]  *[01]\.[0-9]*x \[' '$tmp/run/report.txt'"
check "report.md: the same section as a table" \
	sh -c "grep -q \"^## At the report's scale\" '$tmp/run/report.md' &&
		grep -q '^| 4k | 2 | 21 | full/none | ' '$tmp/run/report.md'"
check "report.html: the same section, its row and the inputs' provenance (runs, kernel, lab)" \
	sh -c "grep -q \"^<h2>At the report's scale</h2>\" '$tmp/run/report.html' &&
		grep -q '^<tr><td>4k</td><td>2</td><td>21</td><td>full/none</td><td>0\.9[0-9]*x \[' '$tmp/run/report.html' &&
		grep -q '^<li>4k pages, 2 CPUs, 21 clients: make model RUN=.*6 runs (none 3, full 3); kernel 6\.12, tcg-icount, lab ' '$tmp/run/report.html'"
check "report.txt and report.md carry the same provenance" \
	sh -c "grep -q '^Inputs (provenance):' '$tmp/run/report.txt' &&
		grep -q '^- 4k pages, 2 CPUs, 21 clients: make model RUN=.*(none 3, full 3); kernel 6\.12' '$tmp/run/report.md'"
build/report "$tmp/inhold" > /dev/null 2>&1 || true
check "report.html of an in-hold run: the section says why the model refuses it" \
	sh -c "grep -A6 \"^<h2>At the report's scale</h2>\" '$tmp/inhold/report.html' | grep -q 'refuses.*in_hold_syscalls'"
check "a run with an in-hold instrument: the section says why the model refuses it" \
	sh -c "grep -A24 \"^At the report's scale\" '$tmp/inhold/report.txt' | grep -q 'in_hold_syscalls'"
tests_done
