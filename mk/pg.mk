# PostgreSQL + pgbench beside the miniature pool (docs/postgres.md).
# build/pgsample samples pg_stat_activity and writes pgbench's result
# document; it needs libpq, so it is built only when configure found it.

PGSAMPLE_CORE = $(B)/lab/pgsample/tally.o $(B)/lab/pgsample/pgbench.o \
	$(B)/lab/pgsample/pages.o $(B)/lab/pgsample/hugepages.o $(B)/lab/pgsample/cluster.o \
	$(B)/lab/common/size.o $(B)/lab/common/json.o
PGSAMPLE_OBJS = $(B)/lab/pgsample/main.o $(B)/lab/pgsample/sampler.o $(B)/lab/pgsample/buffill.o \
	$(B)/lab/pgsample/runas.o $(B)/lab/common/provenance.o $(B)/lab/common/kernel_tick.o $(B)/lab/common/unit_conf.o $(B)/lab/common/mitigation_rows.o \
	$(B)/lab/common/interrupts.o $(PGSAMPLE_CORE)

ifeq ($(HAVE_PQ),1)
$(B)/lab/pgsample/main.o $(B)/lab/pgsample/sampler.o $(B)/lab/pgsample/buffill.o: CFLAGS += $(PQ_CFLAGS)

$(B)/pgsample: $(PGSAMPLE_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(PQ_LIBS) $(LDLIBS)

ALL_TARGETS += $(B)/pgsample
endif

# The parsers and counting rules need no libpq: always tested.
$(B)/tests/test_pgsample: $(B)/tests/unit/test_pgsample.o $(PGSAMPLE_CORE)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_pgsample
