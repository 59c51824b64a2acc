#!/bin/sh
# make attach on the fixture run: the archive holds what it promises
# (report.txt, SVGs, raw JSON, manifest with sizes and hashes that match,
# a runnable reproduce.sh), stays under ATTACH_MAX_KB, drops optional flame
# graphs to fit a smaller budget, and refuses a budget nothing fits.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run attach_fixture run-fixture report stackfold flamegraph
mkdir -p "$run/perf"
for r in 1 2 3; do
	cp "$top/tests/data/perf-script-bufbench.folded" "$run/perf/bufbench-6.12-none-4k-tas-c4-r$r.folded"
	cp "$top/tests/data/perf-script-bufbench.folded" "$run/perf/bufbench-7.0-lazy-4k-tas-c4-r$r.folded"
done
mkdir -p "$run/logs"
cp "$top/tests/data/run-host/logs/bufmicro.json" "$run/logs/"
echo "1g: skipped: cannot reserve" > "$run/logs/skipped.txt"
echo "bulky console output" > "$run/logs/console-7.0-boot1.log"

check "attach.sh succeeds" sh -c "sh '$top/scripts/attach.sh' '$run' > '$tmp/out' 2>&1"
a=$run/attachment.tar.gz
check "attachment.tar.gz written" test -s "$a"
size=$(wc -c < "$a")
check "attachment under 1 MiB ($size bytes)" test "$size" -lt 1048576
mkdir "$tmp/x"
tar -C "$tmp/x" -xzf "$a"
x=$tmp/x/preemptlab-run
for f in report.txt report.md manifest.json reproduce.sh repro-min.c tps-bufbench.svg hold-bufbench.svg flame-diff-C4-C6.svg bench-manifest.json; do
	check "attachment holds $f" test -s "$x/$f"
done
check "attachment holds the bufmicro costs and the skip list" test -s "$x/logs/bufmicro.json" -a -s "$x/logs/skipped.txt"
check "attachment leaves bulky console logs out" test ! -e "$x/logs/console-7.0-boot1.log"
check "report in the attachment quotes bufmicro" grep -q '^Uncontended ns: buffer hit' "$x/report.txt"
check "attachment holds every raw JSON" test "$(find "$x/runs" -name "*.json" | wc -l)" -eq "$(find "$run/runs" -name "*.json" | wc -l)"
check "manifest.json is JSON" sh -c "jq -e .schema '$x/manifest.json' >/dev/null"
bad=0
for f in $(jq -r '.files[].name' "$x/manifest.json"); do
	want=$(jq -r --arg f "$f" '.files[] | select(.name == $f) | .sha256' "$x/manifest.json")
	[ "$(sha256sum "$x/$f" | cut -d' ' -f1)" = "$want" ] || bad=$((bad + 1))
done
check "manifest sizes/hashes match the files ($bad mismatches)" test "$bad" -eq 0
check "manifest lists every file but itself" test "$(jq '.files | length' "$x/manifest.json")" -eq "$(find "$x" -type f ! -name manifest.json | wc -l)"
check "manifest carries command lines" test "$(jq '.command_lines | length' "$x/manifest.json")" -ge 2
check "manifest carries kernel versions" sh -c "jq -e '.kernels | map(.release) | index(\"7.0.13+deb13-amd64\")' '$x/manifest.json' >/dev/null"
check "reproduce.sh is valid sh" sh -n "$x/reproduce.sh"
# Rebuilt from checked pairs in the vocabulary's order (issue 28, S1), not copied.
check "reproduce.sh runs the recorded make line" grep -qx 'make bench KERNEL=6.12,7.0 HUGEPAGES=compare MODELS=none,full,lazy CLIENTS=2,4 DURATION=10 REPEAT=3 PGBENCH=on PAGES=4k,2m' "$x/reproduce.sh"
check "reproduce.sh refuses to run outside a checkout" sh -c "cd '$tmp' && ! sh '$x/reproduce.sh' '$tmp' 2>/dev/null"

# A budget that forces the flame graphs out.
nofl=$(cd "$tmp/x" && tar -czf - --exclude='flame-*' preemptlab-run | wc -c)
budget=$(( (nofl + 4096) / 1024 + 1 ))
check "attach under ATTACH_MAX_KB=$budget" sh -c "ATTACH_MAX_KB=$budget sh '$top/scripts/attach.sh' '$run' > '$tmp/out' 2>&1"
check "it says what it dropped" grep -q 'dropping flame-' "$tmp/out"
check "now under $budget KiB" test "$(wc -c < "$a")" -lt $((budget * 1024))
check "dropped files are listed in the manifest" sh -c "tar -xzOf '$a' preemptlab-run/manifest.json | jq -e '.dropped_to_fit | length > 0' >/dev/null"
if ATTACH_MAX_KB=4 sh "$top/scripts/attach.sh" "$run" > "$tmp/out" 2>&1; then
	fail "a 4 KiB budget was accepted"
else
	check "an impossible budget names ATTACH_MAX_KB" grep -q 'raise the limit (ATTACH_MAX_KB=' "$tmp/out"
fi
tests_done
