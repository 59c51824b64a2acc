#!/bin/sh
# Builds a catalog kernel whose source is "build" (kernels/7.2-rseq): fetches
# the Debian source package with the private apt (kernel-catalog.sh), runs
# `make <base>` for each base target, applies the fragment with scripts/config
# (=y -e, =m -m, "is not set" -d, other values --set-val), `make olddefconfig`,
# checks that every fragment option stuck, and builds the target (the recipe,
# those operations and checks are the planner's: build/plan --kernel-build,
# through kernel-catalog.sh's kbuild).  The result lands in
# $PREEMPTLAB_CACHE/build/<series>/<pkgversion>-<recipe hash>/ (bzImage,
# config, build.log, resolved) and a finished build is reused.
# ARCH=arm64 cross-builds the series' arm64 recipe (base_arm64:,
# target_arm64:, ... in kernels/<series>) with aarch64-linux-gnu- into
# build/<series>-arm64/ (Image instead of bzImage); a series without one
# is refused, naming those that have one.
#
# Usage: scripts/kernel-build.sh [--from-tree DIR] SERIES
#   --from-tree DIR  adopt a tree built by hand instead of compiling: its
#                    .config must be byte-identical to the one this recipe
#                    generates (checked), its bzImage newer than that .config.
# Prints the K_ assignments of kernel-resolve.sh on stdout; progress on
# stderr.  Takes ~35 min on 2 cores; an interrupted build resumes where it
# stopped when run again.  PREEMPTLAB_KEEP_BUILD_TREE=1 keeps the object tree
# (several GB) after a successful build.
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
KAPT_ARCH=$(kapt_arch) || exit 2
export KAPT_ARCH
# shellcheck source=scripts/kernel-catalog.sh
. "$(dirname "$0")/kernel-catalog.sh"

from_tree=""
if [ "${1:-}" = --from-tree ]; then
	[ $# -ge 2 ] || die "usage: $0 [--from-tree DIR] SERIES"
	from_tree=$(cd "$2" 2>/dev/null && pwd) || die "--from-tree $2: no such directory"
	shift 2
fi
[ $# -eq 1 ] || die "usage: $0 [--from-tree DIR] SERIES (one of: $(kcat_known build | tr '\n' ' '))"
series=$1
# The recipe for KAPT_ARCH (an unknown, packaged or other-architecture-less
# series is refused here, naming the fix; so is a fragment line the build
# could not apply, before anything is fetched).
kbuild_recipe "$series"
kbuild "$series" ops > /dev/null
# make's own ARCH and CROSS_COMPILE for KAPT_ARCH (its row of the
# architecture table), on every make in the tree (config and build alike).
# Given on the command line, they also win over an ARCH that a calling make
# put into MAKEFLAGS.  An architecture this machine is not is cross-built.
karch=$(arch_info "$KAPT_ARCH" kernel_arch) kcross=""
if [ "$(arch_info "$KAPT_ARCH" native)" != 1 ]; then
	kcross=${CROSS_COMPILE:-$(arch_info "$KAPT_ARCH" cross_prefix)}
	[ -n "$kcross" ] || die "this machine cross-builds no $KAPT_ARCH kernel (the architecture table has no cross_prefix for it)"
	command -v "${kcross}gcc" >/dev/null ||
		die "cross-building for $KAPT_ARCH needs ${kcross}gcc: ./configure --install-deps installs it (or apt-get install $(arch_info "$KAPT_ARCH" cross_package))"
fi
need="./configure --install-deps installs it (or apt-get install build-essential flex bison bc xz-utils patch libelf-dev libssl-dev)"
for tool in make gcc flex bison bc xz patch; do
	command -v "$tool" >/dev/null || die "building a kernel needs $tool: $need"
done
for h in libelf.h openssl/ssl.h; do
	[ -f "/usr/include/$h" ] || die "building a kernel needs /usr/include/$h: $need"
done

# shellcheck disable=SC2046 # three fields
set -- $(kbuild_source "$series")
pkg=$1 ver=$2 pkgver=$3 iname=$R_IMAGE
out=$PREEMPTLAB_CACHE/build/$R_DIR/$pkgver-$R_HASH
if [ -f "$out/resolved" ]; then
	note "$series: reusing the finished build in $out"
	cat "$out/resolved"; exit 0
fi
mkdir -p "$out"

# One build per directory: a second one would race the first on the tree.
lock=$out/.building
if ! mkdir "$lock" 2>/dev/null; then
	pid=$(cat "$lock/pid" 2>/dev/null || true)
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		die "a build of $series is already running (pid $pid, log $out/build.log); wait for it"
	fi
	rm -rf "$lock"; mkdir "$lock"
fi
echo $$ > "$lock/pid"
mpid=""
stop_make() {
	[ -n "$mpid" ] || return 0
	kill -TERM -- "-$mpid" 2>/dev/null || kill -TERM "$mpid" 2>/dev/null || true
	wait "$mpid" 2>/dev/null || true
	mpid=""
}
trap 'stop_make; rm -rf "$lock"' EXIT
trap 'note "interrupted: the tree in $out/tree is kept and a rerun resumes the build"; exit 130' INT TERM

# --- source ---------------------------------------------------------------
# The source package is architecture "all": fetched as the catalog's base
# architecture's (kbuild_source).
# shellcheck disable=SC2030 # for this fetch alone, on purpose
(KAPT_ARCH=$R_BASE_ARCH; kapt_fetch "$R_SUITE" "$pkg" "$pkgver" "$out/deb")
tarball=$(find "$out/deb/usr/src" -maxdepth 1 -name 'linux-source-*.tar.*' 2>/dev/null | head -n1)
[ -n "$tarball" ] || die "$pkg $pkgver holds no usr/src/linux-source-*.tar.*; edit kernels/$series"
tree=$out/tree
if [ ! -f "$tree/.unpacked" ]; then
	note "unpacking $(basename "$tarball") into $tree (a minute or two)"
	rm -rf "$tree"; mkdir -p "$tree"
	tar -xf "$tarball" -C "$tree" --strip-components=1 || die "could not unpack $tarball"
	touch "$tree/.unpacked"
fi

# --- patches ----------------------------------------------------------------
# Applied in the catalog's order, each checked with a dry run first, so that
# a patch that no longer fits Debian's source stops the build here, naming
# it, and leaves the tree as it was.  .patched records what is applied: a
# resumed build does not apply anything twice.
if [ -n "$R_PATCHES" ] && [ ! -f "$tree/.patched" ]; then
	: > "$out/patch.log"
	for p in $R_PATCHES; do
		name=$(basename "$p")
		kbuild_apply_patch "$tree" "$p" "$out/patch.log" "$pkg $pkgver"
		note "applied $name ($(grep -c '^patching file' "$out/patch.log") files patched so far)"
		echo "$name $(sha256sum "$p" | cut -d' ' -f1)" >> "$tree/.patched.tmp"
	done
	mv "$tree/.patched.tmp" "$tree/.patched"
fi

# --- config -------------------------------------------------------------------
# kmake ARGS: make in the tree, quietly; the output goes to the build log.
kmake() { make -C "$tree" ARCH="$karch" ${kcross:+CROSS_COMPILE="$kcross"} "$@" >> "$out/config.log" 2>&1 || { tail -n 20 "$out/config.log" >&2; die "make $* failed (log: $out/config.log)"; }; }

note "configuring $series from $pkg $pkgver$R_CONFIG_NOTE"
: > "$out/config.log"
for t in $R_BASE; do kmake "$t"; done
kbuild "$series" ops > "$out/fragment.ops"
# An option whose dependencies are missing is dropped by olddefconfig
# without a word: the check below refuses a kernel that lacks what was
# asked, each symbol's last setting (fragment.final) being what counts.
kbuild "$series" final > "$out/fragment.final"
args=$(kbuild "$series" args)
eval "set -- $args"
[ $# -eq 0 ] || (cd "$tree" && scripts/config "$@") || die "scripts/config $* failed"
kmake olddefconfig
kbuild "$series" check "$tree"
kbuild "$series" models "$tree"

# install IMAGE CONFIG RELEASE NOTE: the finished build, then its resolved file.
install_build() {
	cp "$1" "$out/$iname.tmp" && mv "$out/$iname.tmp" "$out/$iname"
	cp "$2" "$out/config"
	# The patches the image was built with, by name and sha256.
	if [ -f "$tree/.patched" ]; then cp "$tree/.patched" "$out/patches"; else : > "$out/patches"; fi
	[ -z "$4" ] || printf '%s\n' "$4" > "$out/ORIGIN"
	sha=$(sha256sum "$out/$iname" | cut -d' ' -f1)
	{
		# shellcheck disable=SC2031 # only the source fetch's subshell changed it
		for kv in "K_LABEL=$series" K_SOURCE=build "K_VERSION=$ver" "K_SUITE=$R_SUITE" "K_PACKAGE=$pkg" \
			"K_PKGVERSION=$pkgver" "K_IMAGE=$out/$iname" "K_SHA256=$sha" "K_CONFIG=$out/config" \
			"K_RELEASE=$3" "K_MODELS=$R_MODELS" "K_DEFAULT=$R_DEFAULT" "K_ARCH=$KAPT_ARCH"; do
			q "${kv%%=*}" "${kv#*=}"
		done
	} > "$out/resolved.tmp"
	mv "$out/resolved.tmp" "$out/resolved"
	if [ "${PREEMPTLAB_KEEP_BUILD_TREE:-0}" = 1 ]; then
		note "kept the tree in $tree"
	else
		rm -rf "$tree" "$out/deb"
	fi
	note "$series built: $out/$iname ($3)"
	cat "$out/resolved"
}

# --- a tree built by hand with the same recipe --------------------------------
if [ -n "$from_tree" ]; then
	[ -f "$from_tree/.config" ] || die "$from_tree has no .config"
	if ! cmp -s "$from_tree/.config" "$tree/.config"; then
		diff "$from_tree/.config" "$tree/.config" | sed -n '1,20s/^/  /p' >&2
		die "$from_tree/.config differs from what kernels/$series generates (above: < that tree, > the recipe)"
	fi
	img=$from_tree/arch/$karch/boot/$R_TARGET
	[ -f "$img" ] || die "$from_tree/.config matches the recipe, but there is no arch/$karch/boot/$R_TARGET yet (is its build finished?)"
	[ "$(stat -c %Y "$img")" -ge "$(stat -c %Y "$from_tree/.config")" ] || die "$img is older than $from_tree/.config: rebuild it"
	rel=$(cat "$from_tree/include/config/kernel.release" 2>/dev/null || echo "$ver")
	note "$from_tree/.config is identical to the recipe's: adopting its $iname"
	install_build "$img" "$from_tree/.config" "$rel" \
		"Adopted on $(date -u +%FT%TZ) from $from_tree (built by hand: make $R_BASE, the fragment's options with scripts/config, olddefconfig, make $R_TARGET; its .config is byte-identical to the one scripts/kernel-build.sh generates for recipe $R_HASH), not compiled by kernel-build.sh."
	exit 0
fi

# --- build ----------------------------------------------------------------------
jobs=$(nproc)
steps=$R_STEPS minutes=$R_MINUTES
note "building $series ($pkg $pkgver, recipe $R_HASH) with make -j$jobs $R_TARGET: ~$minutes min here (measured: $R_BUILD_MINUTES min on 2 cores); log $out/build.log"
t0=$(date +%s)
# Its own process group, so that Ctrl-C stops every compiler it started.
setsid nice -n 5 make -C "$tree" ARCH="$karch" ${kcross:+CROSS_COMPILE="$kcross"} -j"$jobs" "$R_TARGET" >> "$out/build.log" 2>&1 &
mpid=$!
last=$t0
while kill -0 "$mpid" 2>/dev/null; do
	sleep 5
	now=$(date +%s)
	[ $((now - last)) -ge 60 ] || continue
	last=$now
	el=$(( (now - t0) / 60 ))
	n=$(grep -c '^  [A-Z]' "$out/build.log" || true)
	if [ -n "$steps" ] && [ "$n" -gt 0 ] && [ "$n" -lt "$steps" ]; then
		left=$(( (now - t0) * (steps - n) / n / 60 ))
		note "building $series: ${el} min elapsed, $n of ~$steps steps, ~$left min left"
	else
		note "building $series: ${el} min elapsed, $n steps (of ~$minutes min in all)"
	fi
done
rc=0; wait "$mpid" || rc=$?
mpid=""
[ "$rc" = 0 ] || { tail -n 20 "$out/build.log" >&2; die "make $R_TARGET failed (exit $rc; log $out/build.log)"; }
note "$series compiled in $(( ($(date +%s) - t0) / 60 )) min"
install_build "$tree/arch/$karch/boot/$R_TARGET" "$tree/.config" "$(cat "$tree/include/config/kernel.release")" ""
