#!/bin/sh
# Prints, one guest path a line, the shared libraries (and the program
# interpreter) that the ELF files FILE... need, transitively, as ld.so
# would find them inside ROOT, an unpacked sysroot of another
# architecture.  ldd cannot do this: it runs the binary, and an aarch64
# binary does not run on an x86 host.  readelf only reads.
# Symbolic links are followed inside ROOT (an absolute target is ROOT's,
# not the host's); the printed path is the one the binary asks for, so
# copying ROOT/PATH (dereferenced) to the guest's PATH satisfies it.
# Search order: DT_RPATH/DT_RUNPATH ($ORIGIN expanded), then Debian's
# default directories (multiarch first, as Debian's ld.so does).
# Exit 1, naming each, when a library cannot be found in ROOT.
# Usage: scripts/elf-closure.sh ROOT FILE...   (FILE: a path inside ROOT,
#        or host:PATH, a host file, e.g. the lab's cross-built program,
#        whose libraries are ROOT's)
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
[ $# -ge 2 ] || die "usage: $0 ROOT FILE..."
root=$1; shift
[ -d "$root" ] || die "$root: no such sysroot directory"
# Physical, so that ROOT/../.. (a host file, below) walks no symbolic link.
root=$(cd "$root" && pwd -P)
command -v readelf >/dev/null || die "no readelf: apt-get install binutils"

# in_root PATH: PATH with its symbolic links resolved inside ROOT (40 hops).
# A host:PATH is a host file: ROOT's prefix is stripped from it instead.
in_root() {
	case $1 in host:*) echo "${1#host:}" | sed "s|^|$hostrel|"; return ;; esac
	p=$1 n=0
	while [ -L "$root$p" ] && [ $n -lt 40 ]; do
		t=$(readlink "$root$p")
		case $t in /*) p=$t ;; *) p=$(dirname "$p")/$t ;; esac
		n=$((n + 1))
	done
	echo "$p"
}

# A host file is named relative to ROOT: "$root$p" must reach it.
hostrel=$(echo "$root" | sed 's|[^/][^/]*|..|g')
work=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$work"'
: > "$work/seen"
: > "$work/missing"
: > "$work/out"
for f in "$@"; do echo "$f"; done > "$work/queue"

# Which machine the first file is for: the default directories are its.
first=$(in_root "$1")
machine=$(readelf -h "$root$first" 2>/dev/null | sed -n 's/^ *Machine: *//p')
# The architecture table knows each machine's multiarch triplet.
triplet=$("$(lab_plan)" --arch-info "${machine:-none}" triplet 2>/dev/null) ||
	die "$root$first: not an ELF file of a known machine ('$machine')"
defaults="/lib/$triplet /usr/lib/$triplet /lib /usr/lib"

while [ -s "$work/queue" ]; do
	f=$(head -n1 "$work/queue")
	sed -i 1d "$work/queue"
	grep -qxF "$f" "$work/seen" && continue
	echo "$f" >> "$work/seen"
	real=$(in_root "$f")
	[ "$(head -c4 "$root$real" | tr -d '\177')" = ELF ] || continue
	interp=$(readelf -l "$root$real" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p')
	if [ -n "$interp" ]; then
		[ -e "$root$(in_root "$interp")" ] || echo "$interp (interpreter of $f)" >> "$work/missing"
		echo "$interp" >> "$work/out"
	fi
	dyn=$(readelf -d "$root$real" 2>/dev/null) || continue
	origin=$(dirname "$real")
	case $f in host:*) origin=$(dirname "${f#host:}") ;; esac
	paths=$(echo "$dyn" | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]$/\1/p' | tr ':' ' ' | sed "s|\$ORIGIN|$origin|g; s|\${ORIGIN}|$origin|g")
	for lib in $(echo "$dyn" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		found=""
		for d in $paths $defaults; do
			if [ -e "$root$(in_root "$d/$lib")" ]; then found=$d/$lib; break; fi
		done
		if [ -z "$found" ]; then
			echo "$lib (needed by $f)" >> "$work/missing"
			continue
		fi
		echo "$found" >> "$work/out"
		echo "$found" >> "$work/queue"
	done
done
if [ -s "$work/missing" ]; then
	sort -u "$work/missing" | sed 's/^/  /' >&2
	die "$(sort -u "$work/missing" | wc -l) shared librar(y/ies) above are not in $root: unpack the package that ships each"
fi
sort -u "$work/out"
