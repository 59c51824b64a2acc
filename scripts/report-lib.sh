# shellcheck shell=sh
# Shared by report.sh, flamegraph.sh and attach.sh (sourced, not run).

# run_dir_arg [DIR]: the results directory to work on: DIR, else $RUN,
# else the newest results/*/ with runs in it.
run_dir_arg() {
	d=${1:-${RUN:-}}
	case $d in
	*[[:cntrl:]]*) die "RUN holds a control character (newline, tab, escape): give a plain path" ;;
	esac
	if [ -z "$d" ]; then
		# Directory names start with a UTC timestamp: the last sorts newest.
		d=""
		for x in "$(lab_top)"/results/*/runs; do
			[ -d "$x" ] && d=$(dirname "$x")
		done
		[ -n "$d" ] || die "no results yet: run make bench first, or give RUN=results/<dir>"
		note "no RUN= given; using the newest: $d"
	fi
	[ -d "$d/runs" ] || die "$d is not a results directory (no runs/); give RUN=results/<dir>"
	(cd "$d" && pwd)
}

# report_args [DIR] [TOOL]: the arguments every report script starts with:
# sets dir (run_dir_arg DIR) and top (the checkout), and with TOOL dies
# unless build/TOOL has been built.
report_args() {
	# shellcheck disable=SC2034 # dir is the caller's
	dir=$(run_dir_arg "${1:-}")
	top=$(lab_top)
	[ -z "${2:-}" ] || [ -x "$top/build/$2" ] || die "build/$2 is missing; run make first"
}

# perf_unusable: print why perf cannot record here, or nothing.
perf_unusable() {
	command -v "${PERF:-perf}" >/dev/null 2>&1 || { echo "perf is not installed (apt-get install linux-perf)"; return; }
	probe=$(mktemp)
	if ! out=$("${PERF:-perf}" record -q -g -o "$probe" -- true 2>&1); then
		echo "perf record fails here: $(echo "$out" | head -n 2 | tr '\n' ' ')(perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo '?'); as root or sysctl kernel.perf_event_paranoid=1)"
	fi
	rm -f "$probe"
}

