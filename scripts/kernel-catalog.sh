# shellcheck shell=sh
# The kernel catalog (kernels/<series>) and the private apt that fetches its
# images (sourced, not run).  Needs common.sh.
#
# Every apt call goes through kapt, which points apt at a sources.list, lists
# and archive cache inside $PREEMPTLAB_CACHE/apt/<suite>/: /etc/apt is never
# written, so the host never sees trixie or sid.  Signatures stay checked:
# each source line names the keyring with signed-by and insecure
# repositories stay refused.

KCAT_DIR=${KCAT_DIR:-$(lab_top)/kernels}
PREEMPTLAB_CACHE=${PREEMPTLAB_CACHE:-$KCAT_DIR/cache}
PREEMPTLAB_MIRROR=${PREEMPTLAB_MIRROR:-http://deb.debian.org/debian}
PREEMPTLAB_KEYRING=${PREEMPTLAB_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
# Package lists younger than this are reused without asking the archive.
PREEMPTLAB_APT_MAX_AGE=${PREEMPTLAB_APT_MAX_AGE:-86400}
# When the archive cannot be reached, lists up to this old still serve (a
# kernel's security fixes are not older than a fortnight's lists); older
# ones are refused.
PREEMPTLAB_APT_STALE_MAX=${PREEMPTLAB_APT_STALE_MAX:-1209600}
# The catalog's one parser is the planner's (lab/plan/catalog.c): the
# build/plan beside the catalog (a test's copy has none), else this
# checkout's.
kcat_plan=$KCAT_DIR/../build/plan
[ -x "$kcat_plan" ] || kcat_plan=$(lab_plan)
# The guest's Debian architecture (ARCH=arm64 from an x86 host): the private
# apt of another architecture has lists and a cache of its own, so the
# catalog's base architecture's (amd64's) stay as they were.  Its row of the
# architecture table (lab/common/arch.c) says which keys are its own.
KAPT_ARCH=$("$kcat_plan" --arch-info "${KAPT_ARCH:-}" name) || exit 2

# kcat_base: KAPT_ARCH reads the catalog's unsuffixed keys (package:).
kcat_base() { [ "$("$kcat_plan" --arch-info "$KAPT_ARCH" catalog_base)" = 1 ]; }
# kcat_base_arch: that architecture's name.
kcat_base_arch() { "$kcat_plan" --arch-info "$KAPT_ARCH" catalog_base_arch; }

# kcat_known: the catalog's series names, one a line.
kcat_known() { "$kcat_plan" --catalog-series "$KCAT_DIR"; }

# kcat_get SERIES KEY: the value of "KEY: value" in kernels/SERIES.
kcat_get() { "$kcat_plan" --catalog-get "$KCAT_DIR" "$1" "$2" || true; }

# kcat_arch_get SERIES KEY: KEY for KAPT_ARCH: KEY itself on the base
# architecture, KEY_<arch> on another ("" when the entry has none).
kcat_arch_get() {
	if kcat_base; then kcat_get "$1" "$2"; else kcat_get "$1" "$2_$KAPT_ARCH"; fi
}

# kcat_package SERIES: the package regex for KAPT_ARCH: "package:" is the
# base architecture's, "package_arm64:" arm64's (a series without one has
# no kernel of that architecture, and says so).
kcat_package() {
	p=$(kcat_arch_get "$1" package)
	[ -n "$p" ] || die "kernel $1 has no $KAPT_ARCH package in kernels/$1 (no package_$KAPT_ARCH:); $KAPT_ARCH series: $(for s in $(kcat_known); do [ -n "$(kcat_get "$s" "package_$KAPT_ARCH")" ] && printf '%s ' "$s"; done)"
	echo "$p"
}

kcat_unknown() {
	echo "preemptlab: unknown kernel '$1'; known: $(kcat_known | tr '\n' ' ')(a series, an exact version such as 7.0.13, or a path to a bzImage)" >&2
	exit 2
}

kapt_dir() {
	if kcat_base; then echo "$PREEMPTLAB_CACHE/apt/$1"
	else echo "$PREEMPTLAB_CACHE/apt/$1-$KAPT_ARCH"; fi
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
	line="deb [signed-by=$PREEMPTLAB_KEYRING] $PREEMPTLAB_MIRROR $1 main"
	kcat_base || line="deb [arch=$KAPT_ARCH signed-by=$PREEMPTLAB_KEYRING] $PREEMPTLAB_MIRROR $1 main"
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
	# apt-get download's own file name: an epoch's colon becomes %3a, and
	# source packages (linux-source-*) are architecture "all".
	deb="$debs/${2}_$(echo "$3" | sed 's/:/%3a/')_$KAPT_ARCH.deb"
	[ -f "$deb" ] || [ ! -f "${deb%_"$KAPT_ARCH".deb}_all.deb" ] || deb=${deb%_"$KAPT_ARCH".deb}_all.deb
	fresh=0
	if [ ! -f "$deb" ] || [ -L "$deb" ]; then
		rm -f "$deb"
		note "downloading $2 $3 from $1"
		(cd "$debs" && kapt "$1" apt-get download "$2=$3") >&2 ||
			die "apt-get download $2=$3 failed; check the network or PREEMPTLAB_MIRROR"
		[ -f "$deb" ] || [ ! -f "${deb%_"$KAPT_ARCH".deb}_all.deb" ] || deb=${deb%_"$KAPT_ARCH".deb}_all.deb
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

# --- custom builds (source: build) -------------------------------------------
# A build is kept in $PREEMPTLAB_CACHE/build/<series>/<pkgversion>-<recipe
# hash>/: a new source package or a changed base/target/fragment gives a new
# directory, so nothing stale is ever reused.  A finished one holds bzImage,
# config and "resolved" (the K_ assignments kernel-resolve.sh prints).

# Another architecture's build (KAPT_ARCH=arm64, cross-compiled) has a
# directory of its own, build/<series>-arm64/: the base's stays where it was.
kbuild_root() {
	if kcat_base; then echo "$PREEMPTLAB_CACHE/build/$1"
	else echo "$PREEMPTLAB_CACHE/build/$1-$KAPT_ARCH"; fi
}

# kbuild_get SERIES KEY: a recipe key for KAPT_ARCH.  The base architecture
# reads KEY; another reads KEY_<arch> and falls back to KEY (fragments,
# patches and the source package are shared; base and target are not, see
# kbuild_arch_ok).
kbuild_get() {
	if ! kcat_base; then
		kg=$(kcat_get "$1" "$2_$KAPT_ARCH")
		[ -z "$kg" ] || { echo "$kg"; return 0; }
	fi
	kcat_get "$1" "$2"
}

# kbuild_arch_ok SERIES: true when the series has a recipe for KAPT_ARCH
# (the base architecture always; another needs its own base_ and target_
# keys, since amd64's defconfig and bzImage mean nothing there).
kbuild_arch_ok() {
	kcat_base && return 0
	[ -n "$(kcat_get "$1" "base_$KAPT_ARCH")" ] && [ -n "$(kcat_get "$1" "target_$KAPT_ARCH")" ]
}

# kbuild_arch_series: the built series that have a recipe for KAPT_ARCH.
kbuild_arch_series() {
	for s in $(kcat_known); do
		[ "$(kcat_get "$s" source)" = build ] && kbuild_arch_ok "$s" && printf '%s ' "$s"
	done
}

# kbuild_no_arch SERIES: the error for a built series with no recipe for
# KAPT_ARCH.
kbuild_no_arch() {
	die "kernel $1 is built from source and kernels/$1 has no $KAPT_ARCH recipe (base_$KAPT_ARCH:, target_$KAPT_ARCH:); $KAPT_ARCH takes a Debian package series or one of the built series that have one: $(kbuild_arch_series)"
}

# kbuild_fragment SERIES: the fragment files' paths, in the order they are
# applied ("" when none).  A recipe may combine several fragments.
kbuild_fragment() {
	for f in $(kbuild_get "$1" fragment); do
		[ -f "$KCAT_DIR/$f" ] || die "kernels/$1 names fragment $f, which is not in kernels/"
		echo "$KCAT_DIR/$f"
	done
}

# kbuild_patches SERIES: the source patches' paths, in the order they are
# applied ("" when none).
kbuild_patches() {
	for f in $(kcat_get "$1" patches); do
		[ -f "$KCAT_DIR/$f" ] || die "kernels/$1 names patch $f, which is not in kernels/ (known: $(find "$KCAT_DIR/patches" -name '*.patch' -exec basename {} \; 2>/dev/null | sort | tr '\n' ' '))"
		echo "$KCAT_DIR/$f"
	done
}

# kbuild_source SERIES: "PACKAGE VERSION PKGVERSION" of the newest source
# package the recipe builds from (the package list refreshed first).
# linux-source-* is architecture "all": the base architecture's lists name
# it for every architecture's build, so an arm64 build takes the very same
# source.  Call it in a subshell ($(...)): it sets KAPT_ARCH.
kbuild_source() {
	KAPT_ARCH=$(kcat_base_arch)
	ks_suite=$(kcat_get "$1" suite) ks_re=$(kcat_get "$1" package)
	kapt_update "$ks_suite"
	ks_line=$(kapt_candidates "$ks_suite" "$ks_re" | head -n1)
	[ -n "$ks_line" ] || die "no package matching $ks_re in $ks_suite (has Debian dropped it? edit kernels/$1)"
	echo "$ks_line"
}

# kbuild_apply_patch TREE PATCH LOG SOURCE: apply one patch to a source
# tree after a dry run, so that a patch that no longer fits stops here,
# naming it and SOURCE ("package version"), and leaves the tree as it was.
# patch's output goes to LOG (its last lines to stderr on failure).
kbuild_apply_patch() {
	kp_name=$(basename "$2")
	if ! patch -d "$1" -p1 --forward --batch --dry-run < "$2" >> "$3" 2>&1; then
		tail -n 10 "$3" >&2
		die "kernels/patches/$kp_name does not apply to $4 (log $3): update the patch for this source"
	fi
	patch -d "$1" -p1 --forward --batch < "$2" >> "$3" 2>&1 ||
		die "applying $kp_name failed after its dry run passed (log $3)"
}

# kbuild_recipe_hash SERIES: 12 hex digits over everything that shapes the
# source, the config and the image (the patches' diffs in order, base
# targets, build target, fragment text).  Another architecture's adds its name first, so
# that the base's hash (and cached build) stays what it was.
kbuild_recipe_hash() {
	frag=$(kbuild_fragment "$1")
	pat=$(kbuild_patches "$1")
	for p in $pat; do
		grep -q '^diff ' "$p" || die "$p has no 'diff ' line: a recipe hashes each patch from its first diff"
	done
	{
		kcat_base || echo "arch: $KAPT_ARCH"
		# A patch counts from its first diff: its cover letter is prose,
		# and rewording it must not cost a rebuild.
		for p in $pat; do
			echo "patch: $(basename "$p")"
			sed -n '/^diff /,$p' "$p"
		done
		echo "base: $(kbuild_get "$1" base)"
		echo "target: $(kbuild_get "$1" target)"
		# shellcheck disable=SC2086 # one path per word
		[ -z "$frag" ] || cat $frag
	} | sha256sum | cut -c1-12
}

# kbuild_minutes SERIES: the catalog's measured 2-core build time, scaled to
# this machine's CPU count.
kbuild_minutes() {
	m=$(kbuild_get "$1" build_minutes)
	case $m in ''|*[!0-9]*) m=60 ;; esac
	n=$(nproc)
	echo $(( (m * 2 + n - 1) / n ))
}

# kbuild_finished SERIES: finished builds of the current recipe, newest
# source version first, one directory a line.
kbuild_finished() {
	h=$(kbuild_recipe_hash "$1")
	for r in "$(kbuild_root "$1")"/*-"$h"/resolved; do
		[ -f "$r" ] && dirname "$r"
	done | awk -v h="-$h" '{v = $0; sub(/.*\//, "", v); sub(h "$", "", v); print v "\t" $0}' |
		sort -k1,1Vr | cut -f2-
}

# kbuild_models_checkable SERIES TREE: a configured TREE of SERIES gives
# the runner what it needs to set and read back a model (debugfs
# sched/preempt) when the recipe lists several for this architecture
# (models_arm64:, else models:): PREEMPT_DYNAMIC and, in a source that
# still has the symbol (before 6.15), SCHED_DEBUG, which that file needed;
# 6.12's defconfig leaves it out, so such an image boots every model on
# its command line but none can be checked.  Else die naming the fix.
kbuild_models_checkable() {
	kmc_models=$(kcat_arch_get "$1" models)
	[ -n "$kmc_models" ] || kmc_models=$(kcat_get "$1" models)
	[ "$(echo "$kmc_models" | wc -w)" -gt 1 ] || return 0
	grep -qx 'CONFIG_PREEMPT_DYNAMIC=y' "$2/.config" ||
		die "kernels/$1 lists the models $kmc_models, but its config has no PREEMPT_DYNAMIC"
	if grep -qx 'config SCHED_DEBUG' "$2/lib/Kconfig.debug" 2>/dev/null && ! grep -qx 'CONFIG_SCHED_DEBUG=y' "$2/.config"; then
		die "kernels/$1 lists the models $kmc_models, but its config has no SCHED_DEBUG, without which this source has no debugfs sched/preempt to switch or check a model: add CONFIG_SCHED_DEBUG=y to a fragment"
	fi
}

# kbuild_not_built SERIES: the error for a series nobody built yet.
kbuild_not_built() {
	other=""
	for r in "$(kbuild_root "$1")"/*/resolved; do
		[ -f "$r" ] && other="$other $(basename "$(dirname "$r")")"
	done
	echo "preemptlab: kernel $1 is not built; \`make kernel KERNEL=$1\` builds it in ~$(kbuild_minutes "$1") min${other:+ (the cache holds builds of an older recipe:$other; kernels/$1, its fragments or patches changed since)}" >&2
	exit 1
}
