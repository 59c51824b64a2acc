#!/bin/sh
# make fleet INVENTORY=FILE [make bench variables] [OUT=DIR]: the same bench
# on every host of an Ansible inventory (fleet/playbook.yml), the runs
# fetched into results/HOST-RUN/ and compared (make compare).
# Environment: INVENTORY, FLEET_VARS (the names of the make bench
# variables given on make's command line; make sets it), OUT (the compare
# report's directory), FLEET_RESULTS (where runs land; default results/),
# ANSIBLE_ARGS (more ansible-playbook arguments, e.g. --limit).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
top=$(lab_top)
data_var INVENTORY
data_var OUT
data_var FLEET_RESULTS
[ -n "${INVENTORY:-}" ] || die "INVENTORY is empty: make fleet INVENTORY=fleet/inventory.yml (from fleet/inventory.example)"
[ -f "$INVENTORY" ] || die "INVENTORY=$INVENTORY: no such file (copy fleet/inventory.example)"
command -v ansible-playbook >/dev/null ||
	die "no ansible-playbook: apt-get install ansible (or ./configure --install-deps --with-fleet)"
[ -x "$top/build/jobj" ] || die "no $top/build/jobj (the writer of the playbook's variables): make build-all"
work=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$work"'
# The variables given to make, as the playbook's fleet_vars; the bundle
# and the fetched archives go under this script's work directory.  One
# KEY=VALUE argument each, written as JSON by build/jobj.
set -- "fleet_tmp=$work"
for v in ${FLEET_VARS:-}; do
	set -- "$@" "fleet_vars.$v=$(printenv "$v" || true)"
done
[ -z "${OUT:-}" ] || set -- "$@" "fleet_compare_out=$OUT"
[ -z "${FLEET_RESULTS:-}" ] || set -- "$@" "fleet_results=$FLEET_RESULTS"
"$top/build/jobj" "$@" > "$work/vars.json"
set -f
# shellcheck disable=SC2086 # ANSIBLE_ARGS are several words
ansible-playbook -i "$INVENTORY" -e "@$work/vars.json" ${ANSIBLE_ARGS:-} "$top/fleet/playbook.yml"
