#!/bin/sh
# Boots one guest as planned: ARGV is a QEMU command, one argument a line
# (plan/UNIT.qemu, written by lab/plan/boot.c from the architecture table
# in lab/common/arch.c; `build/plan --boot-argv` prints one for a boot
# outside a plan).  Its placeholders {kernel} {initrd} {console} {channel}
# become the paths given here; nothing else is decided.  The console and
# the result channel are host files that QEMU writes as the guest does, so
# they survive a guest crash.  The argv run is written to ARGV_LOG (the
# runner's logs/qemu-TAG.argv), and QEMU runs in the foreground (exec), so
# the caller's $! is QEMU's pid.
# Usage: scripts/qemu-boot.sh ARGV KERNEL INITRD CONSOLE CHANNEL [ARGV_LOG]
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
{ [ $# -eq 5 ] || [ $# -eq 6 ]; } || die "usage: $0 ARGV KERNEL INITRD CONSOLE CHANNEL [ARGV_LOG]"
[ -s "$1" ] || die "no QEMU command in '$1' (build/plan writes plan/UNIT.qemu)"
# QEMU's option syntax splits on commas: a path with one would name another file.
for f in "$4" "$5"; do
	case $f in *,*) die "the console and channel paths must hold no comma: '$f'" ;; esac
done
# Literal replacement (no regular expressions: paths hold any character).
argv=$(K=$2 I=$3 C=$4 H=$5 awk '
	function put(s, key, val,   out, i) {
		out = ""
		while ((i = index(s, key)) > 0) { out = out substr(s, 1, i - 1) val; s = substr(s, i + length(key)) }
		return out s
	}
	{ print put(put(put(put($0, "{kernel}", ENVIRON["K"]), "{initrd}", ENVIRON["I"]),
		"{console}", ENVIRON["C"]), "{channel}", ENVIRON["H"]) }' "$1")
[ $# -eq 6 ] && printf '%s\n' "$argv" > "$6"
set --
while IFS= read -r a; do set -- "$@" "$a"; done <<EOA
$argv
EOA
command -v "$1" >/dev/null || die "no $1 (./configure --install-deps installs QEMU)"
exec "$@"
