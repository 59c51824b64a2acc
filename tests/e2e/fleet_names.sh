#!/bin/sh
# The fleet's host-name check (fleet/playbook.yml, issue 35): Ansible's
# match test is Python's re.match, and a pattern ending in $ also matched
# "good\n" (a host name with a trailing newline passed).  The playbook's own
# assert, each of its expressions, evaluated with Jinja and Ansible's match
# (re.match) on plain and hostile names; without Ansible on the machine.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
python3 -c 'import yaml, jinja2' 2>/dev/null ||
	{ skip "fleet_names: no python3 yaml and jinja2 (apt-get install python3-yaml python3-jinja2)"; exit 0; }
python3 - "$top/fleet/playbook.yml" <<'PY'
import re, sys
import jinja2, yaml

play = yaml.safe_load(open(sys.argv[1]))
task = next(t for p in play for t in p.get("tasks", [])
            if t.get("name") == "Host names and the baseline are plain names")
that = task["ansible.builtin.assert"]["that"]
env = jinja2.Environment()
# ansible.builtin.match: re.match(pattern, value) (plugins/test/core.py).
env.tests["match"] = lambda v, p: re.match(p, v) is not None

def ok(hosts, baseline=None):
    ctx = {"groups": {"all": hosts}}
    if baseline is not None:
        ctx["fleet_baseline"] = baseline
    return all(env.from_string("{{ %s }}" % e).render(**ctx) == "True" for e in that)

cases = [
    ("plain names pass", ["good-a", "good.b_2", "h" * 63], None, True),
    ("a host name with a trailing newline is refused", ["good-a", "good\n"], None, False),
    ("a host name with a newline inside is refused", ["good\nbad"], None, False),
    ("a 64-character host name is refused", ["h" * 64], None, False),
    ("evil$(shell touch X) is refused", ["evil$(shell touch X)"], None, False),
    ("a plain fleet_baseline passes", ["good-a"], "good-a", True),
    ("a fleet_baseline with a trailing newline is refused", ["good-a"], "good-a\n", False),
]
failed = 0
for what, hosts, baseline, want in cases:
    got = ok(hosts, baseline)
    failed += got != want
    print("%s: fleet_names: %s" % ("PASS" if got == want else "FAIL", what))
sys.exit(1 if failed else 0)
PY
