# build/plan: the planner (lab/plan/), the one place a bench's matrix,
# defaults, validation and sizing are decided.

PLAN_OBJS = $(patsubst %.c,$(B)/%.o,$(wildcard lab/plan/*.c)) $(B)/lab/common/arch.o $(B)/lab/common/mitigation_rows.o $(B)/lab/common/json.o $(B)/lab/common/bench_vars.o \
	$(B)/lab/common/lab_vocab.o $(B)/lab/common/size.o $(B)/lab/common/json_read.o

# jansson: json_read.o, for the model inputs --validation-grid reads.
$(B)/plan: $(PLAN_OBJS) $(B)/libbufferpool.a
	$(CC) $(LDFLAGS) -o $@ $^ $(JANSSON_LIBS) $(LDLIBS)

ALL_TARGETS += $(B)/plan

# The scenarios' scaling arithmetic, tested without a machine of each size.
$(B)/tests/test_plan_seed: $(B)/tests/unit/test_plan_seed.o $(B)/lab/plan/scenario.o \
		$(B)/lab/plan/vars.o $(B)/lab/common/bench_vars.o $(B)/lab/common/lab_vocab.o $(B)/lab/common/size.o $(B)/libbufferpool.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_plan_seed

# The vCPU pinning plan, for host descriptions of any size.
$(B)/tests/test_plan_pin: $(B)/tests/unit/test_plan_pin.o $(B)/lab/plan/pinning.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_plan_pin

# The one size parser (lab/common/size.c) of the planner, bufbench and pgsample.
$(B)/tests/test_size: $(B)/tests/unit/test_size.o $(B)/lab/common/size.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_size

# The variable table: every row's field and defaults, and the stages it drives.
$(B)/tests/test_plan_variables: $(B)/tests/unit/test_plan_variables.o \
		$(filter-out $(B)/lab/plan/main.o,$(PLAN_OBJS)) $(B)/libbufferpool.a
	$(CC) $(LDFLAGS) -o $@ $^ $(JANSSON_LIBS) $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_plan_variables

# The mitigation rows against the vocabulary, pg/patches and pg/majors.
$(B)/tests/unit/test_mitigation_rows.o: CFLAGS += -DPREEMPTLAB_TOP='"$(CURDIR)"'
$(B)/tests/test_mitigation_rows: $(B)/tests/unit/test_mitigation_rows.o $(B)/lab/common/mitigation_rows.o \
		$(B)/buffer_pool/vocab.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_mitigation_rows

# A built kernel's recipe, its hash and its fragments, on a catalog of the test's own.
$(B)/tests/test_kernel_recipe: $(B)/tests/unit/test_kernel_recipe.o \
		$(filter-out $(B)/lab/plan/main.o,$(PLAN_OBJS)) $(B)/libbufferpool.a
	$(CC) $(LDFLAGS) -o $@ $^ $(JANSSON_LIBS) $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_kernel_recipe

# A cached kernel resolution: re-rooted, or refused when changed since.
$(B)/tests/test_kernel_resolution: $(B)/tests/unit/test_kernel_resolution.o $(B)/lab/plan/kernel_resolution.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_kernel_resolution

# What the PostgreSQL materials scripts fetch and build (pg_materials.c).
$(B)/tests/unit/test_pg_materials.o: CFLAGS += -DPREEMPTLAB_TOP='"$(CURDIR)"'
$(B)/tests/test_pg_materials: $(B)/tests/unit/test_pg_materials.o $(B)/lab/plan/pg_materials.o \
		$(B)/lab/plan/vars.o $(B)/lab/common/bench_vars.o $(B)/lab/common/lab_vocab.o \
		$(B)/lab/common/size.o $(B)/libbufferpool.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/tests/test_pg_materials
