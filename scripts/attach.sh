#!/bin/sh
# make attach RUN=DIR: RUN/attachment.tar.gz for a mail or a bug report:
# report.txt and report.md, the SVG charts and flame graphs, the raw JSON,
# manifest.json (versions, kernel configs, every command line, a file
# list with sizes and sha256), kernel config excerpts and reproduce.sh,
# which reruns the same matrix from a clean checkout.
#
# ATTACH_MAX_KB (default 1024): the archive must stay under this.  Optional
# pieces (per-cell flame graphs, then the other flame graphs, then full
# kernel configs) are dropped, largest first, until it fits; what was
# dropped is listed in manifest.json and on stderr.
# ATTACH_FULL_CONFIG=1 adds whole kernel configs (not just excerpts).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/common.sh
. "$here/common.sh"
# shellcheck source=scripts/report-lib.sh
. "$here/report-lib.sh"
report_args "${1:-}"
max_kb=${ATTACH_MAX_KB:-1024}
case $max_kb in
'' | *[!0-9]*) die "ATTACH_MAX_KB=$max_kb is not a number of KiB" ;;
esac
command -v jq >/dev/null || die "jq is needed for the manifest: apt-get install jq"

# The report is always regenerated: the attachment must match the data.
"$here/report.sh" "$dir" >/dev/null

name=preemptlab-$(basename "$dir")
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
st=$tmp/$name
mkdir -p "$st/runs" "$st/kernel-configs"

cp "$dir/report.txt" "$dir/report.md" "$st/"
cp "$dir"/runs/*.json "$st/runs/"
[ -f "$dir/manifest.json" ] && cp "$dir/manifest.json" "$st/bench-manifest.json"
[ -f "$dir/summary.txt" ] && cp "$dir/summary.txt" "$st/"
for f in "$dir"/*.svg; do
	[ -f "$f" ] && cp "$f" "$st/"
done
# Small logs a reader needs: what failed or was skipped, the uncontended
# costs the report quotes (bufmicro) and PostgreSQL's non-default settings.
if [ -d "$dir/logs" ]; then
	for f in "$dir"/logs/failed*.txt "$dir"/logs/skipped.txt "$dir"/logs/bufmicro*.json \
		"$dir"/logs/postgresql-*.conf; do
		[ -f "$f" ] && { mkdir -p "$st/logs"; cp "$f" "$st/logs/"; }
	done
fi

# Kernel configs: the bench manifest names them (guest kernels); the host's
# is in /boot.  Excerpts keep what matters to this regression.
configs=$tmp/configs.txt
: > "$configs"
if [ -f "$dir/manifest.json" ]; then
	jq -r '.. | objects | .config? // empty | strings' "$dir/manifest.json" >> "$configs" 2>/dev/null || true
fi
# A release is a document's word: one that is not a plain file name (a
# path, a glob) names no config of this host.
jq -r 'select(.provenance.kernel_label == "host") | .provenance.kernel_release' "$dir"/runs/*.json 2>/dev/null |
	sort -u | while IFS= read -r rel; do
	case $rel in '' | .* | *[!A-Za-z0-9._+~-]*) continue ;; esac
	if [ -f "/boot/config-$rel" ]; then echo "/boot/config-$rel" >> "$configs"; fi
done
sort -u "$configs" -o "$configs"
while IFS= read -r c; do
	[ -f "$c" ] || continue
	base=$(basename "$(dirname "$c")")-$(basename "$c")
	grep -E '^(# )?CONFIG_(PREEMPT|HZ|NO_HZ|RSEQ|SCHED_|TRANSPARENT_HUGEPAGE|HUGETLB|NUMA|KVM_GUEST|PARAVIRT|LOCALVERSION|CC_VERSION_TEXT)' "$c" \
		> "$st/kernel-configs/$base.excerpt" || true
	[ "${ATTACH_FULL_CONFIG:-0}" = 1 ] && cp "$c" "$st/kernel-configs/$base"
done < "$configs"
rmdir "$st/kernel-configs" 2>/dev/null || true

# reproduce.sh: the same make line in a checkout at the same revision.
# Readers run it as root, and the documents it is made from may come from a
# guest, so nothing of them goes in unchecked: build/report quotes every
# value of the make line for sh, and the revision must look like one.
cmd=$("$top/build/report" --reproduce-command "$dir")
rev=$(jq -r '.provenance.lab_revision // empty' "$dir"/runs/*.json | sort -u | head -n 1)
case $rev in
*[!A-Za-z0-9._+-]*)
	note "the documents' lab_revision is not a git revision (characters outside [A-Za-z0-9._+-]); reproduce.sh says unknown"
	rev=unknown ;;
esac
# The run's name goes into a comment line: one line of plain characters.
runname=$(printf '%s' "$(basename "$dir")" | tr -c 'A-Za-z0-9._+:@=,-' '_')
cat > "$st/reproduce.sh" <<REPRO
#!/bin/sh
# Reruns the matrix of $runname from a clean preemptlab checkout.
# Usage: sh reproduce.sh [PATH_TO_PREEMPTLAB_CHECKOUT]   (as root, Debian 12)
set -eu
rev='${rev:-unknown}'
cd "\${1:-.}"
if [ ! -f Makefile ] || [ ! -d lab/report ]; then
	echo "reproduce.sh: run it inside a preemptlab checkout, or give its path" >&2
	exit 1
fi
if command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1; then
	now=\$(git describe --always --dirty 2>/dev/null || echo unknown)
	case \$now in
	"\${rev%-dirty}"*) ;;
	*) echo "reproduce.sh: checkout is at \$now; the results came from \$rev" \\
		"(git checkout \${rev%-dirty} for the same code)" >&2 ;;
	esac
fi
if [ "\$(id -u)" = 0 ]; then ./configure --install-deps; else ./configure; fi
make
$cmd
REPRO
chmod +x "$st/reproduce.sh"

# optional: files that may be dropped to fit, in the order they go.
optional() {
	for f in "$st"/flame-C*.svg; do [ -f "$f" ] && echo "$f"; done
	for f in "$st"/flame-*.svg; do
		case $f in "$st"/flame-C*) ;; *) [ -f "$f" ] && echo "$f" ;; esac
	done
	for f in "$st"/kernel-configs/*; do
		case $f in *.excerpt) ;; *) [ -f "$f" ] && echo "$f" ;; esac
	done
}

dropped=""
write_manifest() {
	files=$(cd "$st" && find . -type f ! -name manifest.json | sed 's|^\./||' | sort)
	for f in $files; do
		printf '%s\t%s\t%s\n' "$f" "$(wc -c < "$st/$f")" "$(sha256sum "$st/$f" | cut -d' ' -f1)"
	done > "$tmp/files.tsv"
	jq -s --arg run "$(basename "$dir")" --arg rev "${rev:-unknown}" --arg cmd "$cmd" \
		--arg made "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --arg dropped "$dropped" \
		--arg perf "$("${PERF:-perf}" --version 2>/dev/null || echo none)" \
		--arg qemu "$(qemu-system-x86_64 --version 2>/dev/null | head -n 1 || echo none)" \
		--arg cc "$(${CC:-cc} --version 2>/dev/null | head -n 1 || echo none)" \
		--arg host "$(uname -srvm)" --rawfile files "$tmp/files.tsv" \
		'{schema: "preemptlab.attachment/1", run: $run, lab_revision: $rev, made: $made,
		  reproduce: $cmd,
		  made_on: {host: $host, perf: $perf, qemu: $qemu, compiler: $cc},
		  kernels: (map(.provenance | {label: .kernel_label, release: .kernel_release,
		            version: .kernel_version, model: .preempt_model,
		            model_source: .preempt_model_source, virtualization}) | unique),
		  versions: (map(.provenance.versions) | unique),
		  command_lines: (map(.provenance.command_line) | unique),
		  dropped_to_fit: ($dropped | split(" ") | map(select(. != ""))),
		  files: ($files | split("\n") | map(select(. != "") | split("\t") |
		          {name: .[0], bytes: (.[1] | tonumber), sha256: .[2]}))}' \
		"$st"/runs/*.json > "$st/manifest.json"
}

out=$dir/attachment.tar.gz
while :; do
	write_manifest
	tar -C "$tmp" -czf "$tmp/a.tar.gz" "$name"
	size=$(wc -c < "$tmp/a.tar.gz")
	[ "$size" -lt $((max_kb * 1024)) ] && break
	victim=$(optional | while IFS= read -r f; do echo "$(wc -c < "$f") $f"; done | sort -rn | head -n 1 | cut -d' ' -f2-)
	if [ -z "$victim" ]; then
		die "attachment is $((size / 1024)) KiB even without optional files, over ATTACH_MAX_KB=$max_kb; raise it (ATTACH_MAX_KB=$((size / 1024 + 1)))"
	fi
	note "dropping $(basename "$victim") ($(wc -c < "$victim") bytes) to stay under $max_kb KiB"
	dropped="$dropped ${victim#"$st"/}"
	rm -f "$victim"
	sed -i "s|$(basename "$victim")|(dropped from the attachment) $(basename "$victim")|" "$st/report.md"
done
# Through a file beside it and rename(): a link at attachment.tar.gz is
# replaced, never written through.
t=$(tmp_beside "$out")
cat "$tmp/a.tar.gz" > "$t"
put_in_place "$t" "$out"
echo "$out ($((size / 1024)) KiB, $(tar -tzf "$out" | grep -c -v '/$') files)"
