#!/bin/sh
# The install list is whole: every external program the lab runs is
# provided (dpkg -S) by a package ./configure installs (--list-packages),
# by one of their dependencies (apt installs those with them), or by a
# package of priority "required", which every Debian root has, debootstrap's
# minbase included.  A fresh machine once lacked QEMU because its package
# had dropped out of the list while every machine that ran CI still had it
# from earlier work: this test fails on such a list wherever it runs.
# Programs that are not installed here are looked up by their package's
# file list in the archive's index instead (apt-file is not needed: the
# expected provider is named beside each program and checked with
# apt-cache).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
cd "$top"

if ! command -v dpkg-query >/dev/null || ! command -v apt-cache >/dev/null; then
	skip "packages: not a Debian system (no dpkg-query, apt-cache)"; exit 0
fi

list=$(./configure --list-packages) || { fail "packages: ./configure --list-packages failed"; exit 1; }
fleet=$(./configure --list-packages --with-fleet)
if [ -n "$list" ]; then pass "packages: ./configure --list-packages prints $(echo "$list" | wc -l) packages"
else fail "packages: ./configure --list-packages printed nothing"; fi
case $(printf '%s\n' "$fleet" | grep -cx -e ansible -e openssh-server) in
2) pass "packages: --with-fleet adds ansible and openssh-server" ;;
*) fail "packages: --with-fleet does not list ansible and openssh-server" ;;
esac
if echo "$list" | grep -qx -e ansible; then fail "packages: ansible is listed without --with-fleet"
else pass "packages: the fleet's packages only with --with-fleet"; fi

arch=$(dpkg --print-architecture)
native=qemu-system-x86; [ "$arch" = arm64 ] && native=qemu-system-arm
if echo "$list" | grep -qx "$native"; then pass "packages: the native emulator $native is on the list ($arch)"
else fail "packages: the native emulator $native is not on the list ($arch)"; fi

# What apt installs for the list: the packages and their Depends and
# Pre-Depends, recursively (Recommends are off: configure installs with
# --no-install-recommends).
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
closure() {
	# shellcheck disable=SC2086 # the list is words
	apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances $1 2>/dev/null |
		sed -n 's/^\([a-z0-9][^ <:]*\)\(:[a-z0-9]*\)\{0,1\}$/\1/p; s/^ *\(Pre\)\{0,1\}Depends: \([a-z0-9][^ <:]*\).*/\2/p' |
		sort -u
	# shellcheck disable=SC2086 # the list is words
	printf '%s\n' $1
}
closure "$list" | sort -u > "$tmp/closure"
closure "$fleet" | sort -u > "$tmp/closure-fleet"
if [ "$(wc -l < "$tmp/closure")" -gt "$(echo "$list" | wc -l)" ]; then
	pass "packages: the install closure has $(wc -l < "$tmp/closure") packages"
else fail "packages: apt-cache depends gave no closure (apt lists missing? apt-get update)"; fi

# candidates PROGRAM: the paths dpkg may have registered it under (with
# merged /usr, a file may be registered under /bin or /usr/bin).
candidates() {
	case $1 in /*) path=$1 ;; *) path=$(command -v "$1" 2>/dev/null) || return 0 ;; esac
	[ -e "$path" ] || return 0
	for f in "$path" "$(readlink -f "$path")" "/usr$path" "${path#/usr}"; do
		printf '%s\t%s\n' "$1" "$f"
	done
}
# provider PROGRAM: the package owning it here (one dpkg -S for them all,
# below: each call reads dpkg's whole file database).
provider() {
	awk -F "$TAB" -v p="$1" '$1 == p { print $2 }' "$tmp/paths" | while read -r f; do
		awk -v f="$f" 'index($0, ": " f) && substr($0, length($0) - length(f) + 1) == f {
			sub(/: .*/, ""); sub(/,.*/, ""); sub(/:[a-z0-9]*$/, ""); print; exit }' "$tmp/owners"
	done | head -n1 | grep .
}
required() { [ "$(dpkg-query -W -f='${Priority}' "$1" 2>/dev/null)" = required ]; }

# PROGRAM  EXPECTED-PACKAGE  WHEN  (WHEN: all, fleet, or an architecture)
# The programs the lab runs, from scripts/, guest/, mk/, the Makefile, the
# tests and the fleet; a new one belongs here.  EXPECTED is checked when
# the program is not installed here (its package is on the list or not).
cat > "$tmp/programs" <<'EOF'
qemu-system-x86_64 qemu-system-x86 amd64
qemu-system-aarch64 qemu-system-arm all
qemu-aarch64-static qemu-user-static amd64
aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu amd64
perf linux-perf all
jq jq all
/bin/busybox busybox-static all
chromium chromium all
psql postgresql-client-15 all
/usr/lib/postgresql/15/bin/pg_ctl postgresql-15 all
/usr/lib/postgresql/15/bin/initdb postgresql-15 all
/usr/lib/postgresql/15/bin/postgres postgresql-15 all
/usr/lib/postgresql/15/bin/pgbench postgresql-contrib all
pg_config libpq-dev all
cpio cpio all
zstd zstd all
xz xz-utils all
gzip gzip all
gpgv gpgv all
apt-get apt all
dpkg-deb dpkg all
/usr/share/keyrings/debian-archive-keyring.gpg debian-archive-keyring all
debootstrap debootstrap all
cc gcc all
make make all
pkg-config pkg-config all
flex flex all
bison bison all
bc bc all
patch patch all
readelf binutils all
file file all
column bsdextrautils all
xmllint libxml2-utils all
shellcheck shellcheck all
clang clang all
numactl numactl all
git git all
timeout coreutils all
sha256sum coreutils all
base64 coreutils all
setsid util-linux all
mountpoint util-linux all
chroot coreutils all
stty coreutils all
awk mawk all
sed sed all
tar tar all
ip iproute2 fleet
ansible-playbook ansible fleet
/usr/sbin/sshd openssh-server fleet
ssh openssh-client fleet
ssh-keygen openssh-client fleet
EOF

TAB=$(printf '\t')
while read -r prog _ _; do candidates "$prog"; done < "$tmp/programs" > "$tmp/paths"
# shellcheck disable=SC2046 # one argument a path
dpkg -S $(cut -f2 "$tmp/paths" | sort -u) 2>/dev/null | grep -v '^diversion' > "$tmp/owners" || true

while read -r prog expect when; do
	opt=""
	case $when in
	all|"$arch") set_list=$tmp/closure ;;
	fleet) set_list=$tmp/closure-fleet opt=" --with-fleet" ;;
	*) continue ;;
	esac
	if pkg=$(provider "$prog"); then how="dpkg -S"
	else pkg=$expect how="expected (not installed here)"; fi
	if grep -qx "$pkg" "$set_list"; then
		pass "packages: $prog is provided by $pkg ($how), which the list$opt installs"
	elif required "$pkg"; then
		pass "packages: $prog is provided by $pkg ($how), priority required (in every Debian root)"
	else
		fail "packages: $prog is provided by $pkg ($how), which ./configure --list-packages$opt does not install"
	fi
done < "$tmp/programs"
tests_done
