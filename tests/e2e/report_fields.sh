#!/bin/sh
# Every field the report reads (each dotted path in lab/report/*.c) is
# documented in docs/json.md and written by a tool of the lab: present in a
# document bufbench, bufmicro or pgsample produced, or, for a field that
# only some runs have (an error, rseq grants), named by the writer's code.
# A renamed field then fails here instead of silently emptying a column.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
for b in bufbench bufmicro; do
	[ -x "$top/build/$b" ] || { fail "report_fields: build/$b missing (make first)"; exit 1; }
done
command -v jq >/dev/null || { skip "report_fields: no jq"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Fresh documents from the writers themselves; pgsample's need a server,
# so the checked-in ones it wrote stand in (tests/data/README.md).
"$top/build/bufbench" --clients 2 --duration 0.3 --pool 8M --relation 32M --json "$tmp/bb.json" 2>/dev/null
"$top/build/bufbench" --clients 2 --duration 0.3 --pool 8M --relation 32M --hold-events \
	--json "$tmp/bbh.json" 2>/dev/null || true
"$top/build/bufmicro" > "$tmp/micro.json" 2>/dev/null
docs="$tmp/bb.json $tmp/micro.json $(find "$top/tests/data/run-host/runs" -name 'pgbench-*.json' | head -n 1)"
[ -s "$tmp/bbh.json" ] && docs="$docs $tmp/bbh.json"
writers() { grep -rqF "\"$1\"" "$top/lab/bufbench" "$top/lab/bufmicro" "$top/lab/pgsample" "$top/lab/common" "$top/buffer_pool"; }

paths=$(grep -ohE '"(config|provenance|results|locks|sampler)(\.[a-z_0-9]+)+"' "$top"/lab/report/*.c |
	tr -d '"' | grep -v '\.h$' | sort -u)
[ -n "$paths" ] || { fail "report_fields: no field paths found in lab/report (has the code moved?)"; exit 1; }
for p in $paths; do
	key=${p##*.}
	# The schema names a field as `key` in tables or "key" in its outlines.
	if grep -q -e "\`$key\`" -e "\"$key\"" "$top/docs/json.md"; then doc=1; else doc=0; fi
	found=""
	for d in $docs; do
		if jq -e --arg p "$p" 'getpath($p | split(".")) != null' "$d" > /dev/null 2>&1; then
			found="in ${d##*/}"; break
		fi
	done
	[ -n "$found" ] || { writers "$key" && found="named by the writer's code"; }
	if [ "$doc" = 1 ] && [ -n "$found" ]; then
		pass "report_fields: $p is documented and written ($found)"
	else
		fail "report_fields: $p: $([ "$doc" = 1 ] || echo "not documented in docs/json.md; ")$([ -n "$found" ] || echo "written by no tool")"
	fi
done
tests_done
