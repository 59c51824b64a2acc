# Report, charts, flame graphs and the mail attachment (issue 5).
# build/report reads results/RUN/runs/*.json; build/stackfold and
# build/flamegraph are standalone so guest-side perf data can use them too.

REPORT_LIB_OBJS = $(B)/lab/report/json_read.o $(B)/lab/report/stats.o

$(B)/tests/test_stats: $(B)/tests/unit/test_stats.o $(B)/lab/report/stats.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/test_json_read: $(B)/tests/unit/test_json_read.o $(B)/lab/report/json_read.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_stats $(B)/tests/test_json_read
