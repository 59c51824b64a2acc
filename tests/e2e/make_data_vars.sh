#!/bin/sh
# Paths given to make's report and fleet targets are data (issue 28, S2):
# RUN, RUNS, OUT, DIFF and INVENTORY were pasted into recipe text, so a
# $(shell ...) in one ran through make's expansion and a quote and ; through
# the recipe's shell.  Each of the issue's shortest forms must run nothing
# (no PWNED file) and be refused by the script as a path that is not there;
# a fleet inventory whose host name carries $(shell ...) is refused before
# any host is touched, and make fleet runs without OUT= and FLEET_RESULTS=
# (D2: it failed in a mv).
# shellcheck disable=SC2016 # the payloads are literal on purpose
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fixture_run make_data_vars run-fixture report stackfold flamegraph compare
P=$tmp/PWNED

# hostile NAME MAKE-ARGS...: make -C top with the arguments; nothing of the
# payload may run, and make must fail (the value names nothing).
hostile() {
	h=$1
	shift
	rm -f "$P"*
	rc=0
	make -s -C "$top" "$@" > "$tmp/$h.out" 2>&1 || rc=$?
	check "$h: no command of the payload ran (no PWNED file)" test -z "$(find "$tmp" -name 'PWNED*')"
	check "$h: refused (rc $rc)" test "$rc" -ne 0
}
hostile report-run report RUN="A; touch $P-1"
check "report-run: named as no results directory" grep -q 'A; touch .* is not a results directory' "$tmp/report-run.out"
hostile attach-run attach RUN="A\$(shell touch $P-2)"
check "attach-run: the value reached the script whole" grep -qF "A\$(shell touch $P-2) is not a results directory" "$tmp/attach-run.out"
hostile compare-runs compare RUNS="$run $run\$(shell touch $P-3)"
check "compare-runs: the second directory is named, unexpanded" grep -qF "RUNS: $run\$(shell" "$tmp/compare-runs.out"
hostile compare-out compare RUNS="$run $tmp/none" OUT="x'; touch $P-4; '"
hostile flamegraph-diff flamegraph RUN="$run" DIFF="a'; touch $P-5; '"
check "flamegraph-diff: DIFF is refused for its characters" grep -q "DIFF has a character no cell name has" "$tmp/flamegraph-diff.out"
hostile fleet-inventory fleet INVENTORY="x'; touch $P-6; '"
check "fleet-inventory: named as no such file" grep -qF "INVENTORY=x'; touch $P-6; ': no such file" "$tmp/fleet-inventory.out"
hostile report-newline report RUN="$(printf 'A\nB')"
check "report-newline: a control character in RUN is refused" grep -q 'RUN holds a control character' "$tmp/report-newline.out"

# The same names that are plain still work: compare of two copies of a run.
cp -r "$run" "$tmp/second"
rc=0
make -s -C "$top" compare RUNS="$run $tmp/second" OUT="$tmp/cmp" > "$tmp/cmp.out" 2>&1 || rc=$?
check "plain RUNS and OUT: compare wrote its report (rc $rc)" test -s "$tmp/cmp/report.txt"

# The fleet: two local hosts, one with a hostile name, and neither OUT nor
# FLEET_RESULTS.  The playbook stops at its first task.
if ! command -v ansible-playbook > /dev/null; then
	skip "fleet host names: no ansible-playbook (apt-get install ansible)"
else
	cat > "$tmp/inventory.yml" <<INV
all:
  vars:
    ansible_connection: local
    ansible_python_interpreter: /usr/bin/python3
  hosts:
    good-a: {}
    'evil\$(shell touch $P-7)': {}
INV
	rm -f "$P"*
	rc=0
	env -u OUT -u FLEET_RESULTS ANSIBLE_LOCAL_TEMP="$tmp/ansible-local" ANSIBLE_NOCOLOR=1 \
		make -s -C "$top" fleet INVENTORY="$tmp/inventory.yml" > "$tmp/fleet.out" 2>&1 || rc=$?
	check "fleet: no command of the host name ran (no PWNED file)" test -z "$(find "$tmp" "$top" -maxdepth 1 -name 'PWNED*')"
	check "fleet: the inventory is refused (rc $rc)" test "$rc" -ne 0
	check "fleet: the playbook names the host" grep -qF "evil\$(shell touch $P-7)" "$tmp/fleet.out"
	check "fleet: before any bench task ran" sh -c "! grep -q 'TASK \[The bundle on the host\]' '$tmp/fleet.out'"
	check "fleet: without OUT= and FLEET_RESULTS= the playbook starts (D2: mv failed)" \
		sh -c "grep -q 'Host names and the baseline are plain names' '$tmp/fleet.out' && ! grep -q 'cannot stat' '$tmp/fleet.out'"
	# Plain names pass the check; no host is benched (fleet_hosts matches none).
	sed -i '/evil/d; s/good-a: {}/good-a: {}\n    good.b_2: {}/' "$tmp/inventory.yml"
	rc=0
	ANSIBLE_LOCAL_TEMP="$tmp/ansible-local" ANSIBLE_NOCOLOR=1 ansible-playbook -i "$tmp/inventory.yml" \
		-e fleet_hosts=none_such -e allow_dirty=true "$top/fleet/playbook.yml" > "$tmp/fleet-ok.out" 2>&1 || rc=$?
	check "fleet: plain host names pass the playbook (rc $rc)" test "$rc" = 0
	# A fleet stopped by SIGTERM (its process group, as a terminal's Ctrl-C
	# reaches it) leaves no bundle in the temporary directory.
	mkdir -p "$tmp/t"
	TMPDIR=$tmp/t ANSIBLE_LOCAL_TEMP="$tmp/ansible-local" ANSIBLE_NOCOLOR=1 \
		ANSIBLE_ARGS="-e fleet_hosts=none_such -e allow_dirty=true" \
		setsid make -s -C "$top" fleet INVENTORY="$tmp/inventory.yml" > "$tmp/fleet-kill.out" 2>&1 &
	g=$!
	i=0
	until grep -q 'TASK \[The controller' "$tmp/fleet-kill.out" || [ $i -ge 120 ]; do sleep 0.5; i=$((i + 1)); done
	kill -TERM "-$g" 2>/dev/null || true
	wait "$g" 2>/dev/null || true
	sleep 1
	check "fleet: the bundle was made before the SIGTERM" grep -q 'TASK \[The controller' "$tmp/fleet-kill.out"
	check "fleet: a fleet stopped by SIGTERM leaves no bundle behind" \
		test -z "$(find "$tmp/t" -name 'preemptlab-fleet.*' -o -name '*.bundle' 2>/dev/null)"
fi
tests_done
