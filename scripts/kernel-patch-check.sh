#!/bin/sh
# Checks that a custom kernel's patches (kernels/<series>: patches:) still
# apply, in order, to the Debian source package its recipe builds from,
# without building anything: fetches (or reuses) linux-source-*.deb with the
# private apt, unpacks only the files the patches touch, and applies each
# patch there after a dry run.  Run it when sid moves to a newer source, or
# after editing a patch.
#
# Usage: scripts/kernel-patch-check.sh SERIES
# Prints one line per patch on stdout; exit 1 names the patch that does not
# apply, with patch's own rejects on stderr.
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=scripts/kernel-catalog.sh
. "$(dirname "$0")/kernel-catalog.sh"

[ $# -eq 1 ] || die "usage: $0 SERIES"
series=$1
# The patches are every architecture's: the base one's recipe names them.
KAPT_ARCH=$("$kcat_plan" --arch-info "$KAPT_ARCH" catalog_base_arch)
# An unknown series is kbuild_recipe's to refuse (exit 2, naming the known ones).
[ "$(kcat_get "$series" source)" = build ] || [ ! -f "$KCAT_DIR/$series" ] ||
	die "kernels/$series is not built from source: it has no patches"
kbuild_recipe "$series"
patches=$R_PATCHES
[ -n "$patches" ] || die "kernels/$series names no patches"
command -v patch >/dev/null || die "no patch program: apt-get install patch"

# shellcheck disable=SC2046 # three fields
set -- $(kbuild_source "$series")
pkg=$1 pkgver=$3

tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
kapt_fetch "$R_SUITE" "$pkg" "$pkgver" "$tmp/deb"
tarball=$(find "$tmp/deb/usr/src" -maxdepth 1 -name 'linux-source-*.tar.*' | head -n1)
[ -n "$tarball" ] || die "$pkg $pkgver holds no usr/src/linux-source-*.tar.*"
top=$(tar -tf "$tarball" | head -n1 | cut -d/ -f1)
# The files the patches touch, as the tarball names them.
# shellcheck disable=SC2086 # one path per word
files=$(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' $patches | sort -u)
# shellcheck disable=SC2046 # one member per word
tar -xf "$tarball" -C "$tmp" $(for f in $files; do echo "$top/$f"; done) ||
	die "$(basename "$tarball") lacks a file the patches touch: $files"
rm -rf "$tmp/deb"
# Kept after the check, for the rejects of a patch that does not apply.
log=$PREEMPTLAB_CACHE/patch-check-$series.log
: > "$log"
for p in $patches; do
	name=$(basename "$p")
	kbuild_apply_patch "$tmp/$top" "$p" "$log" "$pkg $pkgver"
	echo "$name: applies to $pkg $pkgver ($(grep -c '^+++ b/' "$p") files)"
done
