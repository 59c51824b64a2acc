#!/bin/sh
# build/jget, build/jobj and build/attach-manifest read capped input (issue
# 35), as the report and predict do (64 MiB, lab/common/json_read.c): a
# 100 MB document was read whole (and printed by jget), a FIFO blocked
# them.  Each is refused with a message naming the cap, within a small
# address space; documents of the usual size still read.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
for b in jget jobj attach-manifest; do
	[ -x "$top/build/$b" ] || { fail "manifest_caps: build/$b missing (make first)"; exit 1; }
done
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'

# A valid document of 100 MB: one string.
{ printf '{"provenance": {"kernel_label": "'; head -c 100000000 /dev/zero | tr '\0' x; printf '"}}\n'; } > "$tmp/big.json"
printf '{"provenance": {"kernel_label": "7.0", "versions": {"cc": "gcc"}}}\n' > "$tmp/small.json"
mkfifo "$tmp/fifo"
printf 'a.txt\t3\t%s\n' "$(printf abc | sha256sum | cut -d' ' -f1)" > "$tmp/files.tsv"
head -c 100000000 /dev/zero | tr '\0' '\n' > "$tmp/bigfiles.tsv"

# capped NAME WANT CMD...: CMD under a 256 MB address space and 20 s fails,
# saying WANT, and prints no value of the document.
capped() {
	name=$1 want=$2
	shift 2
	rc=0
	# shellcheck disable=SC3045 # dash's and bash's ulimit have -v
	(ulimit -v 262144; exec timeout 20 "$@") > "$tmp/out" 2> "$tmp/err" || rc=$?
	check "manifest_caps: $name is refused (rc $rc): $(head -c 150 "$tmp/err")" \
		sh -c "[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -qF -- '$want' '$tmp/err' && [ \$(wc -c < '$tmp/out') -lt 1000 ]"
}
capped "jget on a 100 MB document" "larger than 64 MiB" "$top/build/jget" provenance.kernel_label "$tmp/big.json"
capped "jget on a FIFO" "not a regular file" "$top/build/jget" provenance.kernel_label "$tmp/fifo"
# am FILES DOC: attach-manifest with its other options fixed.
cat > "$tmp/am" <<AM
#!/bin/sh
exec "$top/build/attach-manifest" --run R --rev 0 --reproduce 'make bench' --made T --dropped '' \\
	--perf p --qemu q --compiler c --host h --files "\$1" --src-commit '' --src-sha '' --src-note '' \\
	--dirty false --dirty-patch '' "\$2"
AM
chmod +x "$tmp/am"
capped "attach-manifest on a 100 MB document" "larger than 64 MiB" "$tmp/am" "$tmp/files.tsv" "$tmp/big.json"
capped "attach-manifest on a 100 MB file list" "--files $tmp/bigfiles.tsv: larger than 64 MiB" "$tmp/am" "$tmp/bigfiles.tsv" "$tmp/small.json"
value=$(head -c 70000 /dev/zero | tr '\0' v)
capped "jobj with a 70 KB value" "is over 64 KiB" "$top/build/jobj" "fleet_vars.X=$value"

# The usual sizes.
check "manifest_caps: jget reads a small document" test "$("$top/build/jget" provenance.kernel_label "$tmp/small.json")" = 7.0
check "manifest_caps: attach-manifest writes a manifest from small inputs" \
	sh -c "'$tmp/am' '$tmp/files.tsv' '$tmp/small.json' | grep -q '\"a.txt\"'"
check "manifest_caps: jobj takes a 1 KB value" \
	sh -c "'$top/build/jobj' 'fleet_vars.X=$(head -c 1000 /dev/zero | tr '\0' v)' | grep -q vvvv"
tests_done
