# The buffer pool library, bufbench (dynamic and static), bufmicro, and
# their unit tests.

BP_SRCS = $(wildcard buffer_pool/*.c)
BP_OBJS = $(BP_SRCS:%.c=$(B)/%.o)
BP_STATIC_OBJS = $(BP_SRCS:%.c=$(B)/static/%.o)
LAB_COMMON = lab/common/lab_vocab.c lab/common/json.c lab/common/provenance.c lab/common/kernel_tick.c lab/common/unit_conf.c lab/common/rseq_kstats.c lab/common/size.c \
	lab/common/mitigation_rows.c
# lab/common/statistics.c: the one Wilson interval, the evidence's q_M
# (evidence_json.c) and the report's (libm only, so the static guest
# binary links it too).
BUFBENCH_SRCS = $(wildcard lab/bufbench/*.c) $(wildcard lab/evidence/*.c) $(LAB_COMMON) lab/common/statistics.c

$(B)/libbufferpool.a: $(BP_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(B)/bufbench: $(BUFBENCH_SRCS:%.c=$(B)/%.o) $(B)/libbufferpool.a
	$(CC) $(LDFLAGS) -o $@ $^ $(NUMA_LIBS) $(LDLIBS)

# Guests boot an initramfs with no libraries: link everything in.
ifeq ($(NUMA_STATIC),1)
STATIC_NUMA_LIBS = $(NUMA_LIBS)
endif
$(B)/bufbench-static: $(BUFBENCH_SRCS:%.c=$(B)/static/%.o) $(BP_STATIC_OBJS)
	$(CC) -static $(LDFLAGS) -o $@ $^ $(STATIC_NUMA_LIBS) $(LDLIBS)

$(B)/bufmicro: $(B)/lab/bufmicro/main.o $(LAB_COMMON:%.c=$(B)/%.o) $(B)/libbufferpool.a
	$(CC) $(LDFLAGS) -o $@ $^ $(NUMA_LIBS) $(LDLIBS)

BP_TESTS = $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/test_bp_*.c))
$(B)/tests/test_bp_%: $(B)/tests/unit/test_bp_%.o $(LAB_COMMON:%.c=$(B)/%.o) $(B)/libbufferpool.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(NUMA_LIBS) $(LDLIBS)

ALL_TARGETS += $(B)/libbufferpool.a $(B)/bufbench $(B)/bufbench-static $(B)/bufmicro $(BP_TESTS)

# The join of hold records with a trace, replayed on tests/data/evidence.
EVIDENCE_OBJS = $(B)/lab/evidence/trace_join.o $(B)/lab/evidence/census.o $(B)/lab/evidence/hold_file.o \
	$(B)/lab/evidence/trace_ns.o $(B)/buffer_pool/hold_tail.o
$(B)/tests/unit/test_evidence_join.o: CFLAGS += -DPREEMPTLAB_TOP='"$(CURDIR)"'
$(B)/tests/test_evidence_join: $(B)/tests/unit/test_evidence_join.o $(EVIDENCE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
ALL_TARGETS += $(B)/tests/test_evidence_join

# The kernel-tick test reads tests/data/kconfig.
$(B)/tests/unit/test_bp_kernel_tick.o: CFLAGS += -DPREEMPTLAB_TOP='"$(CURDIR)"'
