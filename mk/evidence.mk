# The reaping of tracefs instances left by a bufbench killed outright
# (lab/evidence/tracefs_reap.c; bufbench links it through BUFBENCH_SRCS).
$(B)/tests/test_tracefs_reap: $(B)/tests/unit/test_tracefs_reap.o $(B)/lab/evidence/tracefs_reap.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_tracefs_reap
