# make cross-test: every unit test cross-built for CROSS (arm64; static,
# so qemu-user needs no sysroot) into its guest_bin_dir (build-arm64/) and
# run there under qemu-user: proves the lab compiles with -Werror for it and
# that its arithmetic, parsers and lock code behave the same there.
# Also bufbench-static for it (what a CROSS guest runs).
# tests/e2e/cross_arm64.sh runs it within make test.
#
# Every value comes from CROSS's row of the architecture table
# (lab/common/arch.c, build/plan --arch-info), read when a recipe runs:
# another architecture is another row, not another copy of this file.
CROSS ?= arm64
cross_info = $(shell $(B)/plan --arch-info $(CROSS) $(1))
CROSS_CC ?= $(call cross_info,cross_prefix)gcc
CROSS_B = $(call cross_info,guest_bin_dir)
# On a host of CROSS's architecture the "cross" build is native: Debian's
# gcc answers to aarch64-linux-gnu-gcc too, and the static tests run as they
# are, with no qemu-user in between (they then check what a native kernel
# places).
CROSS_QEMU_USER ?= $(if $(filter 1,$(call cross_info,native)),,$(call cross_info,qemu_user))

# The host's config.h says what the host has (libnuma, libpq); the cross
# build has neither, so its own config.h, same guard, is read first.
# Some test rules link with CFLAGS alone: -static goes there too.
ifneq ($(CROSS_ARCH),)
CFLAGS += -include $(B)/config.h -static
endif

# test_json_read, test_manifest and the model's tests (lab/model reads its
# inputs with the host tools' JSON reader, lab/common/json_read.c) need
# libjansson, which only host-side tools (the report, build/predict; never
# a cross guest) link: they are not cross-built.  Nor are
# test_plan_variables and test_kernel_recipe: they link the planner's
# objects, which read model inputs (--validation-grid) through json_read.
CROSS_UNIT_BINS := $(filter-out %/test_json_read %/test_manifest %/test_plan_variables \
	%/test_kernel_recipe $(MODEL_TESTS),$(UNIT_TEST_BINS))
cross-unit-tests: $(CROSS_UNIT_BINS)

CROSS_MAKE = $(MAKE) CROSS_ARCH=$(CROSS) CC=$(CROSS_CC) B=$(CROSS_B) HAVE_NUMA=0 HAVE_PQ=0 NUMA_STATIC=0 LDFLAGS=-static

cross-config: config.mk $(B)/plan
	@command -v $(CROSS_CC) >/dev/null || { echo "cross: no $(CROSS_CC): run ./configure --install-deps ($(call cross_info,cross_package))" >&2; exit 1; }
	@mkdir -p $(CROSS_B)
	@printf '%s\n' '/* Written by make cross-test: the static $(CROSS) build has no libnuma, no libpq. */' \
		'#ifndef PREEMPTLAB_CONFIG_H' '#define PREEMPTLAB_CONFIG_H' '#define HAVE_NUMA 0' \
		'#define HAVE_PQ 0' '#endif' > $(CROSS_B)/config.h.tmp
	@cmp -s $(CROSS_B)/config.h.tmp $(CROSS_B)/config.h || mv $(CROSS_B)/config.h.tmp $(CROSS_B)/config.h
	@rm -f $(CROSS_B)/config.h.tmp

# What a CROSS guest runs (ARCH=arm64; scripts/initramfs.sh takes them).
cross-guest: cross-config
	$(CROSS_MAKE) $(CROSS_B)/bufbench-static $(CROSS_B)/repro-min-static $(CROSS_B)/costbench-static $(CROSS_B)/runner-static

# pgsample for a CROSS guest's pgbench (ARCH=arm64 PGBENCH=on): linked
# dynamically against Debian's libpq of CROSS from scripts/pg-guest-root.sh,
# whose libraries the guest carries (headers are the same on every arch).
# A second make: pgsample needs HAVE_PQ and a dynamic link, the static
# programs neither.
cross-pgsample: cross-config
	@root=$$(scripts/pg-guest-root.sh $(CROSS)) && lib=$(call cross_info,triplet) && \
	$(MAKE) CROSS_ARCH=$(CROSS) CC=$(CROSS_CC) B=$(CROSS_B) HAVE_NUMA=0 NUMA_STATIC=0 HAVE_PQ=1 LDFLAGS= \
		PQ_CFLAGS="-I$$root/usr/include/postgresql" \
		PQ_LIBS="-L$$root/usr/lib/$$lib -Wl,-rpath-link=$$root/usr/lib/$$lib:$$root/lib/$$lib -lpq" \
		$(CROSS_B)/pgsample

# The unit tests see qemu-user themselves (prov_under_qemu_user) and skip
# the huge page mappings, which are qemu's there, not the kernel's.
cross-test: cross-config
	@[ -z "$(CROSS_QEMU_USER)" ] || command -v $(CROSS_QEMU_USER) >/dev/null || { echo "cross-test: no $(CROSS_QEMU_USER): run ./configure --install-deps (qemu-user-static)" >&2; exit 1; }
	$(CROSS_MAKE) cross-unit-tests $(CROSS_B)/bufbench-static
	rm -f $(CROSS_B)/tests/test_json_read
	TEST_BUILD=$(CROSS_B) TEST_EXEC=$(CROSS_QEMU_USER) tests/run.sh unit

.PHONY: cross-test cross-unit-tests cross-config cross-guest cross-pgsample
