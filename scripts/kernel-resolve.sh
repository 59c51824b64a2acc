#!/bin/sh
# shellcheck disable=SC2034,SC2012 # K_ variables are printed by emit (eval); ls globs are ours
# Resolves a KERNEL value through the catalog and fetches its image.
# Usage: scripts/kernel-resolve.sh [--list] [--build] KERNEL
#   KERNEL = a series (7.0: the newest packaged 7.0.x), an exact version
#   (7.0.13), host, or a path to a kernel image.
#   A series built from source (source: build, e.g. 7.2-rseq) resolves to
#   its finished build in the cache; --build (make kernel) builds it when
#   there is none, which takes half an hour or more (scripts/kernel-build.sh).
# ARCH=arm64 (from the plan; KAPT_ARCH for the private apt) resolves the
# series' arm64 package (package_arm64: in kernels/<series>) into a store
# of its own; the default is this machine's architecture.
# Prints shell assignments (K_ARCH K_LABEL K_SOURCE K_VERSION K_SUITE K_PACKAGE
# K_PKGVERSION K_IMAGE K_SHA256 K_CONFIG K_RELEASE K_MODELS K_DEFAULT) for
# callers to eval; progress goes to stderr.  Unknown values list the known
# ones and exit 2.
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
KAPT_ARCH=$(kapt_arch) || exit 2
export KAPT_ARCH
K_ARCH=$KAPT_ARCH
# shellcheck source=scripts/kernel-catalog.sh
. "$(dirname "$0")/kernel-catalog.sh"

[ "${1:-}" != --list ] || exec "$kcat_plan" --catalog-series "$KCAT_DIR" --list
build=0
[ "${1:-}" = --build ] && { build=1; shift; }
# shellcheck disable=SC2119 # no source given: every series
{ [ $# -eq 1 ] && [ -n "$1" ]; } || die "usage: $0 KERNEL (one of: $(kcat_known | tr '\n' ' ')an exact version, or a path)"
want=$1

# emit: print the resolved kernel from the K_ variables.
emit() {
	for v in K_ARCH K_LABEL K_SOURCE K_VERSION K_SUITE K_PACKAGE K_PKGVERSION K_IMAGE K_SHA256 K_CONFIG K_RELEASE K_MODELS K_DEFAULT; do
		eval "q $v \"\${$v:-}\""
	done
}

# reuse FILE: a resolution from the cache, if it may be used again, its
# paths re-rooted at FILE's directory (build/plan --kernel-resolution,
# lab/plan/kernel_resolution.c); else the reason on stderr and false.
reuse() { "$kcat_plan" --kernel-resolution "$1"; }

# What KERNEL names is the planner's to say (build/plan --catalog-resolve,
# lab/plan/catalog.c's rules: a path, a series, or an exact version whose
# series is its longest catalog prefix), and so are the series' fields for
# KAPT_ARCH; an unknown one exits 2 there, naming the known ones, and a
# kernel KAPT_ARCH cannot take exits 1, naming those it can.
what=$("$kcat_plan" --catalog-resolve "$KCAT_DIR" "$want" "$KAPT_ARCH") || exit $?
tab=$(printf '\t')
what() { printf '%s\n' "$what" | sed -n "s/^$1$tab//p"; }
K_SOURCE=$(what source) series=$(what series) exact=$(what version)

# A user's image.
if [ "$K_SOURCE" = path ]; then
	K_LABEL=$series
	K_IMAGE=$(cd "$(dirname "$want")" && pwd)/$(basename "$want")
	K_SHA256=$(sha256sum "$K_IMAGE" | cut -d' ' -f1)
	# The bzImage header holds the release string ("7.0.13 (user@host) #1 ...").
	K_RELEASE=$(strings -n 8 "$K_IMAGE" 2>/dev/null | grep -m1 -E '^[0-9]+\.[0-9]+[^ ]* \(' | cut -d' ' -f1 || true)
	K_VERSION=${K_RELEASE%%[-+]*}
	cfg=$(dirname "$K_IMAGE")/.config
	[ -f "$cfg" ] && K_CONFIG=$cfg
	K_MODELS="" K_DEFAULT=""	# unknown until booted: the guest reads debugfs
	emit; exit 0
fi

K_LABEL=$series K_MODELS=$(what models) K_DEFAULT=$(what default) K_SUITE=$(what suite)
if [ "$K_SOURCE" = host ]; then
	K_RELEASE=$(uname -r); K_VERSION=${K_RELEASE%%[-+]*}
	[ -f "/boot/vmlinuz-$K_RELEASE" ] && K_IMAGE=/boot/vmlinuz-$K_RELEASE
	[ -f "/boot/config-$K_RELEASE" ] && K_CONFIG=/boot/config-$K_RELEASE
	emit; exit 0
fi
if [ "$K_SOURCE" = build ]; then
	[ "$build" = 1 ] && exec "$(dirname "$0")/kernel-build.sh" "$series"
	found=$(kbuild "$series" newest "$PREEMPTLAB_CACHE")
	# A newer source package only matters to those who rebuild: say so from
	# the lists already fetched, without asking the archive.
	newest=$(kapt_candidates "$K_SUITE" "$(what package)" 2>/dev/null | head -n1 | cut -d' ' -f3)
	built=$(sed -n "s/^K_PKGVERSION='\(.*\)'$/\1/p" "$found/resolved")
	if [ -n "$newest" ] && [ "$newest" != "$built" ]; then
		note "$series: using the build of $built; $K_SUITE now has $newest (\`make kernel KERNEL=$series\` builds it)"
	fi
	reuse "$found/resolved" ||
		die "the build in $found changed since it was made (above): remove it and rebuild (make kernel KERNEL=$series)"
	exit 0
fi

# cached FILE: a resolution from before, with the catalog's models of now
# (kernels/<series> may have changed since; the later assignment wins).
cached() { reuse "$1" && q K_MODELS "$K_MODELS" && q K_DEFAULT "$K_DEFAULT"; }

# An exact version fetched before needs no archive at all.
store="$PREEMPTLAB_CACHE/images/$(what cache)"
# One that fails its check is fetched again below (kapt_fetch unpacks
# again what no longer matches its verified .deb).
if [ -n "$exact" ] && [ -f "$store/$exact/resolved" ] && cached "$store/$exact/resolved"; then exit 0; fi

re=$(what package) also=$(what also)
kapt_update "$K_SUITE"
# The newest packaged version, or the exact one asked for (the planner's
# choice, naming those there are when it finds none).
line=$(kapt_candidates "$K_SUITE" "$re" | "$kcat_plan" --catalog-pick "$series" "$K_SUITE" "$re" "$exact")
# shellcheck disable=SC2086 # three fields
set -- $line
K_PACKAGE=$1 K_VERSION=$2 K_PKGVERSION=$3
dir="$store/$K_VERSION"
if [ -f "$dir/resolved" ] && cached "$dir/resolved"; then exit 0; fi
rm -f "$dir/resolved"

kapt_fetch "$K_SUITE" "$K_PACKAGE" "$K_PKGVERSION" "$dir/root"
# "also": packages the main one depends on that carry what we need (config).
if [ -n "$also" ]; then
	deps=$(kapt "$K_SUITE" apt-cache show "$K_PACKAGE=$K_PKGVERSION" | sed -n 's/^Depends: //p' |
		tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -E "$also" || true)
	for p in $deps; do
		v=$(kapt_candidates "$K_SUITE" "^$(printf '%s' "$p" | sed 's/[.+]/\\&/g')\$" | awk -v p="$p" '$1 == p {print $3}' | head -n1)
		[ -n "$v" ] && kapt_fetch "$K_SUITE" "$p" "$v" "$dir/also-$p"
	done
fi
# Older packages install boot/vmlinuz-REL; newer ones usr/lib/modules/REL/.
K_IMAGE=$(ls "$dir"/root/boot/vmlinuz-* "$dir"/root/usr/lib/modules/*/vmlinuz 2>/dev/null | head -n1 || true)
[ -n "$K_IMAGE" ] || die "$K_PACKAGE $K_PKGVERSION holds no boot/vmlinuz-* or usr/lib/modules/*/vmlinuz; edit kernels/$series"
case $K_IMAGE in
*/boot/vmlinuz-*) K_RELEASE=${K_IMAGE##*/vmlinuz-} ;;
*) K_RELEASE=$(basename "$(dirname "$K_IMAGE")") ;;
esac
K_SHA256=$(sha256sum "$K_IMAGE" | cut -d' ' -f1)
K_CONFIG=$(ls "$dir"/*/boot/config-* "$dir"/*/usr/lib/modules/*/config 2>/dev/null | head -n1 || true)
emit > "$dir/resolved.tmp" && mv "$dir/resolved.tmp" "$dir/resolved"
cat "$dir/resolved"
