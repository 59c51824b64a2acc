# Report, charts, flame graphs and the mail attachment (issue 5).
# Result documents are read with jansson (libjansson-dev).
JANSSON_LIBS = -ljansson
# build/report reads results/RUN/runs/*.json; build/stackfold and
# build/flamegraph are standalone so guest-side perf data can use them too.

REPORT_LIB_OBJS = $(B)/lab/common/json_read.o $(B)/lab/common/statistics.o

$(B)/tests/test_stats: $(B)/tests/unit/test_stats.o $(B)/lab/common/statistics.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/test_json_read: $(B)/tests/unit/test_json_read.o $(B)/lab/common/json_read.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(JANSSON_LIBS) $(LDLIBS)

$(B)/tests/test_escape: $(B)/tests/unit/test_escape.o $(B)/lab/report/escape.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_stats $(B)/tests/test_json_read $(B)/tests/test_escape

# Every lab/report file but the mains and perf_script.c (stackfold's
# reader); the model's library (mk/model.mk) for the at-scale section.
REPORT_LIB_SRCS = $(filter-out %_main.c lab/report/perf_script.c,$(wildcard lab/report/*.c))
REPORT_OBJS = $(B)/lab/report/report_main.o $(patsubst %.c,$(B)/%.o,$(REPORT_LIB_SRCS)) $(REPORT_LIB_OBJS) \
	$(MODEL_LIB_OBJS) $(B)/buffer_pool/spin_backoff.o \
	$(B)/buffer_pool/vocab.o $(B)/lab/common/lab_vocab.o $(B)/lab/common/bench_vars.o $(B)/lab/common/arch.o $(B)/lab/common/mitigation_rows.o

$(B)/report: $(REPORT_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(JANSSON_LIBS) $(LDLIBS)

ALL_TARGETS += $(B)/report

# make compare: the same renderers over several run directories.
COMPARE_OBJS = $(filter-out $(B)/lab/report/report_main.o,$(REPORT_OBJS)) $(B)/lab/report/compare_main.o

$(B)/compare: $(COMPARE_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(JANSSON_LIBS) $(LDLIBS)

ALL_TARGETS += $(B)/compare

$(B)/stackfold: $(B)/lab/report/stackfold_main.o $(B)/lab/report/perf_script.o $(B)/lab/report/fold.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/flamegraph: $(B)/lab/report/flamegraph_main.o $(B)/lab/report/flame.o \
		$(B)/lab/report/flame_cells.o $(B)/lab/report/outfile.o $(B)/lab/report/escape.o \
		$(B)/lab/report/fold.o $(B)/lab/report/svg.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/stackfold $(B)/flamegraph

$(B)/tests/test_fold: $(B)/tests/unit/test_fold.o $(B)/lab/report/perf_script.o \
		$(B)/lab/report/fold.o $(B)/lab/report/flame.o $(B)/lab/report/svg.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_fold

# make report RUN=DIR [BASELINE=KERNEL/MODEL]; make flamegraph RUN=DIR
# [DIFF=A,B]; make attach RUN=DIR [ATTACH_MAX_KB=1024].  Without RUN the
# newest results directory is used.  RUN, DIFF, RUNS and OUT reach the
# scripts through the environment (DATA_VARS in the Makefile).
REPORT_TOOLS = $(B)/report $(B)/stackfold $(B)/flamegraph

report: config.mk
	$(MAKE) $(REPORT_TOOLS)
	scripts/report.sh

flamegraph: config.mk
	$(MAKE) $(REPORT_TOOLS)
	scripts/flamegraph.sh

attach: config.mk
	$(MAKE) $(REPORT_TOOLS)
	scripts/attach.sh

# make compare RUNS="results/A results/B ..." [BASELINE=results/A] [OUT=DIR]:
# one report over several runs (boots, kernels, machines), written to
# results/compare-<timestamp>/ unless OUT is given.
compare: config.mk
	$(MAKE) $(B)/compare
	scripts/compare.sh
.PHONY: compare

# The browser test's screenshot reader (tests/e2e/report_browser.sh).
$(B)/tests/pngcount: $(B)/tests/browser/pngcount.o
	$(CC) $(CFLAGS) -o $@ $^ -lz
ALL_TARGETS += $(B)/tests/pngcount
