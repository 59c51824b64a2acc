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
# The major's suite is pg/majors' (the catalog, read by build/plan
# --pg-major); the packages come through the private apt
# (scripts/private-apt.sh, its own store $PREEMPTLAB_CACHE/pg/apt/<suite>/,
# so a PostgreSQL fetch never races a kernel fetch over the same lock and
# lists): the lists' signature is checked again with gpgv before every
# use, each .deb's SHA256 against those lists.  /etc/apt is never read or
# written: an apt-get install from trixie or sid there would replace the
# host's libc (FACTS.md, section 2).
# Which packages: postgresql-M, postgresql-client-M and libpq5, and the
# library packages their Depends name, transitively (build/plan
# --pg-package-set); LLVM, which only the JIT provider loads, is left out
# with that provider.  Then
# build/elfclosure resolves every NEEDED of the programs the lab runs
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
# shellcheck source=scripts/private-apt.sh
KAPT_STORE=pg/apt . "$here/private-apt.sh"
# shellcheck source=scripts/pg-root-lib.sh
. "$here/pg-root-lib.sh"
# shellcheck source=scripts/deb-tree.sh
. "$here/deb-tree.sh"
# shellcheck source=scripts/pg-root-check.sh
. "$here/pg-root-check.sh"
# pgm [MAJOR [KEY]]: the catalog (PREEMPTLAB_PG_MAJORS, or pg/majors).
pgm() { "$KAPT_PLAN" --top "$top" --pg-major "$@"; }

case ${1:-} in
--list) pgm; exit 0 ;;
--survey)
	for s in $("$KAPT_PLAN" --pg-suites); do
		kapt_ready "$s"
		kapt_candidates "$s" '^postgresql-[0-9]+$' |
			awk -v s="$s" '{ sub(/^postgresql-/, "", $1) } !seen[$1]++ { print $1, $3, s }' | sort -n
	done
	exit 0 ;;
--verify)
	[ $# -ge 2 ] || die "usage: $0 --verify SUITE [DEB...]"
	vsuite=$2
	kapt_verify_lists "$vsuite"
	echo "$vsuite: InRelease signed by a key of $PREEMPTLAB_KEYRING, Packages matches it"
	shift 2
	for deb in "$@"; do
		# name_version_arch.deb; an epoch's colon is %3a there.
		b=$(basename "$deb" .deb)
		kapt_verify "$vsuite" "${b%%_*}" "$(echo "$b" | cut -d_ -f2 | sed 's/%3a/:/')" "$deb"
		echo "$deb: matches the signed lists"
	done
	exit 0 ;;
''|-*) die "usage: $0 MAJOR | --list | --survey (majors: $(pgm | awk '{ printf "%s%s (%s)", sep, $1, $2; sep = ", " }'))" ;;
esac
major=$1
# First, before anything can fail: what a fetch killed mid-way left goes.
pgroot_sweep "$PREEMPTLAB_CACHE/pg"
# Exit 2 naming the majors there are; the libraries come from the base
# suite when the major's (backports, experimental) has none.
suite=$(pgm "$major" suite) || exit $?
base=$(pgm "$major" base)
kapt_ready "$suite"
[ "$base" = "$suite" ] || kapt_ready "$base"

store=$PREEMPTLAB_CACHE/pg
# The package set is a function of the verified lists and of the rules
# (build/plan --pg-package-set, lab/plan/pg_materials.c): while neither
# changed, the root made from them before is the answer, and the lists
# are not read again.  Change RECIPE with those rules.
RECIPE=1
key=$(for s in $suite $base; do cat "$(kapt_list_file "$s" InRelease)"; done |
	{ echo "$major recipe $RECIPE"; cat; } | sha256sum | cut -c1-16)
# The index maps the lists to a root's name, MAJOR-<12 hex digits>, and
# the root is used again only when it is exactly what its packages make
# (pgroot_verify).  An entry that is not such a name (../../elsewhere) is
# ignored; a root that fails the check is made again from its package set
# when that is intact (its .packages hashes to its name), from the lists
# otherwise.
versions="" failed=""
if [ -f "$store/index/$major-$key" ] && [ ! -L "$store/index/$major-$key" ]; then
	entry=$(head -c 64 "$store/index/$major-$key" | head -n 1)
	if ! printf '%s\n' "$entry" | grep -qxE "$major-[0-9a-f]{12}"; then
		note "the index entry $store/index/$major-$key is no root's name ('$(printf '%s' "$entry" | LC_ALL=C tr -c '[:print:]' '?')'): ignored"
	elif [ -L "$store/$entry" ]; then
		note "$store/$entry is a symbolic link, not a root of the cache: not used, made again"
		failed=$store/$entry
	elif [ -f "$store/$entry/.complete" ]; then
		pgroot_verify "$store/$entry" "$major" "$suite" && { echo "$store/$entry"; exit 0; }
		failed=$store/$entry
		versions=$(pgroot_packages "$store/$entry") || versions=""
		[ -z "$versions" ] || note "PostgreSQL $major: making $store/$entry again from its verified packages"
	fi
fi

work=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$work"'
if [ -n "$versions" ]; then
	echo "$versions" > "$work/set"
else
	# build/plan --pg-package-set decides, from the verified lists.
	for s in $suite $base; do
		/usr/lib/apt/apt-helper cat-file "$(kapt_list_file "$s" "main_binary-${KAPT_ARCH}_Packages")" > "$work/$s.Packages"
	done
	"$KAPT_PLAN" --pg-package-set "$major" "$suite" "$work/$suite.Packages" "$base" "$work/$base.Packages" > "$work/set"
	grep -q "^postgresql-$major " "$work/set" || die "pg/majors puts PostgreSQL $major in $suite, but its lists have no postgresql-$major now; \`$0 --survey\` shows where it went (update pg/majors)"
fi
server=$(grep "^postgresql-$major " "$work/set")
versions=$(LC_ALL=C sort "$work/set")
id=$(echo "$versions" | sha256sum | cut -c1-12)
root=$store/$major-$id
# remember: the index entry for these lists (above), written through a
# file beside it and rename(), never through a link there.
remember() {
	mkdir -p "$store/index"
	echo "$major-$id" > "$store/index/.$major-$key.$$"
	mv -f "$store/index/.$major-$key.$$" "$store/index/$major-$key"
}
if [ -L "$root" ]; then
	[ "$root" = "$failed" ] || note "$root is a symbolic link, not a root of the cache: not used, made again"
elif [ "$root" != "$failed" ] && [ -f "$root/.complete" ] && pgroot_verify "$root" "$major" "$suite"; then
	remember; echo "$root"; exit 0
fi

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
	die "PostgreSQL $major's root lacks the libraries above: the Depends of its packages did not name them (pg_library_package in lab/plan/pg_materials.c)"
interp=$(pgroot_interp "$tmp" "$major")
libc=$(echo "$versions" | awk '$1 == "libc6" { print $2 }')

pgroot_wrap "$tmp" "$major" "$interp" "$pkgver, $suite"
pgroot_dotpg "$major" "$suite" "$pkgver" "$libc" > "$tmp/.pg"
echo "$versions" > "$tmp/.packages"
cp "$work/closure" "$tmp/.closure"
# The wrapped server must run here before the root is accepted.
"$tmp$pgbin/postgres" --version > "$work/version" 2>&1 ||
	{ cat "$work/version" >&2; die "PostgreSQL $major's postgres does not run through its root (above)"; }
note "PostgreSQL $major: $(cat "$work/version"), libc6 $libc"
chmod 755 "$tmp"
pgroot_commit "$tmp" "$root"
# Made here from verified packages: its first reuse need not check it again.
pgroot_stamp "$root"
remember
echo "$root"
