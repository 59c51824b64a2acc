# preemptlab top-level build.  `make bench` and `make test` bootstrap the
# machine themselves: they run ./configure (with --install-deps as root)
# when config.mk is missing.

-include config.mk

CC ?= cc
CSTD = -std=c11 -D_GNU_SOURCE
WARN = -Wall -Wextra -Werror
# Frame pointers let perf -g (PROFILE_CALLGRAPH=fp) see user-space callers cheaply.
OPT = -O2 -g -fno-omit-frame-pointer
# make SAN=1 B=build-san: the same sources under ASan and UBSan, any report
# fatal (make sanitize-test, mk/sanitize.mk).
ifeq ($(SAN),1)
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all
OPT = -O1 -g -fno-omit-frame-pointer $(SAN_FLAGS)
LDFLAGS += $(SAN_FLAGS)
endif
CFLAGS += $(CSTD) $(WARN) $(OPT) -I. -Ibuffer_pool -Ilab -Ilab/common -Ilab/evidence -I$(B)
LDLIBS += -lm -lpthread
ifeq ($(HAVE_NUMA),1)
NUMA_LIBS = -lnuma
endif

B = build
# Things other mk/ fragments add to.
ALL_TARGETS :=
UNIT_TESTS :=

# Inputs of `make bench`, passed to scripts through the environment.
# Unset unless given: the planner owns the defaults (KERNEL host, HUGEPAGES
# compare), and a scenario's (SCENARIO=mitigations: KERNEL 7.2-lab where
# built, HUGEPAGES off) apply only to what nobody set, make included.
# The planner's variables, read from their table itself
# (lab/common/variables.def, which build/plan --variables prints), and
# PG_HUGEPAGES, PG_HUGE_PAGES' old name: make exports these and make fleet
# forwards them.  A hand-kept copy once dropped 18 of them (SCENARIO,
# EVIDENCE, ARCH...) on every host without a word; make_vars.sh checks
# that this list and the planner's agree and that make fleet forwards each.
BENCH_VARS := $(shell sed -n 's/^VAR.\([A-Z][A-Z0-9_]*\),.*/\1/p' lab/common/variables.def) PG_HUGEPAGES
# Export only what is set: `export X` of an unset X hands the scripts an
# empty X, which they would read as "set to nothing" (BASELINE= means none).
# Each is kept as given, like DATA_VARS below: make expands an exported
# recursive variable for every recipe's environment, so CLIENTS='$(shell
# ...)' ran (issue 35, N5).  Recipes read them as "$$NAME", never $(NAME).
$(foreach v,$(BENCH_VARS),$(if $(filter undefined,$(origin $(v))),,$(eval override $(v) := $$(value $(v)))$(eval export $(v))))

# Paths the report and fleet targets take (make report RUN=..., compare
# RUNS=... OUT=... BASELINE=..., flamegraph DIFF=..., fleet INVENTORY=...):
# kept exactly as given, as simple variables that make never expands again
# (a recursive one would run a $(shell ...) in them when a recipe used or
# exported it), and handed to the scripts through the environment only;
# no recipe splices them into its text, and the scripts check them.
# The model targets' inputs (make predict INPUTS= CPUS= MODEL= SIM=, with
# CLIENTS and PAGES from BENCH_VARS; make model RUN=) are data the same way:
# build/predict and build/model check them.
DATA_VARS = RUN RUNS OUT DIFF INVENTORY BASELINE FLEET_RESULTS INPUTS CPUS MODEL SIM
$(foreach v,$(DATA_VARS),$(if $(filter undefined,$(origin $(v))),,$(eval override $(v) := $$(value $(v)))$(eval export $(v))))

.PHONY: all test unit-test e2e-test bench report flamegraph attach kernel clean distclean lint configure-if-needed

all: config.mk build-all

config.mk:
	@if [ "$$(id -u)" = 0 ]; then ./configure --install-deps; else ./configure; fi

configure-if-needed: config.mk

include mk/buffer_pool.mk
include mk/plan.mk
include mk/manifest.mk
include mk/channel.mk
include mk/attach.mk
include mk/evidence.mk
include mk/repro.mk
include mk/runstate.mk
include mk/elfclosure.mk
-include mk/kernel.mk
-include mk/pg.mk
# The model's library before the report, which links it (MODEL_LIB_OBJS).
include mk/model.mk
-include mk/report.mk
include mk/costbench.mk
include mk/runner.mk
# After every fragment: it lists the unit tests they added to ALL_TARGETS.
include mk/sanitize.mk
include mk/cross.mk

build-all: $(ALL_TARGETS)
.PHONY: build-all

test: config.mk
	$(MAKE) build-all
	tests/run.sh all

unit-test: config.mk
	$(MAKE) build-all
	tests/run.sh unit

e2e-test: config.mk
	$(MAKE) build-all
	tests/run.sh e2e

# A guest whose programs are cross-built (its row of the architecture
# table has a guest_bin_dir of its own: ARCH=arm64, or the default on an
# arm64 host) runs those static builds; KERNEL=host runs build/ as it is.
bench: config.mk
	$(MAKE) build-all
	@if [ "$${KERNEL:-host}" != host ] && a=$$($(B)/plan --arch-info "$${ARCH-}" name) && \
		[ "$$($(B)/plan --arch-info "$$a" guest_bin_dir)" != build ]; then \
		$(MAKE) cross-guest CROSS=$$a && \
		{ [ "$${PGBENCH-}" = off ] || $(MAKE) cross-pgsample CROSS=$$a; }; \
	fi
	scripts/bench.sh

lint:
	shellcheck -x configure scripts/*.sh tests/*.sh tests/e2e/*.sh tests/long/*.sh tests/native/*.sh guest/init .ci/run

clean:
	rm -rf $(B) build-san build-fuzz

distclean: clean
	rm -f config.mk config.h

$(B)/%.o: %.c config.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)/static/%.o: %.c config.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

# The lab's git revision (scripts/common.sh lab_revision: also where
# reproduce.sh unpacked an attachment's source), rewritten only when it
# changes so that a commit does not rebuild everything.
$(B)/revision.h: FORCE
	@mkdir -p $(B)
	@rev=$$(. scripts/common.sh && lab_revision .); \
	new="#define LAB_REVISION \"$$rev\""; \
	[ "$$(cat $@ 2>/dev/null)" = "$$new" ] || echo "$$new" > $@
$(B)/lab/common/provenance.o $(B)/static/lab/common/provenance.o: $(B)/revision.h
FORCE:
.PHONY: FORCE

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# make fleet INVENTORY=FILE [make bench variables]: fleet/playbook.yml over
# an Ansible inventory (fleet/README.md); the variables given here reach
# every host's make bench.
fleet:
	FLEET_VARS='$(foreach v,$(BENCH_VARS),$(if $(filter command line environment override,$(origin $(v))),$(v)))' \
		scripts/fleet.sh
.PHONY: fleet
