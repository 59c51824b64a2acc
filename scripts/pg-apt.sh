# shellcheck shell=sh
# The private apt that fetches PostgreSQL majors (sourced, not run; needs
# common.sh).  It is the lab's private apt (scripts/private-apt.sh:
# signed-by, insecure repositories refused, Dir::Etc, Dir::State and
# Dir::Cache all under the cache), with a store of its own,
# $PREEMPTLAB_CACHE/pg/apt/<suite>/, so a PostgreSQL fetch never races a
# kernel fetch over the same lock and lists.  /etc/apt is never read or
# written: an apt-get install from trixie or sid there would replace the
# host's libc (FACTS.md, section 2).
#
# apt checks the lists' signature when it fetches them, and each .deb's
# hash when it downloads it.  Lists kept in the cache are read again and
# again for weeks: pgapt_verify_lists checks them again before every use,
# with gpgv against Debian's keyring and the Packages file's SHA256 from
# the signed text, so a list changed in the cache is refused, not trusted.

# The host's own architecture (its row of the architecture table): the
# fetched server runs here.
# shellcheck source=scripts/private-apt.sh
KAPT_ARCH=$(arch_info "" name) . "$(lab_top)/scripts/private-apt.sh"
# The kernels' store is apt/<suite>; PostgreSQL's is pg/apt/<suite>.
KAPT_LISTS=$PREEMPTLAB_CACHE/pg/apt

# The suites the archive offers PostgreSQL majors in, oldest first.
# shellcheck disable=SC2034 # read by the scripts that source this
PGAPT_SUITES="bookworm bookworm-backports trixie trixie-backports sid experimental"

# pgapt_list_file SUITE SUFFIX: the list file apt stored for SUITE whose
# name ends in SUFFIX (the mirror's host and path make up the rest).
pgapt_list_file() {
	for f in "$(kapt_dir "$1")/lists/"*"_dists_$1_$2"*; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

# pgapt_verify_lists SUITE: the stored InRelease carries a good signature
# from a key in PREEMPTLAB_KEYRING, and the stored Packages list (lz4 or
# plain, as apt keeps it) has the SHA256 that signed text gives for
# main/binary-$KAPT_ARCH/Packages.  Dies naming the file that fails.
pgapt_verify_lists() {
	d=$(kapt_dir "$1")
	rel=$(pgapt_list_file "$1" InRelease) ||
		die "no InRelease for $1 in $d/lists: rm $d/updated and rerun to fetch the lists"
	pkgs=$(pgapt_list_file "$1" "main_binary-${KAPT_ARCH}_Packages") ||
		die "no Packages list for $1 in $d/lists: rm $d/updated and rerun"
	signed=$d/InRelease.verified
	rm -f "$signed"
	if ! gpgv --keyring "$PREEMPTLAB_KEYRING" --output "$signed" "$rel" > "$d/gpgv.log" 2>&1; then
		sed 's/^/  /' "$d/gpgv.log" >&2
		rm -f "$signed"
		die "$rel: no good signature from $PREEMPTLAB_KEYRING (gpgv above): the list was changed or is not Debian's; remove $d and rerun"
	fi
	want=$(awk -v f="main/binary-$KAPT_ARCH/Packages" '/^SHA256:/ { s = 1; next } /^[^ ]/ { s = 0 } s && $3 == f { print $1 }' "$signed")
	[ -n "$want" ] || die "$rel names no SHA256 for main/binary-$KAPT_ARCH/Packages"
	have=$(/usr/lib/apt/apt-helper cat-file "$pkgs" | sha256sum | cut -d' ' -f1)
	[ "$have" = "$want" ] ||
		die "$pkgs does not match the signed $1 InRelease (sha256 $have, signed $want): the list was changed; remove $d and rerun"
}

# pgapt_ready SUITE: lists fresh enough (kapt_update) and verified.
pgapt_ready() {
	kapt_update "$1" >&2
	pgapt_verify_lists "$1"
}

# pgapt_majors SUITE: "major version" for every postgresql-NN server
# package in SUITE's lists, numerically.
pgapt_majors() {
	pm_names=$(kapt "$1" apt-cache search --names-only '^postgresql-[0-9]+$' 2>/dev/null |
		cut -d' ' -f1 | grep -E '^postgresql-[0-9]+$' || true)
	[ -n "$pm_names" ] || return 0
	# shellcheck disable=SC2086 # one argument per package name
	kapt "$1" apt-cache madison $pm_names 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $1); gsub(/ /, "", $2); sub(/^postgresql-/, "", $1); if (!seen[$1]++) print $1, $2 }' |
		sort -n
}
