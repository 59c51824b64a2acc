#!/bin/sh
# make attach RUN=DIR: RUN/attachment.tar.gz for a mail or a bug report:
# report.txt and report.md, the SVG charts and flame graphs, the raw JSON,
# manifest.json (versions, kernel configs, every command line, a file
# list with sizes and sha256), kernel config excerpts, the lab's source at
# the run's revision (source.tar.gz, as git archive gives it, with the
# run's uncommitted changes as source-dirty.patch when it had any),
# reproduce.sh, which reruns the same matrix from that source or from a
# checkout, and repro-min.c, the one-file reproducer, with its output on
# the run's kernels (logs/repro-min-*.txt, written by the runner).
#
# ATTACH_MAX_KB (default 1024): the archive must stay under this.  Optional
# pieces (per-cell flame graphs, then the other flame graphs, then full
# kernel configs) are dropped, largest first, until it fits; what was
# dropped is listed in manifest.json and on stderr.  The source is never
# dropped: when the rest does not fit, the error lists the largest files.
# ATTACH_FULL_CONFIG=1 adds whole kernel configs (not just excerpts).
# ATTACH_FILE_MAX_KB (default 65536): a file of the run over this is left
# out (it would not fit anyway; a sparse or endless one must not be read).
#
# An attachment goes to a public list, so only the run's own files go in:
# regular files whose real path is inside the run directory (no symlink
# out of it, no FIFO or device, which hung or never ended), and kernel
# configs only from the lab's kernel cache or this host's /boot for the
# run's own release; a manifest naming /etc/passwd names no config.
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
file_max_kb=${ATTACH_FILE_MAX_KB:-65536}
case $file_max_kb in
'' | *[!0-9]*) die "ATTACH_FILE_MAX_KB=$file_max_kb is not a number of KiB" ;;
esac
[ -x "$top/build/attach-manifest" ] || die "no $top/build/attach-manifest (the manifest's writer): make build-all"

# The report is always regenerated: the attachment must match the data.
"$here/report.sh" "$dir" >/dev/null

dir_real=$(realpath "$dir")

# shown NAME: NAME for a message, each byte outside printable ASCII a '?'
# (a file name may carry escape sequences or a newline).
shown() { printf '%s' "$1" | LC_ALL=C tr -c '[:print:]' '?'; }
# own_file FILE [UNDER]: FILE is a regular file (not a link, FIFO or
# device) of one link whose real path is inside UNDER (default: the run
# directory), of at most ATTACH_FILE_MAX_KB, and whose name has no
# control character; otherwise say why it is left out.
own_file() {
	of_under=${2:-$dir_real}
	[ -e "$1" ] || [ -L "$1" ] || return 1
	if [ -L "$1" ] || [ ! -f "$1" ]; then
		note "left out of the attachment: $(shown "$(basename "$1")") is not a regular file (a link, FIFO or device)"
		return 1
	fi
	# The manifest lists one name a line, its fields split by tabs: a
	# name with a newline, a tab or another control character has no
	# place there (spaces and glob characters are fine, and kept).
	case $(basename "$1") in
	*[[:cntrl:]]*)
		note "left out of the attachment: '$(shown "$(basename "$1")")' has a control character (a newline, a tab, an escape) in its name"
		return 1 ;;
	esac
	# A hard link passes the realpath test below wherever its other name
	# is (ln /etc/shadow RUN/logs/failed-x.txt): a run's own file has
	# one link.
	if [ "$(stat -c %h "$1")" -gt 1 ]; then
		note "left out of the attachment: $(shown "$(basename "$1")") has $(stat -c %h "$1") hard links, so it may be any file of this machine, not the run's own"
		return 1
	fi
	case $(realpath "$1") in
	"$of_under"/*) ;;
	*) note "left out of the attachment: $(basename "$1") lies outside $of_under"; return 1 ;;
	esac
	if [ "$(stat -c %s "$1")" -gt $((file_max_kb * 1024)) ]; then
		note "left out of the attachment: $(shown "$(basename "$1")") is over ATTACH_FILE_MAX_KB=$file_max_kb"
		return 1
	fi
}
# take FILE DEST: copy FILE to DEST when it is the run's own.
take() { if own_file "$1"; then cp -P "$1" "$2"; fi; }

name=preemptlab-$(basename "$dir")
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
st=$tmp/$name
mkdir -p "$st/runs" "$st/kernel-configs"

# report.sh has just written the reports: they are the run's own files.
cp "$dir/report.txt" "$dir/report.md" "$st/"
[ -f "$dir/report.html" ] && cp "$dir/report.html" "$st/"
for f in "$dir"/runs/*.json; do take "$f" "$st/runs/"; done
ls "$st"/runs/*.json > /dev/null 2>&1 || die "no run document of $dir is a regular file inside it"
take "$dir/manifest.json" "$st/bench-manifest.json"
take "$dir/summary.txt" "$st/"
for f in "$dir"/*.svg; do
	take "$f" "$st/"
done
# Small logs a reader needs: what failed or was skipped, the uncontended
# costs the report quotes (bufmicro) and PostgreSQL's non-default settings.
if [ -d "$dir/logs" ]; then
	for f in "$dir"/logs/failed*.txt "$dir"/logs/skipped.txt "$dir"/logs/bufmicro*.json \
		"$dir"/logs/postgresql-*.conf "$dir"/logs/repro-min-*.txt; do
		own_file "$f" && { mkdir -p "$st/logs"; cp -P "$f" "$st/logs/"; }
	done
fi

# Kernel configs: the bench manifest names them (guest kernels); the host's
# is in /boot.  Excerpts keep what matters to this regression.
configs=$tmp/configs.txt
: > "$configs"
if [ -f "$st/bench-manifest.json" ]; then
	"$top/build/jget" -a config "$st/bench-manifest.json" >> "$configs" 2>/dev/null || true
fi
# A release is a document's word: one that is not a plain file name (a
# path, a glob) names no config of this host.
"$top/build/jget" provenance.kernel_label,provenance.kernel_release "$st"/runs/*.json 2>/dev/null |
	awk -F '\t' '$1 == "host" { print $2 }' | sort -u | while IFS= read -r rel; do
	case $rel in '' | .* | *[!A-Za-z0-9._+~-]*) continue ;; esac
	if [ -f "/boot/config-$rel" ]; then echo "/boot/config-$rel" >> "$configs"; fi
done
sort -u "$configs" -o "$configs"
# Configs only from the lab's own kernel cache (the manifest's) or /boot
# (the host's, named by its release just above).
cache_real=$(realpath "${PREEMPTLAB_CACHE:-$top/kernels/cache}" 2>/dev/null || echo /nonexistent)
while IFS= read -r c; do
	case $c in
	/boot/config-*) own_file "$c" /boot || continue ;;
	*) own_file "$c" "$cache_real" || continue ;;
	esac
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
rev=$("$top/build/jget" provenance.lab_revision "$st"/runs/*.json | sed '/^$/d' | sort -u | head -n 1)
case $rev in
*[!A-Za-z0-9._+-]*)
	note "the documents' lab_revision is not a git revision (characters outside [A-Za-z0-9._+-]); reproduce.sh says unknown"
	rev=unknown ;;
esac

# The lab's source at the run's revision, as git archive gives it.  A run
# from a tree with uncommitted changes ran no commit: run-plan.sh kept
# them (logs/lab-dirty.patch) and they go in beside it; where they were not
# kept, the manifest says the source lacks them.
src_commit="" src_sha="" src_note="" dirty=false patch=""
case $rev in *-dirty) dirty=true ;; esac
if [ "${rev:-unknown}" = unknown ]; then
	src_note="the run's revision is unknown: source not enclosed"
elif ! src_commit=$(git -C "$top" rev-parse --verify -q "${rev%-dirty}^{commit}" 2>/dev/null); then
	src_commit=""
	src_note="revision ${rev%-dirty} is not in $top (not a git checkout, or not fetched): source not enclosed"
else
	git -C "$top" archive --format=tar --prefix=preemptlab-src/ "$src_commit" | gzip -n -9 > "$st/source.tar.gz"
	src_sha=$(sha256sum "$st/source.tar.gz" | cut -d' ' -f1)
	if [ "$dirty" = true ]; then
		if [ -s "$dir/logs/lab-dirty.patch" ] && own_file "$dir/logs/lab-dirty.patch"; then
			cp "$dir/logs/lab-dirty.patch" "$st/source-dirty.patch"
			patch=source-dirty.patch
			src_note="the run's tree had uncommitted changes: source-dirty.patch holds them as they were when the run started; reproduce.sh applies it"
		else
			src_note="the run's tree had uncommitted changes that were not recorded: source.tar.gz is commit ${rev%-dirty} without them"
		fi
	fi
fi
[ -n "$src_note" ] && note "$src_note"

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

# The run's name goes into a comment line: one line of plain characters.
runname=$(printf '%s' "$(basename "$dir")" | tr -c 'A-Za-z0-9._+:@=,-' '_')
cat > "$st/reproduce.sh" <<REPRO
#!/bin/sh
# Reruns the matrix of $runname (as root, Debian 12).
# Usage: sh reproduce.sh [CHECKOUT]
#   With a preemptlab checkout (the argument, or PREEMPTLAB_CHECKOUT) it
#   runs there.  Without one it unpacks source.tar.gz from beside this
#   script into PREEMPTLAB_SRC (default ./preemptlab-src), checks its
#   sha256, applies source-dirty.patch if there is one, and runs there.
# Then: ./configure, make, and the run's own make bench line.
set -eu
rev='${rev:-unknown}'
src_sha='$src_sha'
patch='$patch'
here=\$(cd "\$(dirname "\$0")" && pwd)
checkout=\${1:-\${PREEMPTLAB_CHECKOUT:-}}
if [ -n "\$checkout" ]; then
	cd "\$checkout"
	if [ ! -f Makefile ] || [ ! -d lab/report ]; then
		echo "reproduce.sh: \$checkout is not a preemptlab checkout" >&2
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
else
	if [ -z "\$src_sha" ] || [ ! -f "\$here/source.tar.gz" ]; then
		echo "reproduce.sh: this attachment holds no source (see manifest.json's source.note);" \\
			"give a preemptlab checkout: sh reproduce.sh PATH" >&2
		exit 1
	fi
	got=\$(sha256sum "\$here/source.tar.gz" | cut -d' ' -f1)
	if [ "\$got" != "\$src_sha" ]; then
		echo "reproduce.sh: source.tar.gz has sha256 \$got, not \$src_sha: damaged or altered" >&2
		exit 1
	fi
	dest=\${PREEMPTLAB_SRC:-\$PWD/preemptlab-src}
	if [ -f "\$dest/.lab-revision" ]; then
		echo "reproduce.sh: using the source already unpacked in \$dest"
	else
		if [ -e "\$dest" ] && [ -n "\$(ls -A "\$dest")" ]; then
			echo "reproduce.sh: \$dest exists and is not empty; set PREEMPTLAB_SRC to another directory" >&2
			exit 1
		fi
		mkdir -p "\$dest"
		tar -xzf "\$here/source.tar.gz" -C "\$dest" --strip-components=1
		if [ -n "\$patch" ]; then
			# git apply works outside a repository and takes binary diffs.
			if command -v git >/dev/null; then (cd "\$dest" && git apply "\$here/\$patch")
			else (cd "\$dest" && patch -p1 < "\$here/\$patch"); fi
			# A run of this tree encloses the same patch (run-plan.sh).
			cp "\$here/\$patch" "\$dest/.lab-dirty.patch"
		fi
		# The binaries stamp this revision into their documents (no .git here).
		echo "\$rev" > "\$dest/.lab-revision"
		echo "reproduce.sh: source of \$rev unpacked in \$dest"
	fi
	cd "\$dest"
fi
if [ "\$(id -u)" = 0 ]; then ./configure --install-deps; else ./configure; fi
make -j"\$(nproc)"
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
# The machine's own emulator (its row of the architecture table).
native_qemu=$(arch_info "" qemu)
write_manifest() {
	# One name a line, read whole (a name may hold spaces or glob
	# characters; own_file kept out those with a newline); a file that
	# cannot be read fails the attachment instead of being listed empty.
	(cd "$st" && find . -type f ! -name manifest.json) | sed 's|^\./||' | LC_ALL=C sort |
	while IFS= read -r f; do
		fb=$(wc -c < "$st/$f") || die "cannot read $(shown "$f") in the attachment"
		fs=$(sha256sum < "$st/$f") || die "cannot read $(shown "$f") in the attachment"
		printf '%s\t%s\t%s\n' "$f" "$fb" "${fs%% *}"
	done > "$tmp/files.tsv"
	"$top/build/attach-manifest" --run "$(basename "$dir")" --rev "${rev:-unknown}" --reproduce "$cmd" \
		--made "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --dropped "$dropped" \
		--perf "$("${PERF:-perf}" --version 2>/dev/null || echo none)" \
		--qemu "$("$native_qemu" --version 2>/dev/null | head -n 1 || echo none)" \
		--compiler "$(${CC:-cc} --version 2>/dev/null | head -n 1 || echo none)" \
		--host "$(uname -srvm)" --files "$tmp/files.tsv" \
		--src-commit "$src_commit" --src-sha "$src_sha" --src-note "$src_note" \
		--dirty "$dirty" --dirty-patch "$patch" \
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
		big=$(cd "$st" && find . -type f -exec wc -c {} + | grep -v ' total$' | sort -rn | head -n 5 |
			awk '{ printf "%s%s (%d KiB)", (NR > 1 ? ", " : ""), substr($2, 3), $1 / 1024 }')
		die "attachment is $((size / 1024)) KiB even without optional files, over ATTACH_MAX_KB=$max_kb; the largest files (before compression): $big; raise the limit (ATTACH_MAX_KB=$((size / 1024 + 1))) or leave such files out of the run"
	fi
	note "dropping $(basename "$victim") ($(wc -c < "$victim") bytes) to stay under $max_kb KiB"
	dropped="$dropped ${victim#"$st"/}"
	rm -f "$victim"
	# The name as sed's literal text: its own characters may be sed's
	# (a '|' would end the pattern and let the rest be sed flags).
	vb=$(basename "$victim" | sed 's/[][\\.*^$|&/]/\\&/g')
	sed -i "s|$vb|(dropped from the attachment) $vb|" "$st/report.md"
done
# Through a file beside it and rename(): a link at attachment.tar.gz is
# replaced, never written through.
t=$(tmp_beside "$out")
cat "$tmp/a.tar.gz" > "$t"
put_in_place "$t" "$out"
echo "$out ($((size / 1024)) KiB, $(tar -tzf "$out" | grep -c -v '/$') files)"
