#!/bin/sh
# make report RUN=DIR [BASELINE=KERNEL/MODEL]: regenerate report.txt,
# report.md, the charts and the flame graphs of a results directory from
# its raw results (runs/*.json, perf/*), without rerunning anything.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/report-lib.sh
. "$here/report-lib.sh"
report_args "${1:-}" report
"$here/flamegraph-fold.sh" "$dir" >/dev/null
if [ -n "${BASELINE:-}" ] && [ "${BASELINE#*/}" != "$BASELINE" ]; then
	"$top/build/report" "$dir" --baseline "$BASELINE"
else
	"$top/build/report" "$dir"
fi
echo "$dir/report.txt"
