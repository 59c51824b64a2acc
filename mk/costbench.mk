# costbench: the cost of a fault and a system call under the running model
# (issue 24), dynamic for the host and static for the guest's initramfs.
COSTBENCH_SRCS = $(wildcard lab/costbench/*.c) lab/common/json.c lab/common/provenance.c lab/common/kernel_tick.c lab/common/unit_conf.c \
	lab/common/interrupts.c buffer_pool/rseq_slice.c lab/evidence/tracefs.c lab/evidence/tracefs_reap.c lab/evidence/trace_ns.c \
	lab/evidence/trace_join.c lab/evidence/census.c lab/evidence/hold_file.c lab/evidence/census_json.c
$(B)/costbench: $(COSTBENCH_SRCS:%.c=$(B)/%.o)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(B)/costbench-static: $(COSTBENCH_SRCS:%.c=$(B)/static/%.o)
	$(CC) -static $(LDFLAGS) -o $@ $^ $(LDLIBS)

COSTBENCH_LIB_OBJS = $(B)/lab/costbench/ops.o $(B)/lab/costbench/counter.o $(B)/lab/costbench/summary.o \
	$(B)/lab/costbench/procs.o $(B)/lab/common/unit_conf.o
$(B)/tests/test_costbench: $(B)/tests/unit/test_costbench.o $(COSTBENCH_LIB_OBJS) $(B)/lab/report/hl_ratio.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The /proc/interrupts reader of costbench and pgsample.
$(B)/tests/test_interrupts: $(B)/tests/unit/test_interrupts.o $(B)/lab/common/interrupts.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/costbench $(B)/costbench-static $(B)/tests/test_costbench $(B)/tests/test_interrupts
