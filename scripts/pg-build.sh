#!/bin/sh
# Builds Debian's source of one PostgreSQL major, as it is (PATCH none) or
# with one of the lab's patches (pg/patches/<major>/PATCH.patch:
# prefault, touch-before-lock), and prints the path of a root that
# scripts/pg-run.sh runs like a fetched one (--pg-root): the server,
# initdb, pg_ctl, pgbench, the modules and share files the lab needs, the
# host's libraries they link, its ld.so, and wrappers that run each
# program through those (scripts/pg-root-lib.sh), so a guest can carry it.
#
# Configure flags: the package's own, read from the postgresql.mk of
# postgresql-common-dev (Debian's debian/rules includes it), fetched from
# the source's suite through the private apt, then evaluated by make in
# the source tree with the host's dpkg-buildflags (hardening=+all, plus
# the -fno-omit-frame-pointer Debian adds on amd64).  Flags for what the
# lab never loads are dropped (build/plan --pg-configure-flags, in
# lab/plan/pg_materials.c: procedural languages, authentication methods,
# JIT, OAuth, systemd, SELinux, message translations, TAP tests), so that
# their -dev packages are not needed; --with-extra-version says the build
# and its patch, so the server's version() (in every document) names them.
#
# Every variant of a major is the same tree built once: none is configured
# and built, and a patch is applied to a copy of that built tree, where
# make recompiles only the files it changed.  So none, prefault and
# touch-before-lock differ in their patch only, not in compiler or flags:
# compare a patched build with none, not with Debian's binary package.
#
# Kept in $PREEMPTLAB_CACHE/pg/build/<major>-<source version>-<recipe
# hash>/root-PATCH/ (the hash covers this script's recipe, the flags and
# the patch), reused while complete.  The build deps come from Debian 12
# (build/plan --pg-build MAJOR PATCH deps); `--install-deps` installs what
# is missing with apt-get, otherwise a missing one fails by name.
#
# Usage: scripts/pg-build.sh [--install-deps] MAJOR none|prefault|touch-before-lock
#        scripts/pg-build.sh --patches MAJOR   the patches MAJOR has
# Exit 2 for a major whose source cannot be fetched (pg/sources says why)
# or a patch that does not exist for it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/private-apt.sh
KAPT_STORE=pg/apt . "$here/private-apt.sh"
# shellcheck source=scripts/pg-root-lib.sh
. "$here/pg-root-lib.sh"

# The directories built and installed: what pg-run.sh and a guest need.
DIRS="src/backend src/backend/snowball src/timezone src/pl/plpgsql src/interfaces/libpq
	src/bin/initdb src/bin/pg_ctl src/bin/pgbench contrib/pg_buffercache"
RECIPE=1

install_deps=0
[ "${1:-}" = --install-deps ] && { install_deps=1; shift; }
[ "${1:-}" != --patches ] || exec "$KAPT_PLAN" --top "$top" --pg-patches "${2:?usage: $0 --patches MAJOR}"
[ $# -eq 2 ] || die "usage: $0 [--install-deps] MAJOR none|PATCH (patches: pg/patches/MAJOR/)"
major=$1 patch=$2
# The patch's file ("" for none); exit 2 naming the patches there are.
pfile=$("$KAPT_PLAN" --top "$top" --pg-build "$major" "$patch" patch) || exit 2
missing=""
for p in $("$KAPT_PLAN" --pg-build "$major" none deps); do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "$install_deps" = 1 ] || die "building PostgreSQL $major needs these Debian 12 packages:$missing (apt-get install$missing, or $0 --install-deps)"
	note "installing the build deps of PostgreSQL $major from the host's own suite:$missing"
	# shellcheck disable=SC2086 # one argument per package
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >&2 || die "apt-get install$missing failed"
fi

tree=$("$here/pg-source.sh" "$major") || exit $?
srcinfo=$(dirname "$tree")/.src
srcpkg=$(sed -n "s/^SRC_PACKAGE='\(.*\)'$/\1/p" "$srcinfo")	# postgresql-18 18.6-3 (sid)
srcver=$(echo "$srcpkg" | cut -d' ' -f2)
srcsuite=$(echo "$srcpkg" | sed 's/.*(\(.*\))$/\1/')

# postgresql.mk from the source's base suite (experimental's from sid).
mksuite=$("$KAPT_PLAN" --top "$top" --pg-source "$major" base)
kapt_ready "$mksuite"
cv=$(kapt "$mksuite" apt-cache madison postgresql-common-dev 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2; exit }')
[ -n "$cv" ] || die "$mksuite has no postgresql-common-dev: its debian/rules' configure flags cannot be read"
cdir=$PREEMPTLAB_CACHE/pg/pkgs/postgresql-common-dev-$cv
kapt_fetch "$mksuite" postgresql-common-dev "$cv" "$cdir" >&2
aux=$cdir/usr/share/postgresql-common/server
[ -f "$aux/postgresql.mk" ] || die "postgresql-common-dev $cv holds no postgresql.mk"

work=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$work"'
# shellcheck disable=SC2016 # $(CONFIGURE_FLAGS) is make's, not the shell's
printf 'MAJOR_VER := %s\ninclude %s/postgresql.mk\nprint-flags:\n\t@printf "%%s\\n" $(CONFIGURE_FLAGS)\n' \
	"$major" "$aux" > "$work/flags.mk"
(cd "$tree" && make -s -f "$work/flags.mk" AUX_MK_DIR="$aux" print-flags 2> "$work/flags.err") > "$work/flags.all" ||
	{ cat "$work/flags.err" >&2; die "could not evaluate $aux/postgresql.mk in $tree"; }
"$KAPT_PLAN" --pg-configure-flags "$srcver" "$patch" < "$work/flags.all" > "$work/flags" || die "no --with-extra-version in $aux/postgresql.mk: the flags are not what this script expects"

key=$({ echo "recipe $RECIPE"; cat "$work/flags"; echo "$DIRS"; [ -z "$pfile" ] || cat "$pfile"; } | sha256sum | cut -c1-12)
nkey=$({ echo "recipe $RECIPE"; sed "s/patch $patch)/patch none)/" "$work/flags"; echo "$DIRS"; } | sha256sum | cut -c1-12)
base=$PREEMPTLAB_CACHE/pg/build/$major-$srcver
root=$base-$key/root-$patch
if [ -f "$root/.complete" ]; then echo "$root"; exit 0; fi
mkdir -p "$base-$key"
pgroot_sweep "$base-$key"
bdir=$base-$key/tree-$patch
ndir=$base-$nkey/tree-none
jobs=$(nproc 2>/dev/null || echo 2)
log=$base-$key/build-$patch.log

# configure_none DIR: Debian's tree, configured with the kept flags.
configure_none() {
	rm -rf "$1"; mkdir -p "$(dirname "$1")"
	cp -a "$tree" "$1"
	sed "s/patch $patch)/patch none)/" "$work/flags" > "$1/.preemptlab-flags"
	# One flag a line, values with blanks intact: "$@" of the lines.
	(cd "$1" && set -- && while IFS= read -r f; do set -- "$@" "$f"; done < .preemptlab-flags &&
		./configure "$@") > "$(dirname "$1")/configure.log" 2>&1 ||
		{ tail -n 20 "$(dirname "$1")/configure.log" >&2; die "configure failed (log: $(dirname "$1")/configure.log)"; }
}
# build DIR: make the lab's directories with Debian's MAKELEVEL=0 for the
# generated headers; src/port and src/common first (the backend links
# their server libraries, which only the top-level make would build).
build() {
	for d in src/port src/common $DIRS; do
		MAKELEVEL=0 make -C "$1/$d" -j"$jobs" >> "$log" 2>&1 ||
			{ tail -n 30 "$log" >&2; die "make -C $d failed (log: $log)"; }
	done
}

: > "$log"
if [ ! -f "$ndir/.built" ]; then
	note "PostgreSQL $major: configuring and building $srcpkg, unpatched (about 10 minutes on 2 CPUs; log $log)"
	# A build cut short keeps its configured tree: make goes on from there.
	[ -f "$ndir/.configured" ] || { configure_none "$ndir"; touch "$ndir/.configured"; }
	build "$ndir"
	touch "$ndir/.built"
fi
if [ "$patch" != none ]; then
	note "PostgreSQL $major: patch $patch on a copy of the built tree"
	rm -rf "$bdir"
	cp -a "$ndir" "$bdir"
	rm -f "$bdir/.built"
	(cd "$bdir" && patch -p1 --no-backup-if-mismatch < "$pfile") >> "$log" 2>&1 ||
		{ tail -n 20 "$log" >&2; die "$pfile does not apply to $srcpkg (log: $log)"; }
	# The version string carries the patch: reconfigure only pg_config.h's line.
	sed -i "/define PG_VERSION/s/patch none)/patch $patch)/" "$bdir/src/include/pg_config.h"
	grep -q "PG_VERSION_STR .*patch $patch)" "$bdir/src/include/pg_config.h" || die "could not set the patch in $bdir's PG_VERSION_STR"
	# Every object that holds the version string is rebuilt too (the
	# build tracks no header dependencies: Debian does not --enable-depend).
	grep -rlw --include='*.c' -e PG_VERSION -e PG_VERSION_STR -e PG_BACKEND_VERSIONSTR \
		"$bdir/src" "$bdir/contrib/pg_buffercache" | xargs touch
	build "$bdir"
	touch "$bdir/.built"
else
	bdir=$ndir
fi

note "PostgreSQL $major ($patch): installing into a private root"
tmp=$(mktemp -d "$base-$key/.root.XXXXXX")
pgroot_claim "$tmp"
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$work" "$tmp"'
# src/include/catalog installs postgres.bki, which initdb reads (the
# backend's build made it).
for d in $DIRS src/include/catalog; do
	make -C "$bdir/$d" install DESTDIR="$tmp" >> "$log" 2>&1 || { tail -n 20 "$log" >&2; die "make -C $d install failed"; }
done
pglib=/usr/lib/postgresql/$major/lib pgbin=/usr/lib/postgresql/$major/bin
[ -x "$tmp$pgbin/postgres" ] || die "the build installed no $pgbin/postgres"
# The host's libraries each program links (the root's own libpq first),
# and the host's ld.so, copied in: the root runs the same in a guest.
lib=$tmp/usr/lib/$(arch_info "" triplet)
mkdir -p "$lib" "$tmp/usr/lib64"
for l in lib lib64; do [ -e "$tmp/$l" ] || ln -s "usr/$l" "$tmp/$l"; done
find "$tmp$pgbin" "$tmp$pglib" "$lib" -type f \( -perm -u+x -o -name '*.so*' \) | while read -r f; do
	LD_LIBRARY_PATH=$lib:$tmp$pglib ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'
done | sort -u | while read -r l; do
	case $l in "$tmp"/*) continue ;; esac
	[ -e "$lib/${l##*/}" ] || cp -L "$l" "$lib/${l##*/}"
done
interp=$(readelf -l "$tmp$pgbin/postgres" | sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p')
mkdir -p "$(dirname "$tmp$interp")"
cp -L "$interp" "$tmp$interp"
# libc names ld.so as a NEEDED library too, found in the multiarch directory.
[ -e "$lib/${interp##*/}" ] || cp -L "$interp" "$lib/${interp##*/}"
pgroot_closure "$tmp" "$major" "$tmp/.closure" || die "the built root lacks the libraries above"
pgroot_wrap "$tmp" "$major" "$(pgroot_interp "$tmp" "$major")" "$srcpkg, built by the lab, patch $patch"
libc=$(dpkg-query -W -f '${Version}' libc6)
psha=none; [ -z "$pfile" ] || psha=$(sha256sum "$pfile" | cut -d' ' -f1)
{
	echo "PG_MAJOR='$major'"
	echo "PG_SUITE='$srcsuite (source)'"
	echo "PG_PACKAGE='postgresql-$major $srcver ($srcsuite source, built by the lab, patch $patch)'"
	echo "PG_LIBC='$libc'"
	echo "PG_PATCH='$patch'"
	echo "PG_PATCH_SHA256='$psha'"
} > "$tmp/.pg"
{
	echo "source: $srcpkg; .dsc signature $(sed -n "s/^SRC_DSC_SIGNATURE='\(.*\)'$/\1/p" "$srcinfo")"
	echo "flags from: postgresql-common-dev $cv ($mksuite) postgresql.mk"
	echo "dropped: $("$KAPT_PLAN" --pg-build "$major" none dropped)"
	echo "compiler: $(gcc --version | head -n1)"
	echo "patch: $patch${pfile:+ (pg/patches/$major/$patch.patch, sha256 $psha)}"
	echo "configure:"; sed 's/^/  /' "$bdir/.preemptlab-flags"
} > "$tmp/.build"
echo "build $major $patch" > "$tmp/.packages"
"$tmp$pgbin/postgres" --version > "$work/version" 2>&1 ||
	{ cat "$work/version" >&2; die "the built postgres does not run through its root (above)"; }
grep -q "patch $patch)" "$work/version" || die "the built postgres says '$(cat "$work/version")', not patch $patch"
note "PostgreSQL $major: $(cat "$work/version")"
chmod 755 "$tmp"
pgroot_commit "$tmp" "$root"
echo "$root"
