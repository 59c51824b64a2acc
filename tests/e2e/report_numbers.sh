#!/bin/sh
# Numbers no tool of the lab writes (issue 15, defect 11): 1e300 as a page
# size printed as a negative one (-9223372036854775808 KB) and 1e308 as a
# rate made the charts' coordinates NaN.  Such documents are now refused
# by name, and the report is made from the others; a large but possible
# value (1e17) is still read, and draws.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_numbers run-fixture report

# edit NAME JQ: rewrite runs/NAME.json with jq.
edit() {
	jq "$2" "$run/runs/$1.json" > "$run/runs/$1.new"
	mv "$run/runs/$1.new" "$run/runs/$1.json"
}
edit bufbench-6.12-none-2m-tas-c2-r1 '.provenance.page_size_kb = 1e300'
edit bufbench-7.0-full-4k-tas-c2-r1 '.results.tps = 1e308'
edit bufbench-6.12-none-4k-tas-c2-r2 '.config.clients = 0.5'
edit bufbench-7.0-full-2m-tas-c4-r1 '.provenance.page_size_kb = -2048'
edit bufbench-7.0-lazy-4k-tas-c4-r1 '.results.tps = 1e17'
check "build/report exits 0" sh -c "'$top/build/report' '$run' > '$tmp/out' 2>&1"
check "1e300 as a page size is refused by name" grep -q 'skipping .*bufbench-6.12-none-2m-tas-c2-r1.json: a number beyond' "$tmp/out"
check "1e308 as a rate is refused by name" grep -q 'skipping .*bufbench-7.0-full-4k-tas-c2-r1.json: a number beyond' "$tmp/out"
check "half a client is refused" grep -q 'skipping .*bufbench-6.12-none-4k-tas-c2-r2.json: no config.clients in 1\.\.' "$tmp/out"
check "a negative page size is refused" grep -q 'skipping .*bufbench-7.0-full-2m-tas-c4-r1.json: no provenance.page_size_kb in 1\.\.' "$tmp/out"
check "1e17 is a number it reads" sh -c "! grep -q 'lazy-4k-tas-c4-r1' '$tmp/out'"
check "report.txt shows no negative page size" sh -c "! grep -qE -- '-[0-9]+ (KB|MB|GB)' '$run/report.txt'"
for s in "$run"/*.svg; do
	check "$(basename "$s") has no NaN or infinite coordinate" sh -c "! grep -qiE 'nan|inf' '$s'"
done
check "summary.txt still lists the cells" grep -q '^virtualization' "$run/summary.txt"
tests_done
