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

# kcat_known [SOURCE]: the catalog's series names (those of SOURCE), one a line.
kcat_known() { "$kcat_plan" --catalog-series "$KCAT_DIR" ${1:+"$1"}; }

# kcat_get SERIES KEY: the value of "KEY: value" in kernels/SERIES.
kcat_get() { "$kcat_plan" --catalog-get "$KCAT_DIR" "$1" "$2" || true; }

# q NAME VALUE: NAME='VALUE', quoted for the caller's eval (a resolution).
q() { printf "%s='%s'\n" "$1" "$(printf '%s' "$2" | sed "s/'/'\\\\''/g")"; }

# --- custom builds (source: build) -------------------------------------------
# A build is kept in $PREEMPTLAB_CACHE/build/<series>/<pkgversion>-<recipe
# hash>/ (build/<series>-arm64/ for another architecture's): a new source
# package or a changed base/target/fragment gives a new directory, so
# nothing stale is ever reused.  A finished one holds bzImage, config and
# "resolved" (the K_ assignments kernel-resolve.sh prints).  The recipe,
# its hash and its fragments are the planner's (lab/plan/kernel_recipe.c).

# kbuild SERIES WHAT [ARG]: build/plan --kernel-build for KAPT_ARCH.
kbuild() { kb_s=$1; shift; "$kcat_plan" --kernel-build "$KCAT_DIR" "$KAPT_ARCH" "$kb_s" "$@"; }

# kbuild_recipe SERIES: the recipe's R_ variables (R_SUITE, R_BASE,
# R_FRAGMENTS, R_HASH, ...) for KAPT_ARCH; a series it cannot build ends
# the script, naming the fix.
kbuild_recipe() { kb_r=$(kbuild "$1" recipe) || exit $?; eval "$kb_r"; }

# kbuild_source SERIES: "PACKAGE VERSION PKGVERSION" of the newest source
# package the recipe (kbuild_recipe) builds from, the package list
# refreshed first.  linux-source-* is architecture "all": the base
# architecture's lists name it for every architecture's build, so an arm64
# build takes the very same source.  Call it in a subshell ($(...)): it
# sets KAPT_ARCH.
kbuild_source() {
	KAPT_ARCH=$R_BASE_ARCH
	kapt_update "$R_SUITE"
	kapt_candidates "$R_SUITE" "$R_PACKAGE" | "$kcat_plan" --catalog-pick "$1" "$R_SUITE" "$R_PACKAGE"
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
