# shellcheck shell=sh
# The kernel catalog (kernels/<series>) and its custom builds (sourced, not
# run).  Needs common.sh.  Its images come through the private apt
# (scripts/private-apt.sh), whose store is $PREEMPTLAB_CACHE/apt/<suite>/.

KCAT_DIR=${KCAT_DIR:-$(lab_top)/kernels}
PREEMPTLAB_CACHE=${PREEMPTLAB_CACHE:-$KCAT_DIR/cache}
# The catalog's one parser is the planner's (lab/plan/catalog.c): the
# build/plan beside the catalog (a test's copy has none), else this
# checkout's.
kcat_plan=$KCAT_DIR/../build/plan
[ -x "$kcat_plan" ] || kcat_plan=$(lab_plan)
# KAPT_ARCH, the guest's Debian architecture (ARCH=arm64 from an x86 host),
# is the private apt's: its row of the architecture table (lab/common/arch.c)
# says which catalog keys are its own.  A test that sources this file from
# its own directory takes the private apt of the checkout whose build/plan
# reads the catalog (a test's copy of the catalog links that build).
KAPT_PLAN=$kcat_plan
kcat_apt=$(lab_top)/scripts/private-apt.sh
[ -r "$kcat_apt" ] || kcat_apt=$(dirname "$(readlink -f "$kcat_plan")")/../scripts/private-apt.sh
# shellcheck source=scripts/private-apt.sh
. "$kcat_apt"

# kcat_base: KAPT_ARCH reads the catalog's unsuffixed keys (package:).
kcat_base() { kapt_base; }
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
