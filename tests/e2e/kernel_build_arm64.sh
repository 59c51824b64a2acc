#!/bin/sh
# The arm64 recipe of 7.2-lab (base_arm64:, target_arm64:, ... in
# kernels/7.2-lab), without compiling anything: its own recipe hash and
# cache directory (amd64's unchanged), the arm64 keys read for arm64 only,
# the planner and the build scripts accepting 7.2-lab for ARCH=arm64 with
# the same-kernel baseline 7.2-lab/none, and refusing 7.2-rseq (no arm64
# recipe) naming the series that have one.  tests/long/kernel_lab_arm64.sh
# builds and boots the image.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2016 # expanded when the trap runs
on_exit 'rm -rf "$tmp"'
command -v jq >/dev/null || { skip "kernel_build_arm64: no jq (apt-get install jq)"; exit 0; }

# rvar ARCH SERIES VAR: the recipe's R_VAR for ARCH, as the scripts read it
# (build/plan --kernel-build ... recipe).
rvar() {
	(r=$("$top/build/plan" --kernel-build "$top/kernels" "$1" "$2" recipe) && eval "$r" && eval "printf '%s\n' \"\$R_$3\"")
}
h64=$(rvar amd64 7.2-lab HASH)
harm=$(rvar arm64 7.2-lab HASH)
check "kernel_build_arm64: the arm64 recipe has a hash of its own ($harm, amd64 $h64)" \
	sh -c "[ -n '$harm' ] && [ '$harm' != '$h64' ]"
check "kernel_build_arm64: ... and a cache directory of its own (build/7.2-lab-arm64)" \
	sh -c "[ '$(rvar arm64 7.2-lab DIR)' = 7.2-lab-arm64 ] && [ '$(rvar amd64 7.2-lab DIR)' = 7.2-lab ]"
check "kernel_build_arm64: arm64 builds Image from defconfig virt.config kvm_guest.config" \
	sh -c "[ '$(rvar arm64 7.2-lab TARGET)' = Image ] &&
		[ '$(rvar arm64 7.2-lab BASE)' = 'defconfig virt.config kvm_guest.config' ]"
check "kernel_build_arm64: amd64 still builds bzImage from defconfig kvm_guest.config" \
	sh -c "[ '$(rvar amd64 7.2-lab TARGET)' = bzImage ] &&
		[ '$(rvar amd64 7.2-lab BASE)' = 'defconfig kvm_guest.config' ]"
check "kernel_build_arm64: arm64 offers all four models, lazy by default" \
	sh -c "[ '$(rvar arm64 7.2-lab MODELS)' = 'none voluntary full lazy' ] &&
		[ '$(rvar arm64 7.2-lab DEFAULT)' = lazy ]"
arm_series=$(for s in $("$top/build/plan" --catalog-series "$top/kernels" build); do
	if "$top/build/plan" --kernel-build "$top/kernels" arm64 "$s" hash > /dev/null 2>&1; then printf '%s ' "$s"; fi
done)
check "kernel_build_arm64: only 7.2-lab has an arm64 recipe (7.2-rseq has none)" \
	test "$arm_series" = "7.2-lab "
# A cached amd64 build of the current recipe is still found by it.
cache=${PREEMPTLAB_CACHE:-$top/kernels/cache}
if ls -d "$cache/build/7.2-lab"/*/resolved >/dev/null 2>&1; then
	check "kernel_build_arm64: the cached amd64 7.2-lab build is still the current recipe's ($h64)" \
		"$top/build/plan" --kernel-build "$top/kernels" amd64 7.2-lab newest "$cache"
else
	skip "kernel_build_arm64: no amd64 7.2-lab build cached to check its hash against"
fi
# arm64-lab.config is rseq-slice.config less the slice extension: a copy
# that must not drift from amd64's options.
opts() { grep -E '^(CONFIG_|# CONFIG_.* is not set)' "$top/kernels/fragments/$1" | grep -v RSEQ_SLICE_EXTENSION; }
opts rseq-slice.config > "$tmp/amd64.opts"
opts arm64-lab.config > "$tmp/arm64.opts"
check "kernel_build_arm64: arm64-lab.config holds rseq-slice.config's options but the slice extension" \
	cmp -s "$tmp/amd64.opts" "$tmp/arm64.opts"
check "kernel_build_arm64: ... and not the slice extension, which arm64 7.2 cannot have" \
	sh -c "! grep -q RSEQ_SLICE_EXTENSION=y '$top/kernels/fragments/arm64-lab.config'"

# The build script and the resolver: 7.2-rseq refused for arm64, naming 7.2-lab.
rc=0; ARCH=arm64 "$top/scripts/kernel-build.sh" 7.2-rseq > /dev/null 2> "$tmp/b.err" || rc=$?
check "kernel_build_arm64: kernel-build.sh refuses 7.2-rseq for arm64, naming 7.2-lab ($(head -c 160 "$tmp/b.err"))" \
	sh -c "[ $rc -ne 0 ] && grep -q 'no arm64 recipe (base_arm64:, target_arm64:).*: 7.2-lab' '$tmp/b.err'"
rc=0; ARCH=arm64 "$top/scripts/kernel-resolve.sh" 7.2-rseq > /dev/null 2> "$tmp/r.err" || rc=$?
check "kernel_build_arm64: kernel-resolve.sh refuses 7.2-rseq for arm64 too" \
	sh -c "[ $rc -ne 0 ] && grep -q 'no arm64 recipe' '$tmp/r.err'"
rc=0; ARCH=arm64 "$top/scripts/kernel-resolve.sh" 7.2-lab > "$tmp/k" 2> "$tmp/k.err" || rc=$?
if [ "$rc" = 0 ]; then
	check "kernel_build_arm64: the arm64 7.2-lab resolves to its Image in build/7.2-lab-arm64" \
		grep -q "^K_IMAGE='.*/7.2-lab-arm64/[^/]*-$harm/Image'" "$tmp/k"
	check "kernel_build_arm64: ... with arm64's models" grep -qx "K_MODELS='none voluntary full lazy'" "$tmp/k"
else
	# shellcheck disable=SC2016 # the backquotes are the message's
	check "kernel_build_arm64: an unbuilt arm64 7.2-lab names the command that builds it" \
		grep -q 'is not built; `make kernel KERNEL=7.2-lab`' "$tmp/k.err"
fi

# The planner: 7.2-lab for arm64 is its own baseline; 7.2-rseq is refused.
plan=$top/build/plan
mkdir -p "$tmp/run"
if "$plan" --out "$tmp/run" --top "$top" KERNEL=7.2-lab ARCH=arm64 MODELS=full,lazy > "$tmp/p.out" 2>&1; then
	check "kernel_build_arm64: plan: ARCH=arm64 KERNEL=7.2-lab compares with 7.2-lab/none on the same kernel" \
		jqt "$tmp/run/plan.json" '.settings.arch == "arm64" and .settings.baseline_variant == "7.2-lab/none"
			and .settings.baseline_same_kernel == true and .settings.models == ["none", "full", "lazy"]'
else
	cat "$tmp/p.out"; fail "kernel_build_arm64: plan: ARCH=arm64 KERNEL=7.2-lab refused"
fi
rc=0; "$plan" --check --top "$top" KERNEL=7.2-rseq ARCH=arm64 > "$tmp/p2.out" 2>&1 || rc=$?
check "kernel_build_arm64: plan: ARCH=arm64 KERNEL=7.2-rseq refused, naming the series that can ($(tail -n1 "$tmp/p2.out" | head -c 200))" \
	sh -c "[ $rc = 2 ] && grep -q 'kernels/7.2-rseq is built from source and has no arm64 recipe.*a built series with one (7.2-lab)' '$tmp/p2.out'"
rc=0; "$plan" --check --top "$top" KERNEL=7.2-lab BASELINE=7.2-rseq ARCH=arm64 > "$tmp/p3.out" 2>&1 || rc=$?
check "kernel_build_arm64: plan: BASELINE=7.2-rseq refused for arm64 as well" \
	sh -c "[ $rc = 2 ] && grep -q 'BASELINE=7.2-rseq: kernels/7.2-rseq is built from source' '$tmp/p3.out'"
# EVIDENCE=on needs tracefs and kprobe events, which arm64's defconfig
# lacks: arm64-trace.config is in the recipe and asks for them (the build
# refuses an option that did not stick).
frag="$(rvar arm64 7.2-lab FRAGMENTS) "
trace=$top/kernels/fragments/arm64-trace.config
check "kernel_build_arm64: the arm64 recipe takes arm64-trace.config, with ftrace and kprobe events ($frag)" \
	sh -c "echo '$frag' | grep -q 'fragments/arm64-trace.config ' &&
		grep -qx CONFIG_FTRACE=y '$trace' && grep -qx CONFIG_KPROBE_EVENTS=y '$trace'"
check "kernel_build_arm64: plan: EVIDENCE=on accepted for the arm64 7.2-lab" \
	"$plan" --check --top "$top" KERNEL=7.2-lab ARCH=arm64 EVIDENCE=on
check "kernel_build_arm64: plan: EVIDENCE=on accepted for Debian's arm64 7.0 (kprobe faults)" \
	"$plan" --check --top "$top" KERNEL=7.0 ARCH=arm64 EVIDENCE=on
rc=0; "$plan" --check --top "$top" KERNEL=7.2-lab ARCH=arm64 LOCKS=tas,rseq > "$tmp/p5.out" 2>&1 || rc=$?
check "kernel_build_arm64: plan: LOCKS=rseq refused for an arm64 guest (no slice extension there)" \
	sh -c "[ $rc = 2 ] && grep -q 'LOCKS=rseq: no arm64 guest kernel has the rseq slice extension' '$tmp/p5.out'"
check "kernel_build_arm64: plan: ... and both still taken on amd64's 7.2-lab" \
	"$plan" --check --top "$top" KERNEL=7.2-lab ARCH=amd64 EVIDENCE=on LOCKS=tas,rseq
tests_done
