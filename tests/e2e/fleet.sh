#!/bin/sh
# The fleet, for real: two test hosts that this test makes itself, each a
# network namespace with its own sshd on its own address (198.18.14.0/29,
# the benchmarking range, reachable only from this machine) and its own
# host name, run fleet/playbook.yml through `make fleet`: the lab checked
# out at this revision on each, a tiny make bench, the runs fetched back as
# results/HOST-RUN/ and compared.  The namespaces and daemons end with it.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
why=""
[ "$(id -u)" = 0 ] || why="needs root for ip netns"
command -v ansible-playbook >/dev/null || why="no ansible-playbook (./configure --install-deps --with-fleet, or apt-get install ansible openssh-server)"
[ -x /usr/sbin/sshd ] || why="no sshd (./configure --install-deps --with-fleet, or apt-get install openssh-server)"
command -v ip >/dev/null || why="no ip (apt-get install iproute2)"
if ip -o addr 2>/dev/null | grep -q ' 198\.18\.14\.'; then why="198.18.14.0/29 is already in use here"; fi
[ -z "$why" ] || { skip "fleet: $why"; exit 0; }
git -C "$top" rev-parse HEAD > /dev/null 2>&1 ||
	{ skip "fleet: $top is not a git checkout, which the playbook sends to the hosts"; exit 0; }
[ -z "$(git -C "$top" status --porcelain --untracked-files=no)" ] ||
	{ skip "fleet: the checkout has uncommitted changes, which the hosts would not get (commit first)"; exit 0; }

tmp=$(mktemp -d /tmp/preemptlab-fleet.XXXXXX)
chmod 755 "$tmp"
ns_a=plfleet-$$-a ns_b=plfleet-$$-b
pids="" made_run_sshd=0
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for ns in $ns_a $ns_b; do ip netns del "$ns" 2>/dev/null || true; done
	[ "$made_run_sshd" = 0 ] || rmdir /run/sshd 2>/dev/null || true
	rm -rf "$tmp"
}
on_exit cleanup

ssh-keygen -q -t ed25519 -N '' -f "$tmp/key"
cp "$tmp/key.pub" "$tmp/authorized_keys"
[ -d /run/sshd ] || { mkdir -p /run/sshd; made_run_sshd=1; }
# host NAME NS ROOT_ADDR NS_ADDR: a namespace joined to this one by a veth
# pair, and an sshd in it, in its own UTS namespace named NAME.
host() {
	v=plf$(($$ % 10000))${1#fleet-}	# interface names: 15 characters at most
	ip netns add "$2"
	ip link add "${v}o" type veth peer name "${v}i"
	ip link set "${v}i" netns "$2"
	ip addr add "$3/30" dev "${v}o"
	ip link set "${v}o" up
	ip netns exec "$2" ip addr add "$4/30" dev "${v}i"
	ip netns exec "$2" ip link set "${v}i" up
	ip netns exec "$2" ip link set lo up
	ssh-keygen -q -t ed25519 -N '' -f "$tmp/hostkey-$1"
	cat > "$tmp/sshd-$1.conf" <<EOF
ListenAddress $4
HostKey $tmp/hostkey-$1
PidFile none
AuthorizedKeysFile $tmp/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Subsystem sftp /usr/lib/openssh/sftp-server
EOF
	ip netns exec "$2" unshare --uts sh -c "hostname $1 && exec /usr/sbin/sshd -D -e -f $tmp/sshd-$1.conf" \
		> "$tmp/sshd-$1.log" 2>&1 &
	pids="$pids $!"
}
host fleet-a "$ns_a" 198.18.14.1 198.18.14.2
host fleet-b "$ns_b" 198.18.14.5 198.18.14.6
i=0
until ssh -q -i "$tmp/key" -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	root@198.18.14.6 true 2>/dev/null || [ $i -ge 20 ]; do sleep 0.5; i=$((i + 1)); done
check "fleet: fleet-b's sshd answers on 198.18.14.6" \
	ssh -q -i "$tmp/key" -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null root@198.18.14.6 true
check "fleet: a test host has its own name" test "$(ssh -q -i "$tmp/key" -o BatchMode=yes \
	-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null root@198.18.14.2 uname -n)" = fleet-a

cat > "$tmp/inventory.yml" <<EOF
all:
  vars:
    ansible_user: root
    ansible_ssh_private_key_file: $tmp/key
    ansible_ssh_common_args: -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null
    ansible_python_interpreter: /usr/bin/python3
    bench_vars: {KERNEL: host, PAGES: 4k, CLIENTS: 2, REPEAT: 2, PGBENCH: "off", POOL: 32M, RELATION: 128M}
  hosts:
    fleet-a: {ansible_host: 198.18.14.2, lab_dir: $tmp/a/preemptlab, lab_cpus: $(nproc)}
    fleet-b: {ansible_host: 198.18.14.6, lab_dir: $tmp/b/preemptlab, lab_vars: {CLIENTS: 2}}
EOF
mkdir -p "$tmp/a" "$tmp/b" "$tmp/results"
start=$(date +%s)
rc=0
ANSIBLE_LOCAL_TEMP=$tmp/ansible-local ANSIBLE_REMOTE_TEMP=$tmp/ansible-remote ANSIBLE_NOCOLOR=1 \
	FLEET_RESULTS=$tmp/results make -s -C "$top" fleet INVENTORY="$tmp/inventory.yml" DURATION=1 \
	OUT="$tmp/compare" > "$tmp/fleet.log" 2>&1 || rc=$?
took=$(( $(date +%s) - start ))
check "fleet: the playbook ran over both hosts (rc $rc, ${took}s)" test "$rc" = 0
[ "$rc" = 0 ] || tail -n 60 "$tmp/fleet.log"
check "fleet: no host failed or was unreachable" \
	grep -Eq '^fleet-a +: ok=[0-9]+ +changed=[0-9]+ +unreachable=0 +failed=0' "$tmp/fleet.log"
rev=$(git -C "$top" rev-parse HEAD)
for h in a b; do
	check "fleet: fleet-$h checked out this revision" test "$(git -C "$tmp/$h/preemptlab" rev-parse HEAD 2>/dev/null)" = "$rev"
	d=$(find "$tmp/results" -maxdepth 1 -name "fleet-$h-*" -type d | head -n1)
	check "fleet: fleet-$h's run came back as results/fleet-$h-RUN ($(basename "${d:-none}"))" test -n "$d"
	[ -n "$d" ] || continue
	n=$(find "$d/runs" -name 'bufbench-host-4k-tas-c2-r*.json' | wc -l)
	check "fleet: with both repetitions of its cell ($n)" test "$n" = 2
	f=$(find "$d/runs" -name 'bufbench-host-4k-tas-c2-r1.json' | head -n1)
	check "fleet: made on fleet-$h, at this revision, with DURATION=1 from make's command line" \
		jqt "$f" ".provenance.hostname == \"fleet-$h\" and (.provenance.lab_revision | startswith(\"$(git -C "$top" rev-parse --short HEAD)\")) and .config.duration_s == 1"
	check "fleet: and its manifest" jqt "$d/manifest.json" ".host.hostname == \"fleet-$h\""
done
check "fleet: the compare report was written" test -s "$tmp/compare/report.txt"
check "fleet: its columns name both hosts" grep -q '^C1 [^ ]*/fleet-a -> C2 [^ ]*/fleet-b' "$tmp/compare/report.txt"
check "fleet: the playbook said where everything is" grep -q "compare: $tmp/compare/report.txt" "$tmp/fleet.log"
check "fleet: the packed copies on the hosts are gone" test -z "$(find "$tmp/a" "$tmp/b" -name '*.fleet.tgz')"
# Keep the log and the report where a person can read them after the test.
if [ -n "${FLEET_TEST_KEEP:-}" ]; then
	mkdir -p "$FLEET_TEST_KEEP"
	cp -r "$tmp/fleet.log" "$tmp/compare" "$tmp/results" "$FLEET_TEST_KEEP/"
fi
sshds=$pids
cleanup
pids=""
sleep 1
check "fleet: the namespaces are gone" sh -c "! ip netns list | grep -q plfleet-$$-"
left=""
for p in $sshds; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
check "fleet: and the test hosts' sshd ($sshds) ended" test -z "$left"
tests_done
