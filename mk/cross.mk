# make cross-test: every unit test cross-built for aarch64 (static, so
# qemu-user needs no arm64 sysroot) into build-arm64/ and run there under
# qemu-user: proves the lab compiles with -Werror for arm64 and that its
# arithmetic, parsers and lock code behave the same there.
# Also bufbench-static for aarch64 (what an arm64 guest runs).
# tests/e2e/cross_arm64.sh runs it within make test.

CROSS_CC ?= aarch64-linux-gnu-gcc
# On an arm64 host the "cross" build is native: Debian's gcc answers to
# aarch64-linux-gnu-gcc too, and the static tests run as they are, with no
# qemu-user in between (they then check what a native kernel places).
ifeq ($(shell uname -m),aarch64)
QEMU_USER_AARCH64 ?=
else
QEMU_USER_AARCH64 ?= qemu-aarch64-static
endif

# The host's config.h says what the host has (libnuma, libpq); the arm64
# build has neither, so its own config.h, same guard, is read first.
# Some test rules link with CFLAGS alone: -static goes there too.
ifeq ($(CROSS_ARCH),aarch64)
CFLAGS += -include $(B)/config.h -static
endif

# test_json_read, test_manifest and the model's tests (lab/model reads its inputs with the
# report's JSON reader) need libjansson, which only host-side tools (the
# report, build/predict; never an arm64 guest) link: they are not
# cross-built.
CROSS_UNIT_BINS := $(filter-out %/test_json_read %/test_manifest $(MODEL_TESTS),$(UNIT_TEST_BINS))
cross-unit-tests: $(CROSS_UNIT_BINS)

CROSS_MAKE = $(MAKE) CROSS_ARCH=aarch64 CC=$(CROSS_CC) B=build-arm64 HAVE_NUMA=0 HAVE_PQ=0 NUMA_STATIC=0 LDFLAGS=-static

cross-config: config.mk
	@command -v $(CROSS_CC) >/dev/null || { echo "cross: no $(CROSS_CC): run ./configure --install-deps (gcc-aarch64-linux-gnu)" >&2; exit 1; }
	@mkdir -p build-arm64
	@printf '%s\n' '/* Written by make cross-test: the static aarch64 build has no libnuma, no libpq. */' \
		'#ifndef PREEMPTLAB_CONFIG_H' '#define PREEMPTLAB_CONFIG_H' '#define HAVE_NUMA 0' \
		'#define HAVE_PQ 0' '#endif' > build-arm64/config.h.tmp
	@cmp -s build-arm64/config.h.tmp build-arm64/config.h || mv build-arm64/config.h.tmp build-arm64/config.h
	@rm -f build-arm64/config.h.tmp

# What an arm64 guest runs (ARCH=arm64; scripts/initramfs.sh takes them).
cross-guest: cross-config
	$(CROSS_MAKE) build-arm64/bufbench-static build-arm64/repro-min-static build-arm64/costbench-static

# pgsample for an arm64 guest's pgbench (ARCH=arm64 PGBENCH=on): linked
# dynamically against Debian's arm64 libpq from scripts/pg-arm64-root.sh,
# whose libraries the guest carries (headers are the same on every arch).
# A second make: pgsample needs HAVE_PQ and a dynamic link, the static
# programs neither.
cross-pgsample: cross-config
	@root=$$(scripts/pg-arm64-root.sh) && \
	$(MAKE) CROSS_ARCH=aarch64 CC=$(CROSS_CC) B=build-arm64 HAVE_NUMA=0 NUMA_STATIC=0 HAVE_PQ=1 LDFLAGS= \
		PQ_CFLAGS="-I$$root/usr/include/postgresql" \
		PQ_LIBS="-L$$root/usr/lib/aarch64-linux-gnu -Wl,-rpath-link=$$root/usr/lib/aarch64-linux-gnu:$$root/lib/aarch64-linux-gnu -lpq" \
		build-arm64/pgsample

# The unit tests see qemu-user themselves (prov_under_qemu_user) and skip
# the huge page mappings, which are qemu's there, not the kernel's.
cross-test: cross-config
	@[ -z "$(QEMU_USER_AARCH64)" ] || command -v $(QEMU_USER_AARCH64) >/dev/null || { echo "cross-test: no $(QEMU_USER_AARCH64): run ./configure --install-deps (qemu-user-static)" >&2; exit 1; }
	$(CROSS_MAKE) cross-unit-tests build-arm64/bufbench-static
	rm -f build-arm64/tests/test_json_read
	TEST_BUILD=build-arm64 TEST_EXEC=$(QEMU_USER_AARCH64) tests/run.sh unit

.PHONY: cross-test cross-unit-tests cross-config cross-guest cross-pgsample
