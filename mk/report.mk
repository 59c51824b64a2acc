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

REPORT_OBJS = $(addprefix $(B)/lab/report/, report_main.o results.o metrics.o compare.o pairs.o \
	findings.o env.o repro.o escape.o outfile.o textfmt.o report_txt.o report_md.o report_html.o charts.o comparison.o svg.o fold.o flame.o \
	profiles.o sampler.o micro.o summary.o fillphase.o evidence.o modelcost.o timeline.o resolution.o sources.o atscale.o hl_ratio.o separates.o \
	instruments.o overhead.o mitigations.o rho.o logs_each.o doc_rows.o wakefault.o remotewake.o) $(REPORT_LIB_OBJS) \
	$(addprefix $(B)/lab/model/, inputs.o stall.o closed.o channels.o blind.o eevdf.o extract.o extrap.o x0page.o costs.o) \
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
