#!/bin/sh
# build/report writes every output through a temporary file in the run
# directory and rename() (issue 15, defect 10): it followed a symlink
# planted at report.txt and overwrote the target.  Now links at every
# output name (symbolic or hard) are replaced, their targets untouched; a
# failed write says so, exits non-zero and leaves no temporary file.  The
# scripts around it do the same: the folded profiles, make flamegraph
# DIFF=...'s graph and make attach's archive.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run report_symlink run-fixture report stackfold flamegraph
mkdir -p "$run/perf" "$tmp/elsewhere"
for r in 1 2 3; do
	cp "$top/tests/data/perf-script-bufbench.folded" "$run/perf/bufbench-6.12-none-4k-tas-c4-r$r.folded"
	cp "$top/tests/data/perf-script-bufbench.folded" "$run/perf/bufbench-7.0-lazy-4k-tas-c4-r$r.folded"
done
outs="report.txt summary.txt tps-bufbench.svg hold-bufbench.svg flame-diff-C4-C6.svg"
for f in $outs; do
	echo "precious $f" > "$tmp/elsewhere/$f"
	ln -s "$tmp/elsewhere/$f" "$run/$f"
done
echo "precious report.md" > "$tmp/elsewhere/report.md"
ln "$tmp/elsewhere/report.md" "$run/report.md"

umask 022
check "build/report with links at its outputs" sh -c "'$top/build/report' '$run' > '$tmp/out' 2>&1"
for f in $outs report.md; do
	check "$f: the link's target is untouched" grep -qx "precious $f" "$tmp/elsewhere/$f"
	check "$f: is now the report's own regular file" sh -c "test -f '$run/$f' && test ! -L '$run/$f' && ! grep -q precious '$run/$f'"
done
check "report.txt holds the report" grep -q '^preemptlab report: run' "$run/report.txt"
check "outputs get the umask's mode, not mkstemp's 0600" test "$(stat -c %a "$run/report.txt")" = 644
check "no temporary file is left" test -z "$(find "$run" -maxdepth 1 -name '.*.??????')"

# A write that fails: report.txt is a directory, so rename() refuses.
rm "$run/report.txt"
mkdir "$run/report.txt"
if "$top/build/report" "$run" > "$tmp/out" 2>&1; then
	fail "a report.txt that cannot be replaced still exits 0"
else
	check "a failed write names the file" grep -q "cannot write $run/report.txt" "$tmp/out"
fi
check "and leaves no temporary file" test -z "$(find "$run" -maxdepth 1 -name '.*.??????')"
check "the other outputs are still written" grep -q '^virtualization' "$run/summary.txt"
rmdir "$run/report.txt"

# The scripts: a profile to fold with a link at its old fixed temporary
# name, and links at the DIFF graph and the archive.
stem=$run/perf/bufbench-7.0-full-4k-tas-c4-r1
cp "$top/tests/data/perf-script-bufbench.txt" "$stem.perf.txt"
diffsvg=$run/flame-diff-6.12_none-vs-7.0_lazy.svg
for l in "$stem.folded.tmp" "$diffsvg" "$run/attachment.tar.gz"; do
	echo "precious" > "$tmp/elsewhere/$(basename "$l")"
	ln -s "$tmp/elsewhere/$(basename "$l")" "$l"
done
check "make flamegraph DIFF=... with links in the way" \
	sh -c "DIFF=6.12/none,7.0/lazy sh '$top/scripts/flamegraph.sh' '$run' > '$tmp/out' 2>&1"
check "make attach with a link at attachment.tar.gz" sh -c "sh '$top/scripts/attach.sh' '$run' > '$tmp/out' 2>&1"
for l in "$stem.folded.tmp" "$diffsvg" "$run/attachment.tar.gz"; do
	check "$(basename "$l"): the link's target is untouched" grep -qx precious "$tmp/elsewhere/$(basename "$l")"
done
check "the profile was folded" test -s "$stem.folded" -a ! -L "$stem.folded"
check "the DIFF graph is a file of its own" sh -c "test ! -L '$diffsvg' && grep -q '<svg' '$diffsvg'"
check "the archive is a file of its own" sh -c "test ! -L '$run/attachment.tar.gz' && tar -tzf '$run/attachment.tar.gz' > /dev/null"
check "no temporary file is left by the scripts" \
	test -z "$(find "$run" "$run/perf" -maxdepth 1 -name '.*.??????')"
tests_done
