#!/bin/sh
# "The model's own cost" and its sentence in the Why section, on a real
# guest run (tests/data/run-costbench: 7.0 full and lazy under icount,
# EVIDENCE=on, COSTBENCH on, values as written).  Every expected number is
# computed here from the documents with jq and awk: the medians, the
# instructions (icount: ns / 2^3), the Hodges-Lehmann ratio, and the points
# of the fill loss the model's own cost explains.  Then without lazy's
# document, with a fault op that did not fault once per touch, and with no
# costbench at all, the report must say what it cannot say.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_costbench run-costbench report
txt=$run/report.txt
md=$run/report.md
check "build/report exits 0" sh -c "'$top/build/report' '$run' > '$tmp/out' 2>&1"
check "report.txt has The model's own cost" grep -q "^The model's own cost" "$txt"
check "report.md has The model's own cost" grep -q "^## The model's own cost" "$md"
check "report.txt: 7 ops x 2 models, each a row" test "$(grep -c '^7\.0  *[a-z_0-9]*  *\(full\|lazy\) ' "$txt")" = 14

full=$run/logs/costbench-7.0-full.json lazy=$run/logs/costbench-7.0-lazy.json
# The median over the (21) batches, as the table's ns.
med() { jq -r ".ops.$2.ns_batches | sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end" "$1"; }
# The Hodges-Lehmann ratio: the median of all pairwise log ratios, exp'd.
hl() {
	jq -n --slurpfile a "$1" --slurpfile b "$2" --arg op "$3" '
	  [$a[0].ops[$op].ns_batches[] as $x | $b[0].ops[$op].ns_batches[] as $y | ($y | log) - ($x | log)] | sort |
	  (if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end) | exp'
}
for op in fault_4k_map pread_4k getppid; do
	m=$(med "$full" $op)
	row=$(grep "^7\.0  *$op  *full " "$txt")
	want=$(awk -v m="$m" 'BEGIN { printf "%.0f %.0f", m, m / 8 }')
	check "$op under full: median $(echo "$want" | cut -d' ' -f1) ns, $(echo "$want" | cut -d' ' -f2) instructions (icount shift 3)" \
		sh -c "echo '$row' | awk '{ print \$4, \$6 }' | grep -qx '$want'"
	r=$(printf '%.3fx' "$(hl "$full" "$lazy" $op)")
	check "$op under lazy against full: $r, the Hodges-Lehmann ratio, with its interval" \
		sh -c "grep '^7\.0  *$op  *lazy ' '$txt' | grep -q '$r \[[0-9.]*, [0-9.]*\]'"
done
check "the reference model's rows carry no ratio" sh -c "grep '^7\.0  *fault_4k_map  *full ' '$txt' | grep -q ' -$'"
check "every document is named with its release and instruments" \
	grep -q "7.0/lazy: 7.0.13+deb13-amd64, logs/costbench-7.0-lazy.json (1 document)" "$txt"

# The points the model's own cost explains, computed from the documents.
fill() { jq -s "[.[] | .results.phases[] | select(.name == \"fill\") | $1] | add" "$run"/runs/bufbench-7.0-"$2"-4k-*.json; }
pts=$(awk -v f="$(fill .minor_faults lazy)" -v t="$(fill .transactions lazy)" -v mi="$(fill .misses lazy)" \
	-v sl="$(fill .strategy.sleeps lazy)" -v bt="$(fill .transactions full)" -v bd="$(fill .duration_s full)" \
	-v fm="$(med "$full" fault_4k_map)" -v sm="$(med "$full" pread_4k)" \
	-v rf="$(hl "$full" "$lazy" fault_4k_map)" -v rs="$(hl "$full" "$lazy" pread_4k)" \
	'BEGIN { per = 1e9 / (bt / bd); printf "%+.2f", 100 * (f / t * fm * (rf - 1) + (mi + sl) / t * sm * (rs - 1)) / per }')
sed -n '/^- C2 7.0\/lazy against C1 7.0\/full/,/^$/p' "$txt" | tr '\n' ' ' | tr -s ' ' > "$tmp/why"
check "Why: lazy's own cost per fault and system call is $pts points of full's fill time" \
	grep -q "the model's own cost (costbench, 7.0, no contention): .* that is $pts points \[" "$tmp/why"
check "Why: with the faults and system calls per fill transaction it used" \
	grep -q "at [0-9.]* faults and [0-9.]* system calls per fill transaction (lazy's runs)" "$tmp/why"
check "report.md's Why has the same sentence" grep -q "the model's own cost (costbench, 7.0, no contention).*that is $pts points" "$md"

# Without lazy's document: nothing is made up.
rm "$lazy"
"$top/build/report" "$run" > /dev/null 2>&1
check "without costbench-7.0-lazy.json: the sentence says it is not measured and how to measure it" \
	sh -c "sed -n '/^- C2 7.0\/lazy against/,/^\$/p' '$txt' | tr '\n' ' ' | tr -s ' ' | grep -q 'not measured (no logs/costbench-7.0-lazy.json: COSTBENCH=on)'"
check "without it: no lazy row in the table" sh -c "! grep -q '^7\.0  *[a-z_0-9]*  *lazy ' '$txt'"

# A fault op whose touches were not one fault each is left out.
jq '.ops.fault_4k_map.each_faulted = false | .ops.fault_4k_map.minflt_per_op = 0.5' \
	"$top/tests/data/run-costbench/logs/costbench-7.0-lazy.json" > "$lazy"
"$top/build/report" "$run" > /dev/null 2>&1
check "a fault op that did not fault once per touch is unavailable in the table" \
	grep -q '^7\.0  *fault_4k_map  *lazy  *unavailable' "$txt"
check "and the sentence does not use it" \
	sh -c "sed -n '/^- C2 7.0\/lazy against/,/^\$/p' '$txt' | tr '\n' ' ' | tr -s ' ' | grep -q 'not measured at this page size'"

rm -f "$run"/logs/costbench-*.json
"$top/build/report" "$run" > /dev/null 2>&1
check "no costbench documents: no section" sh -c "! grep -q \"The model's own cost\" '$txt'"
