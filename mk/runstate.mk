# build/runstate: a run's state file and the sweep of what runs killed
# outright left (lab/runstate/; scripts/run-state.sh calls it).  It reaps
# dead bufbenches' tracefs instances with bufbench's own tracefs_reap.
RUNSTATE_OBJS = $(patsubst %.c,$(B)/%.o,$(filter-out lab/runstate/main.c,$(wildcard lab/runstate/*.c))) \
	$(B)/lab/evidence/tracefs_reap.o

$(B)/runstate: $(B)/lab/runstate/main.o $(RUNSTATE_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Its parser and trust checks, on files and processes of the test's own.
$(B)/tests/test_runstate: $(B)/tests/unit/test_runstate.o $(RUNSTATE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/runstate $(B)/tests/test_runstate
