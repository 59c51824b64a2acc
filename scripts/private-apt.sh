# shellcheck shell=sh
# The private apt (sourced, not run; needs common.sh): Debian packages of
# any suite (trixie, sid, backports) for the kernels and PostgreSQL,
# without ever reading or writing /etc/apt (an apt-get install from sid
# there would replace the host's libc: FACTS.md, section 2).
#
# Every apt call goes through kapt, which points apt at a sources.list,
# lists and archive cache inside the store: KAPT_LISTS/<suite>/.
# Signatures stay checked: each source line names the keyring with
# signed-by and insecure repositories stay refused.
#
# Set before sourcing:
#   KAPT_ARCH   the Debian architecture whose packages are fetched
#               (default this machine's); another than the catalog's base
#               architecture has lists and a cache of its own
#   KAPT_STORE  the store of the suites' lists and archive caches, under
#               $PREEMPTLAB_CACHE (default apt; PostgreSQL's fetches keep
#               their own, pg/apt and pg/src-apt, so that they never race a
#               kernel fetch over one lock, and a deb-src line beside the
#               binary lists would make every binary fetch read it too)
#   KAPT_TYPE   deb (default) or deb-src: binary or source lists
#   KAPT_PLAN   the build/plan whose architecture table is read (default
#               this checkout's)
# The .debs themselves are kept in $PREEMPTLAB_CACHE/debs.

PREEMPTLAB_CACHE=${PREEMPTLAB_CACHE:-$(lab_top)/kernels/cache}
PREEMPTLAB_MIRROR=${PREEMPTLAB_MIRROR:-http://deb.debian.org/debian}
PREEMPTLAB_KEYRING=${PREEMPTLAB_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
# Package lists younger than this are reused without asking the archive.
PREEMPTLAB_APT_MAX_AGE=${PREEMPTLAB_APT_MAX_AGE:-86400}
# When the archive cannot be reached, lists up to this old still serve (a
# kernel's security fixes are not older than a fortnight's lists); older
# ones are refused.
PREEMPTLAB_APT_STALE_MAX=${PREEMPTLAB_APT_STALE_MAX:-1209600}
KAPT_PLAN=${KAPT_PLAN:-$(lab_plan)} || exit 2
KAPT_ARCH=$("$KAPT_PLAN" --arch-info "${KAPT_ARCH:-}" name) || exit 2
KAPT_LISTS=$PREEMPTLAB_CACHE/${KAPT_STORE:-apt}
KAPT_TYPE=${KAPT_TYPE:-deb}

# kapt_base: KAPT_ARCH is the catalog's base architecture (amd64).
kapt_base() { [ "$("$KAPT_PLAN" --arch-info "$KAPT_ARCH" catalog_base)" = 1 ]; }

# kapt_dir SUITE: the suite's store.
kapt_dir() {
	if kapt_base; then echo "$KAPT_LISTS/$1"
	else echo "$KAPT_LISTS/$1-$KAPT_ARCH"; fi
}

# kapt SUITE apt-get|apt-cache ARGS...
kapt() {
	d=$(kapt_dir "$1"); tool=$2; shift 2
	"$tool" -q \
		-o Dir::Etc::SourceList="$d/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null \
		-o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State::Lists="$d/lists" \
		-o Dir::State::Status=/dev/null \
		-o Dir::Cache="$d/cache" \
		-o APT::Architecture="$KAPT_ARCH" -o APT::Architectures="$KAPT_ARCH" \
		-o Acquire::AllowInsecureRepositories=false \
		-o Acquire::AllowDowngradeToInsecureRepositories=false \
		-o APT::Sandbox::User=root \
		"$@"
}

kapt_setup() {
	d=$(kapt_dir "$1")
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	[ -r "$PREEMPTLAB_KEYRING" ] ||
		die "no archive keyring at $PREEMPTLAB_KEYRING; apt-get install debian-archive-keyring (or set PREEMPTLAB_KEYRING)"
	mirror=$PREEMPTLAB_MIRROR
	case $1 in *-security) mirror=${PREEMPTLAB_SECURITY_MIRROR:-http://security.debian.org/debian-security} ;; esac
	line="$KAPT_TYPE [signed-by=$PREEMPTLAB_KEYRING] $mirror $1 main"
	kapt_base || line="$KAPT_TYPE [arch=$KAPT_ARCH signed-by=$PREEMPTLAB_KEYRING] $mirror $1 main"
	[ "$(cat "$d/sources.list" 2>/dev/null)" = "$line" ] || {
		echo "$line" > "$d/sources.list"
		rm -f "$d/updated"
	}
}

# kapt_update SUITE: refresh the suite's lists unless they are fresh; an
# archive that cannot be reached is fine when lists from before exist.
kapt_update() {
	kapt_setup "$1"
	d=$(kapt_dir "$1")
	age=0
	if [ -f "$d/updated" ]; then
		age=$(( $(date +%s) - $(stat -c %Y "$d/updated") ))
		[ "$age" -lt "$PREEMPTLAB_APT_MAX_AGE" ] && return 0
	fi
	note "refreshing the package list of $1 (private apt in $d)"
	# apt-get update exits 0 when it cannot reach the archive ("Err:",
	# "W: Failed to fetch", "old ones used instead"): that is no refresh.
	if kapt "$1" apt-get update >"$d/update.log" 2>&1 &&
		! grep -q -e '^W: GPG error' -e '^E:' -e 'NO_PUBKEY' -e '^Err:' -e '^W: Failed to fetch' \
			-e 'index files failed to download' "$d/update.log"; then
		touch "$d/updated"
	elif [ -f "$d/updated" ] && [ "$age" -lt "$PREEMPTLAB_APT_STALE_MAX" ]; then
		note "could not refresh $1 (see $d/update.log); using the lists from $(date -r "$d/updated" +%F)"
	elif [ -f "$d/updated" ]; then
		die "could not refresh $1 (see $d/update.log), and its lists from $(date -r "$d/updated" +%F) are older than $((PREEMPTLAB_APT_STALE_MAX / 86400)) days: reach the archive (PREEMPTLAB_MIRROR), or allow older lists with PREEMPTLAB_APT_STALE_MAX=SECONDS"
	else
		sed 's/^/  /' "$d/update.log" >&2
		grep -q -e 'GPG error' -e NO_PUBKEY -e 'is not signed' "$d/update.log" &&
			die "the $1 lists could not be verified with $PREEMPTLAB_KEYRING (above); upgrade debian-archive-keyring or set PREEMPTLAB_KEYRING"
		die "apt-get update of $1 failed (above); check the network or PREEMPTLAB_MIRROR"
	fi
}

# Lists kept in the cache are read again and again for weeks: apt checked
# them when it fetched them, kapt_verify_lists checks them again before
# every use, with gpgv against Debian's keyring and the list's SHA256 from
# the signed text, so a list changed in the cache is refused, not trusted.

# kapt_list_file SUITE SUFFIX: the list file apt stored for SUITE whose
# name ends in SUFFIX (the mirror's host and path make up the rest).
kapt_list_file() {
	for f in "$(kapt_dir "$1")/lists/"*"_dists_$1_$2"*; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

# kapt_verify_lists SUITE: the stored InRelease carries a good signature
# from a key in PREEMPTLAB_KEYRING, and the stored Packages list (Sources
# for deb-src; lz4 or plain, as apt keeps it) has the SHA256 that signed
# text gives for it.  Dies naming the file that fails.
kapt_verify_lists() {
	d=$(kapt_dir "$1")
	idx=main/binary-$KAPT_ARCH/Packages
	[ "$KAPT_TYPE" = deb ] || idx=main/source/Sources
	rel=$(kapt_list_file "$1" InRelease) ||
		die "no InRelease for $1 in $d/lists: rm $d/updated and rerun to fetch the lists"
	pkgs=$(kapt_list_file "$1" "$(echo "$idx" | tr / _)") ||
		die "no ${idx##*/} list for $1 in $d/lists: rm $d/updated and rerun"
	signed=$d/InRelease.verified
	rm -f "$signed"
	if ! gpgv --keyring "$PREEMPTLAB_KEYRING" --output "$signed" "$rel" > "$d/gpgv.log" 2>&1; then
		sed 's/^/  /' "$d/gpgv.log" >&2
		rm -f "$signed"
		die "$rel: no good signature from $PREEMPTLAB_KEYRING (gpgv above): the list was changed or is not Debian's; remove $d and rerun"
	fi
	want=$(awk -v f="$idx" '/^SHA256:/ { s = 1; next } /^[^ ]/ { s = 0 } s && $3 == f { print $1 }' "$signed")
	[ -n "$want" ] || die "$rel names no SHA256 for $idx"
	have=$(/usr/lib/apt/apt-helper cat-file "$pkgs" | sha256sum | cut -d' ' -f1)
	[ "$have" = "$want" ] ||
		die "$pkgs does not match the signed $1 InRelease (sha256 $have, signed $want): the list was changed; remove $d and rerun"
}

# kapt_ready SUITE: lists fresh enough (kapt_update) and verified.
kapt_ready() {
	kapt_update "$1" >&2
	kapt_verify_lists "$1"
}

# kapt_candidates SUITE REGEX: "package upstream-version package-version" for
# every package of the suite whose name matches REGEX, newest first.
kapt_candidates() {
	names=$(kapt "$1" apt-cache search --names-only "$2" 2>/dev/null | cut -d' ' -f1 | grep -E "$2" || true)
	[ -n "$names" ] || return 0
	# shellcheck disable=SC2086 # one argument per package name
	kapt "$1" apt-cache madison $names 2>/dev/null |
		awk -F'|' '{gsub(/ /,"",$1); gsub(/ /,"",$2); u=$2; sub(/^[0-9]+:/,"",u); sub(/-[^-]*$/,"",u); print $1, u, $2}' |
		sort -u | sort -k2,2Vr
}

# kapt_verify SUITE PACKAGE VERSION DEB: the .deb's SHA256 is the one the
# signed lists give for that package and version.  apt checks a download;
# this checks a cached file again before it is used, so a file changed or
# cut short in the cache is never booted.
kapt_verify() {
	want=$(kapt "$1" apt-cache show "$2=$3" 2>/dev/null | sed -n 's/^SHA256: *//p' | head -n1)
	[ -n "$want" ] || die "the $1 lists have no SHA256 for $2 $3: cannot verify $4"
	have=$(sha256sum "$4" | cut -d' ' -f1)
	[ "$have" = "$want" ] ||
		die "$4 does not match the signed $1 lists (sha256 $have, expected $want): remove it (and $PREEMPTLAB_CACHE/images for this kernel) and rerun"
}

# kapt_deb PACKAGE VERSION: the cached .deb, by apt-get download's own
# file name (an epoch's colon becomes %3a, and source packages,
# linux-source-*, are architecture "all"): KAPT_ARCH's, or all's where
# only that one is there.
kapt_deb() {
	kd=$PREEMPTLAB_CACHE/debs/${1}_$(echo "$2" | sed 's/:/%3a/')
	if [ ! -f "${kd}_$KAPT_ARCH.deb" ] && [ -f "${kd}_all.deb" ]; then echo "${kd}_all.deb"
	else echo "${kd}_$KAPT_ARCH.deb"; fi
}

# kapt_fetch SUITE PACKAGE VERSION DIR: download the .deb (apt checks its
# hash against the signed lists) and unpack it into DIR, unless done before;
# a cached .deb is verified again either way, and so is DIR against it
# (issue 35, N2: an unpacked tree was reused unchecked, and with its .deb
# removed it was trusted outright).  DIR changed since, or a symbolic link,
# is unpacked again from the verified .deb; a .deb that is gone is
# downloaded again.
kapt_fetch() {
	# Loaded here, not above: tests source this file from elsewhere
	# (lab_top is the running script's checkout).
	# shellcheck source=scripts/deb-tree.sh
	command -v debtree_expect > /dev/null 2>&1 || . "$(lab_top)/scripts/deb-tree.sh"
	debs="$PREEMPTLAB_CACHE/debs"
	mkdir -p "$debs"
	deb=$(kapt_deb "$2" "$3")
	fresh=0
	if [ ! -f "$deb" ] || [ -L "$deb" ]; then
		rm -f "$deb"
		note "downloading $2 $3 from $1"
		(cd "$debs" && kapt "$1" apt-get download "$2=$3") >&2 ||
			die "apt-get download $2=$3 failed; check the network or PREEMPTLAB_MIRROR"
		deb=$(kapt_deb "$2" "$3")
		[ -f "$deb" ] || die "apt-get download left no $deb"
		fresh=1
	else
		kapt_verify "$1" "$2" "$3" "$deb"
	fi
	if [ "$fresh" = 0 ] && [ -f "$4/.unpacked" ] && [ ! -L "$4" ]; then
		kf_w=$(mktemp -d)
		# What unpacking leaves (below): no modules, a .unpacked.
		debtree_expect "$deb" | awk -F '\t' '$3 !~ /^(usr\/)?lib\/modules\/[^\/]+\/kernel\//' > "$kf_w/expect"
		printf 'f\t%s\t.unpacked\n' "$(md5sum < /dev/null | cut -c1-32)" >> "$kf_w/expect"
		debtree_actual "$4" > "$kf_w/actual"
		kf_diff=$(debtree_diff "$kf_w/expect" "$kf_w/actual")
		rm -rf "$kf_w"
		[ -z "$kf_diff" ] && return 0
		note "$4 is not what $(basename "$deb") unpacks to ($(echo "$kf_diff" | tr '\n' ';' | sed 's/;$//; s/;/; /g')): unpacked again"
	fi
	rm -rf "$4"; mkdir -p "$4"
	dpkg -x "$deb" "$4" || die "dpkg -x $deb failed"
	# The guest loads no modules: keep the image and config, not 400 MB of .ko.
	rm -rf "$4"/lib/modules/*/kernel "$4"/usr/lib/modules/*/kernel
	touch "$4/.unpacked"
}
