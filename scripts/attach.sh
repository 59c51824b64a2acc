#!/bin/sh
# make attach RUN=DIR: RUN/attachment.tar.gz for a mail or a bug report:
# report.txt and report.md, the SVG charts and flame graphs, the raw JSON,
# manifest.json (versions, kernel configs, every command line, a file
# list with sizes and sha256), kernel config excerpts, the lab's source at
# the run's revision (source.tar.xz, as git archive gives it, with the
# run's uncommitted changes as source-dirty.patch when it had any),
# reproduce.sh, which reruns the same matrix from that source or from a
# checkout, and repro-min.c, the one-file reproducer, with its output on
# the run's kernels (logs/repro-min-*.txt, written by the runner).
#
# ATTACH_MAX_KB (default 1024): the archive must stay under this; optional
# pieces (flame graphs, full kernel configs) are dropped, largest first,
# until it fits, and listed in manifest.json and on stderr; the source is
# never dropped.  ATTACH_FULL_CONFIG=1 adds whole kernel configs (not just
# excerpts).  ATTACH_FILE_MAX_KB (default 65536): a file of the run over
# this is left out.
#
# build/attach (lab/attach/) decides: which files are the run's own (an
# attachment goes to a public list), the config excerpts, the revision,
# reproduce.sh's text, what to drop.  This script copies, archives, packs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/report-lib.sh
. "$here/report-lib.sh"
report_args "${1:-}"
[ -x "$top/build/attach" ] || die "no $top/build/attach (make attach's decisions): make build-all"
[ -x "$top/build/attach-manifest" ] || die "no $top/build/attach-manifest (the manifest's writer): make build-all"
"$top/build/attach" limits

# The report is always regenerated: the attachment must match the data.
"$here/report.sh" "$dir" >/dev/null

base=$(basename "$dir")
name=preemptlab-$base
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
st=$tmp/$name
mkdir -p "$st"

# report.sh has just written the reports: they are the run's own files.
cp "$dir/report.txt" "$dir/report.md" "$st/"
[ -f "$dir/report.html" ] && cp "$dir/report.html" "$st/"
# The rest of the run's own files, as build/attach lists them (it writes
# the kernel config excerpts itself).
"$top/build/attach" stage "$dir" "$st" "${PREEMPTLAB_CACHE:-$top/kernels/cache}" > "$tmp/take.tsv"
tab=$(printf '\t')
while IFS=$tab read -r src dest; do
	cp -P "$src" "$st/$dest"
done < "$tmp/take.tsv"

# The make line reproduce.sh runs: build/report quotes every value of it
# for sh.
cmd=$("$top/build/report" --reproduce-command "$dir")
# The lab's source at the run's revision, as git archive gives it, and
# the run's uncommitted changes beside it when it kept them.
rev=$("$top/build/attach" rev "$st"/runs/*.json)
src_commit="" src_sha=""
if [ "$rev" != unknown ] && src_commit=$(git -C "$top" rev-parse --verify -q "${rev%-dirty}^{commit}" 2>/dev/null); then
	git -C "$top" archive --format=tar --prefix=preemptlab-src/ "$src_commit" | xz -T1 -c > "$st/source.tar.xz"
	src_sha=$(sha256sum "$st/source.tar.xz" | cut -d' ' -f1)
else
	src_commit=""
fi
"$top/build/attach" source "$dir" "$rev" "$src_commit" "$top" > "$tmp/source"
{ read -r dirty; read -r patch; IFS= read -r src_note; } < "$tmp/source"
[ -z "$patch" ] || cp "$dir/logs/lab-dirty.patch" "$st/$patch"

# The one-file reproducer, and its output on the run's kernels when the
# runner made it; a host run made before it did gets this host's, if it is
# the same kernel.
cp "$top/repro/repro-min.c" "$st/"
if ! ls "$st"/logs/repro-min-*.txt >/dev/null 2>&1; then
	if "$top/build/jget" provenance.kernel_release "$st"/runs/*.json 2>/dev/null | grep -qxF "$(uname -r)" &&
		[ -x "$top/build/repro-min" ]; then
		mkdir -p "$st/logs"
		"$here/repro-min.sh" > "$st/logs/repro-min-host-now.txt" 2>&1 ||
			note "repro-min failed on this host: $st/logs/repro-min-host-now.txt"
	else
		note "no repro-min output for this run's kernels (run made before the runner ran it); repro-min.c is enclosed alone"
	fi
fi

# reproduce.sh: that line in a checkout at the same revision, or in the
# enclosed source.
"$top/build/attach" reproduce "$base" "$rev" "$src_sha" "$patch" "$cmd" > "$st/reproduce.sh"
chmod +x "$st/reproduce.sh"

dropped=""
# The machine's own emulator (its row of the architecture table).
native_qemu=$(arch_info "" qemu)
write_manifest() {
	# One name a line, read whole (a name may hold spaces or glob
	# characters; build/attach kept out those with a newline); a file that
	# cannot be read fails the attachment instead of being listed empty.
	(cd "$st" && find . -type f ! -name manifest.json) | sed 's|^\./||' | LC_ALL=C sort |
	while IFS= read -r f; do
		fb=$(wc -c < "$st/$f") || die "cannot read $f in the attachment"
		fs=$(sha256sum < "$st/$f") || die "cannot read $f in the attachment"
		printf '%s\t%s\t%s\n' "$f" "$fb" "${fs%% *}"
	done > "$tmp/files.tsv"
	"$top/build/attach-manifest" --run "$base" --rev "$rev" --reproduce "$cmd" \
		--made "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --dropped "$dropped" \
		--perf "$("${PERF:-perf}" --version 2>/dev/null || echo none)" \
		--qemu "$("$native_qemu" --version 2>/dev/null | head -n 1 || echo none)" \
		--compiler "$(${CC:-cc} --version 2>/dev/null | head -n 1 || echo none)" \
		--host "$(uname -srvm)" --files "$tmp/files.tsv" \
		--src-commit "$src_commit" --src-sha "$src_sha" --src-note "$src_note" \
		--dirty "$dirty" --dirty-patch "$patch" \
		"$st"/runs/*.json > "$st/manifest.json"
}

# Until it fits: build/attach drops the largest optional file (and says
# so), or stops naming the largest files.
out=$dir/attachment.tar.gz
while :; do
	write_manifest
	tar -C "$tmp" -czf "$tmp/a.tar.gz" "$name"
	size=$(wc -c < "$tmp/a.tar.gz")
	victim=$("$top/build/attach" fit "$st" "$size")
	[ -n "$victim" ] || break
	dropped="$dropped $victim"
done
# Through a file beside it and rename(): a link at attachment.tar.gz is
# replaced, never written through.
t=$(tmp_beside "$out")
cat "$tmp/a.tar.gz" > "$t"
put_in_place "$t" "$out"
echo "$out ($((size / 1024)) KiB, $(tar -tzf "$out" | grep -c -v '/$') files)"
