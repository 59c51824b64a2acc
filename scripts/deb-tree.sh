# shellcheck shell=sh
# What a .deb unpacks to, and whether a directory still holds exactly that
# (sourced, not run; needs common.sh).  An unpacked package or a
# PostgreSQL root made from packages is reused for weeks from the cache,
# and a .deb is checked against the signed lists, but what was unpacked
# from it was not (issue 35, N2): a changed wrapper, binary or library
# ran.  Here the .deb (verified first, by the caller) is the reference:
# its own md5sums for the regular files (dpkg's, in the control archive;
# the few files they omit, conffiles, hashed from the data archive) and
# its data archive's listing for the symbolic links.  Nothing stored
# beside the unpacked tree is trusted: whoever could change the tree could
# change that too.
#
# A tree is "f<TAB>MD5<TAB>PATH" and "l<TAB>TARGET<TAB>PATH" lines (PATH
# relative, no ./), sorted; anything else in a directory (a FIFO, a
# device) is an "o" line, which no package has.

TAB=$(printf '\t')

# debtree_expect DEB: the tree dpkg -x DEB makes.
debtree_expect() {
	dte_w=$(mktemp -d)
	# tar fails when there is no md5sums (a package of no files).
	dpkg-deb --ctrl-tarfile "$1" | tar -xO ./md5sums > "$dte_w/md5sums" 2>/dev/null || : > "$dte_w/md5sums"
	# tar -tv: "MODE OWNER SIZE DATE TIME ./PATH", "... ./PATH -> TARGET"
	# for a symbolic link, "... ./PATH link to ./OTHER" for a hard link.
	dpkg-deb --fsys-tarfile "$1" | tar -tv |
		awk -v OFS='\t' '{
			t = substr($1, 1, 1); l = $0
			for (i = 0; i < 5; i++) sub(/^[^ ]+ +/, "", l)
			sub(/^\.\//, "", l)
			if (t == "l") { n = index(l, " -> "); print "l", substr(l, n + 4), substr(l, 1, n - 1) }
			else if (t == "h") { n = index(l, " link to "); o = substr(l, n + 9); sub(/^\.\//, "", o); print "h", o, substr(l, 1, n - 1) }
			else if (t == "-") print "-", "", l
		}' > "$dte_w/list" || { rm -rf "$dte_w"; die "cannot list $1 (dpkg-deb --fsys-tarfile)"; }
	# Regular files md5sums omits: extracted and hashed in one pass.
	awk -F '\t' 'NR == FNR { sub(/^[0-9a-f]+  /, ""); have[$0] = 1; next }
		$1 == "-" && !($3 in have) { print "./" $3 }' "$dte_w/md5sums" "$dte_w/list" > "$dte_w/omitted"
	if [ -s "$dte_w/omitted" ]; then
		mkdir "$dte_w/x"
		dpkg-deb --fsys-tarfile "$1" | tar -x -C "$dte_w/x" -T "$dte_w/omitted" ||
			{ rm -rf "$dte_w"; die "cannot extract from $1"; }
		(cd "$dte_w/x" && sed 's|^\./||' "$dte_w/omitted" | while IFS= read -r p; do
			s=$(md5sum < "$p") && printf '%s  %s\n' "${s%% *}" "$p"
		done) >> "$dte_w/md5sums"
	fi
	# A hard link has its target's content.
	awk -F '\t' -v OFS='\t' 'NR == FNR { m = substr($0, 1, 32); p = substr($0, 35); sum[p] = m; next }
		$1 == "-" { print "f", ($3 in sum ? sum[$3] : "missing"), $3 }
		$1 == "h" { print "f", ($2 in sum ? sum[$2] : ($3 in sum ? sum[$3] : "missing")), $3 }
		$1 == "l" { print }' "$dte_w/md5sums" "$dte_w/list" | LC_ALL=C sort -t "$TAB" -k3
	rm -rf "$dte_w"
}

# debtree_actual DIR: the tree DIR holds.
debtree_actual() {
	(
		cd "$1" || exit 1
		find . ! -type d ! -type f ! -type l -printf 'o\t-\t%P\n'
		find . -type l -printf 'l\t%l\t%P\n'
		find . -type f -exec md5sum {} + | sed "s|^\\([0-9a-f]*\\)  \\./|f$TAB\\1$TAB|"
	) | LC_ALL=C sort -t "$TAB" -k3
}

# debtree_diff EXPECT ACTUAL: the first differences of two trees, worded
# ("changed PATH", "missing PATH", "not of the packages PATH"); nothing
# when they are the same.
debtree_diff() {
	awk -F '\t' 'NR == FNR { want[$3] = $1 "\t" $2; next }
		{ got[$3] = 1
		  if (!($3 in want)) { print "not of the packages: " $3; next }
		  if (want[$3] != $1 "\t" $2) print "changed: " $3 }
		END { for (p in want) if (!(p in got)) print "missing: " p }' "$1" "$2" | LC_ALL=C sort | head -n 5
}
