#!/bin/sh
# Fetches one PostgreSQL major from Debian's archive and prints the path of
# its private root: the server, its client programs and every shared
# library they load, unpacked with dpkg -x (never installed), with wrapper
# scripts in its bin/ that run each program through the root's own ld.so
# and libraries.  Nothing of the host's root is touched or used: trixie's
# and sid's PostgreSQL need a newer libc than Debian 12's, and a root that
# took even one library from the host would hide a missing one until it
# ran in a guest.
#
# The major's suite is pg/majors' (the catalog); the packages come through
# the private apt of scripts/pg-apt.sh: the lists' signature is checked
# again with gpgv before every use, each .deb's SHA256 against those lists.
# Which packages: postgresql-M, postgresql-client-M and libpq5, and the
# library packages their Depends name, transitively (Debian's shlibs
# Depends are exactly what the ELF files link against); LLVM, which only
# the JIT provider loads, is left out with that provider.  Then
# scripts/elf-closure.sh resolves every NEEDED of the programs the lab runs
# inside the root: a library missing there fails here, by name.
#
# The root is kept in $PREEMPTLAB_CACHE/pg/<major>-<hash of the package
# versions>/ and reused while the suite's versions stay the same; its .pg
# file holds PG_MAJOR PG_SUITE PG_PACKAGE PG_BINDIR PG_LIBC for pg-run.sh.
#
# Usage: scripts/pg-fetch.sh MAJOR     fetch (or reuse) and print the root
#        scripts/pg-fetch.sh --list    the catalog: "major suite" lines
#        scripts/pg-fetch.sh --survey  every suite's postgresql-NN, from its
#                                      lists ("major version suite")
#        scripts/pg-fetch.sh --verify SUITE [DEB...]  check SUITE's stored
#                                      lists (no refresh), then each .deb
#                                      (apt-get download's file name)
# Exit 2 for a major the catalog does not have (naming those it has).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/pg-apt.sh
. "$here/pg-apt.sh"
# shellcheck source=scripts/pg-root-lib.sh
. "$here/pg-root-lib.sh"
catalog=${PREEMPTLAB_PG_MAJORS:-$top/pg/majors}

# majors: "major suite" lines of the catalog.
majors() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$catalog" | awk '{ print $1, $2 }'; }
available() { majors | awk '{ printf "%s%s (%s)", sep, $1, $2; sep = ", " }'; }

case ${1:-} in
--list) majors; exit 0 ;;
--survey)
	for s in $PGAPT_SUITES; do
		pgapt_ready "$s"
		pgapt_majors "$s" | while read -r m v; do echo "$m $v $s"; done
	done
	exit 0 ;;
--verify)
	[ $# -ge 2 ] || die "usage: $0 --verify SUITE [DEB...]"
	vsuite=$2
	pgapt_verify_lists "$vsuite"
	echo "$vsuite: InRelease signed by a key of $PREEMPTLAB_KEYRING, Packages matches it"
	shift 2
	for deb in "$@"; do
		# name_version_arch.deb; an epoch's colon is %3a there.
		b=$(basename "$deb" .deb)
		kapt_verify "$vsuite" "${b%%_*}" "$(echo "$b" | cut -d_ -f2 | sed 's/%3a/:/')" "$deb"
		echo "$deb: matches the signed lists"
	done
	exit 0 ;;
''|-*) die "usage: $0 MAJOR | --list | --survey (majors: $(available))" ;;
esac
major=$1
# First, before anything can fail: what a fetch killed mid-way left goes.
pgroot_sweep "$PREEMPTLAB_CACHE/pg"
suite=$(majors | awk -v m="$major" '$1 == m { print $2; exit }')
if [ -z "$suite" ]; then
	echo "preemptlab: PostgreSQL $major is not in Debian's archive (pg/majors, from \`$0 --survey\` over $PGAPT_SUITES); available: $(available)" >&2
	exit 2
fi
# A backports or experimental suite holds only what differs from its base:
# the libraries come from the base suite when the suite has none.
case $suite in
*-backports) base=${suite%-backports} ;;
experimental) base=sid ;;
*) base=$suite ;;
esac
pgapt_ready "$suite"
[ "$base" = "$suite" ] || pgapt_ready "$base"

store=$PREEMPTLAB_CACHE/pg
# The package set is a function of the verified lists and of the rules
# below (library(), the three packages it starts from): while neither
# changed, the root made from them before is the answer, and the fifty
# apt-cache calls that find the set are not made again.  Change RECIPE
# with those rules.
RECIPE=1
key=$(for s in $suite $base; do cat "$(pgapt_list_file "$s" InRelease)"; done |
	{ echo "$major recipe $RECIPE"; cat; } | sha256sum | cut -c1-16)
if [ -f "$store/index/$major-$key" ]; then
	root=$store/$(cat "$store/index/$major-$key")
	if [ -f "$root/.complete" ]; then echo "$root"; exit 0; fi
fi

# newest SUITE PACKAGE: the package's version in SUITE's lists, or nothing.
newest() {
	kapt "$1" apt-cache madison "$2" 2>/dev/null |
		awk -F'|' -v p="$2" '{ gsub(/ /, "", $1); gsub(/ /, "", $2) } $1 == p { print $2; exit }'
}
# pick PACKAGE [FIRST]: "package version suite", from FIRST (default the
# base suite) or else the other one; nothing when neither has it.
pick() {
	for s in ${2:-$base} $suite; do
		v=$(newest "$s" "$1")
		[ -n "$v" ] && { echo "$1 $v $s"; return 0; }
	done
	return 0
}
# library DEP: the Depends entries worth unpacking (shared libraries).
library() {
	case $1 in
	libllvm*|*-perl|libperl*) return 1 ;;	# the JIT provider's; perl's cluster tools
	lib*|zlib1g) return 0 ;;
	*) return 1 ;;
	esac
}

server=$(pick "postgresql-$major" "$suite")
[ -n "$server" ] || die "pg/majors puts PostgreSQL $major in $suite, but its lists have no postgresql-$major now; \`$0 --survey\` shows where it went (update pg/majors)"
work=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$work"'
{
	echo "$server"
	pick "postgresql-client-$major" "$suite"
	pick libpq5 "$suite"
} > "$work/set"
cp "$work/set" "$work/queue"
while [ -s "$work/queue" ]; do
	read -r p v s < "$work/queue"
	sed -i 1d "$work/queue"
	# Depends and Pre-Depends; of alternatives the first that exists.
	kapt "$s" apt-cache show "$p=$v" 2>/dev/null | awk '/^$/ { exit } { print }' |
		sed -n 's/^\(Pre-\)\{0,1\}Depends: //p' | tr ',' '\n' > "$work/deps"
	while read -r alts; do
		for d in $(echo "$alts" | sed 's/([^)]*)//g; s/|/ /g; s/:any//g'); do
			library "$d" || continue 2
			grep -q "^$d " "$work/set" && continue 2
			line=$(pick "$d")
			[ -n "$line" ] || continue
			echo "$line" >> "$work/set"
			echo "$line" >> "$work/queue"
			continue 2
		done
	done < "$work/deps"
done
versions=$(LC_ALL=C sort "$work/set")
id=$(echo "$versions" | sha256sum | cut -c1-12)
root=$store/$major-$id
# remember: the index entry for these lists (above).
remember() { mkdir -p "$store/index" && echo "$major-$id" > "$store/index/$major-$key"; }
if [ -f "$root/.complete" ]; then remember; echo "$root"; exit 0; fi

pkgver=$(echo "$server" | cut -d' ' -f2)
note "PostgreSQL $major: postgresql-$major $pkgver from $suite, $(echo "$versions" | wc -l) packages, into $root"
mkdir -p "$store/pkgs"
echo "$versions" | while read -r p v s; do
	kapt_fetch "$s" "$p" "$v" "$store/pkgs/$p-$v" >&2
done
tmp=$(mktemp -d "$store/.root.XXXXXX")
pgroot_claim "$tmp"
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$work" "$tmp"'
echo "$versions" | while read -r p v s; do
	# Hard links: the root costs no second copy of the unpacked packages.
	cp -al "$store/pkgs/$p-$v/." "$tmp/"
done
rm -f "$tmp/.unpacked"
# Debian's merged /usr: newer packages ship usr/lib only, and base-files
# (not unpacked here) makes /lib and /lib64 point into it.
for l in lib lib64; do
	[ -e "$tmp/$l" ] || [ ! -d "$tmp/usr/$l" ] || ln -s "usr/$l" "$tmp/$l"
done
pgbin=/usr/lib/postgresql/$major/bin pglib=/usr/lib/postgresql/$major/lib
[ -x "$tmp$pgbin/postgres" ] || die "postgresql-$major $pkgver holds no $pgbin/postgres"
# The JIT provider links LLVM, which is not unpacked: without it the server
# runs with JIT unavailable, and pgbench's statements are far below
# jit_above_cost anyway.
rm -rf "$tmp$pglib"/llvmjit*.so "$tmp$pglib/bitcode"
pgroot_closure "$tmp" "$major" "$work/closure" ||
	die "PostgreSQL $major's root lacks the libraries above: the Depends of its packages did not name them (library() in $0)"
interp=$(pgroot_interp "$tmp" "$major")
libc=$(echo "$versions" | awk '$1 == "libc6" { print $2 }')

pgroot_wrap "$tmp" "$major" "$interp" "$pkgver, $suite"
{
	echo "PG_MAJOR='$major'"
	echo "PG_SUITE='$suite'"
	echo "PG_PACKAGE='postgresql-$major $pkgver ($suite)'"
	echo "PG_LIBC='$libc'"
} > "$tmp/.pg"
echo "$versions" > "$tmp/.packages"
cp "$work/closure" "$tmp/.closure"
# The wrapped server must run here before the root is accepted.
"$tmp$pgbin/postgres" --version > "$work/version" 2>&1 ||
	{ cat "$work/version" >&2; die "PostgreSQL $major's postgres does not run through its root (above)"; }
note "PostgreSQL $major: $(cat "$work/version"), libc6 $libc"
chmod 755 "$tmp"
touch "$tmp/.complete"
rm -rf "$root"
mv "$tmp" "$root"
remember
echo "$root"
