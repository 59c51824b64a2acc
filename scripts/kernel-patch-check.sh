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
[ -f "$KCAT_DIR/$series" ] || kcat_unknown "$series"
[ "$(kcat_get "$series" source)" = build ] || die "kernels/$series is not built from source: it has no patches"
patches=$(kbuild_patches "$series")
[ -n "$patches" ] || die "kernels/$series names no patches"
command -v patch >/dev/null || die "no patch program: apt-get install patch"

suite=$(kcat_get "$series" suite)
re=$(kcat_get "$series" package)
kapt_update "$suite"
line=$(kapt_candidates "$suite" "$re" | head -n1)
[ -n "$line" ] || die "no package matching $re in $suite (has Debian dropped it? edit kernels/$series)"
# shellcheck disable=SC2086 # three fields
set -- $line
pkg=$1 pkgver=$3

tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
kapt_fetch "$suite" "$pkg" "$pkgver" "$tmp/deb"
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
for p in $patches; do
	name=$(basename "$p")
	if ! patch -d "$tmp/$top" -p1 --forward --batch --dry-run < "$p" > "$tmp/out" 2>&1; then
		cat "$tmp/out" >&2
		die "$name does not apply to $pkg $pkgver: update it (kernels/patches/$name)"
	fi
	patch -d "$tmp/$top" -p1 --forward --batch --silent < "$p" > /dev/null
	echo "$name: applies to $pkg $pkgver ($(grep -c '^+++ b/' "$p") files)"
done
