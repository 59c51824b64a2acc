#!/bin/sh
# scripts/repro-min.sh [REPRO_MIN_ARGS...]: runs build/repro-min at 4 KB
# and 2 MB on this kernel, with the 2 MB pages its segment needs reserved
# by difference for the run and given back after (scripts/hugepages.sh).
# Where no reservation can be made, the 4 KB line is printed and the 2 MB
# one says why, with the sysctl that would make it run.
# REPRO_MIN: the binary (default build/repro-min).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/hugepages.sh
. "$here/hugepages.sh"
bin=${REPRO_MIN:-$(dirname "$here")/build/repro-min}
[ -x "$bin" ] || die "$bin is not built: make $(basename "$bin")"
on_exit 'hp_restore_all'
"$bin" -p 4k "$@"
# The segment's 2 MB pages, from repro-min's own -n (default 131072
# descriptors of 64 bytes): one spare page for rounding.
n=131072
prev=""
for a in "$@"; do
	[ "$prev" = -n ] && n=$a
	prev=$a
done
pages=$(( n * 64 / 2097152 + 1 ))
if hp_reserve 2048 "$pages"; then
	"$bin" -p 2m "$@"
else
	echo "pages=2m: not run: could not reserve $pages free 2 MB pages ($(hp_sysctl_hint 2048 "$pages"))"
fi
