#!/bin/sh
# Fetches Debian's source package of one PostgreSQL major, checks it, and
# prints the path of the unpacked tree (debian/patches applied, as
# dpkg-source -x leaves it), for scripts/pg-build.sh.
#
# The suite is pg/sources' (major, suite, and whether this archive serves
# the files: a survey's result, so that the planner can say why a major
# cannot be built before anything runs; read by build/plan --pg-source).
# Through a private apt of its own, deb-src only, in
# $PREEMPTLAB_CACHE/pg/src-apt/<suite>/ (the private apt,
# scripts/private-apt.sh, with Dir::Etc, Dir::State and Dir::Cache there;
# /etc/apt is never read or written).  The chain of checks, each before
# the next file is trusted:
#   1. the stored InRelease has a good signature from a key of Debian's
#      archive keyring (gpgv), checked again before every use;
#   2. the stored Sources list has the SHA256 that signed text gives;
#   3. the .dsc, the .orig tarball and the .debian tarball have the SHA256
#      that list gives for this package and version;
#   4. dpkg-source -x checks them against the .dsc again while unpacking.
# The .dsc's own OpenPGP signature (the uploader's key) is checked with
# gpgv too where debian-keyring is installed, and said to be unchecked
# where it is not: 1-3 already tie every byte to the archive's signature.
#
# Usage: scripts/pg-source.sh MAJOR        fetch (or reuse), print the tree
#        scripts/pg-source.sh --list       pg/sources' lines
#        scripts/pg-source.sh --survey     which majors' sources this
#                                          archive serves (one HEAD a file)
# Exit 2 for a major pg/sources does not have or marks unavailable,
# naming why and what is available.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/private-apt.sh
KAPT_ARCH=amd64 KAPT_STORE=pg/src-apt KAPT_TYPE=deb-src . "$here/private-apt.sh"
DEBIAN_KEYRING=${PREEMPTLAB_DEBIAN_KEYRING:-/usr/share/keyrings/debian-keyring.gpg}

# stanza SUITE PACKAGE VERSION: that version's paragraph of the Sources
# list (apt-cache showsrc takes no version and prints every one).
stanza() {
	kapt "$1" apt-cache showsrc "$2" 2>/dev/null |
		awk -v p="$2" -v v="$3" '/^$/ { if (pk == p && ve == v) { printf "%s", buf; exit } buf = ""; pk = ""; ve = ""; next }
			{ buf = buf $0 "\n" } /^Package: / { pk = $2 } /^Version: / { ve = $2 }
			END { if (pk == p && ve == v) printf "%s", buf }'
}

# pgs [MAJOR [KEY]]: the catalog (PREEMPTLAB_PG_SOURCES, or pg/sources).
pgs() { "$KAPT_PLAN" --top "$top" --pg-source "$@"; }

case ${1:-} in
--list) pgs; exit 0 ;;
--survey)
	# One HEAD request per file the signed Sources name: what this mirror
	# serves now, to update pg/sources with.
	pgs | while read -r m s _; do
		kapt_ready "$s" >&2
		v=$(kapt "$s" apt-cache showsrc "postgresql-$m" 2>/dev/null | sed -n 's/^Version: //p' | head -n1)
		[ -n "$v" ] || { echo "$m $s none: no postgresql-$m in $s's Sources"; continue; }
		dir=$(stanza "$s" "postgresql-$m" "$v" | sed -n 's/^Directory: //p')
		miss=$(kapt "$s" apt-get source --print-uris "postgresql-$m=$v" 2>/dev/null | cut -d"'" -f2 |
			while read -r u; do curl -sfI --max-time 30 "$u" > /dev/null || echo "${u##*/}"; done | tr '\n' ' ')
		if [ -z "$miss" ]; then echo "$m $s ok $v"; else echo "$m $s missing $v ($dir): $miss"; fi
	done
	exit 0 ;;
''|-*) die "usage: $0 MAJOR | --list | --survey (sources: $(pgs | awk '$3 == "ok" { printf "%s%s (%s)", sep, $1, $2; sep = ", " }'))" ;;
esac
major=$1
# Exit 2 naming why, and the sources there are.
suite=$(pgs "$major" suite) || exit 2
kapt_ready "$suite"
pkg=postgresql-$major
ver=$(kapt "$suite" apt-cache showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | head -n1)
[ -n "$ver" ] || die "$suite's Sources have no $pkg now: \`$0 --survey\`, then update pg/sources"
store=$PREEMPTLAB_CACHE/pg/src/$pkg-$ver
tree=$store/tree
if [ -f "$store/.complete" ]; then echo "$tree"; exit 0; fi
rm -rf "$store"; mkdir -p "$store/files"
# The file names and SHA256 the signed Sources give (3).
stanza "$suite" "$pkg" "$ver" |
	awk '/^Checksums-Sha256:/ { s = 1; next } /^[^ ]/ { s = 0 } s { print $1, $3 }' > "$store/sha256"
[ -s "$store/sha256" ] || die "$suite's Sources give no SHA256 for $pkg $ver"
note "fetching $pkg $ver (source, $suite)"
(cd "$store/files" && kapt "$suite" apt-get source --download-only "$pkg=$ver") > "$store/fetch.log" 2>&1 || {
	sed 's/^/  /' "$store/fetch.log" >&2
	die "apt-get source $pkg=$ver from $suite failed (above): if the archive answers 404, mark $major unavailable in pg/sources (\`$0 --survey\`)"
}
while read -r sum f; do
	[ -f "$store/files/$f" ] || die "apt-get source left no $f"
	have=$(sha256sum "$store/files/$f" | cut -d' ' -f1)
	[ "$have" = "$sum" ] || die "$f does not match $suite's signed Sources (sha256 $have, signed $sum)"
done < "$store/sha256"
dsc=$(ls "$store/files/"*.dsc)
if [ -r "$DEBIAN_KEYRING" ]; then
	gpgv --keyring "$DEBIAN_KEYRING" "$dsc" > "$store/dsc-gpgv.log" 2>&1 ||
		{ sed 's/^/  /' "$store/dsc-gpgv.log" >&2; die "$dsc: no good signature from a Debian developer's key ($DEBIAN_KEYRING)"; }
	dscsig="gpgv against $DEBIAN_KEYRING"
else
	dscsig="not checked (no debian-keyring); its files match the archive's signed Sources"
fi
dpkg-source -x "$dsc" "$tree" > "$store/unpack.log" 2>&1 ||
	{ sed 's/^/  /' "$store/unpack.log" >&2; die "dpkg-source -x $dsc failed (above)"; }
{
	echo "SRC_PACKAGE='$pkg $ver ($suite)'"
	echo "SRC_DSC_SIGNATURE='$dscsig'"
} > "$store/.src"
touch "$store/.complete"
note "$pkg $ver: files match $suite's signed Sources; .dsc signature $dscsig"
echo "$tree"
