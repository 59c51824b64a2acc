# The strategy-lock model (issue 27, lab/model/): build/predict, the closed
# form and the simulation, and their unit tests.  make predict INPUTS=FILE
# CPUS=96 CLIENTS=1024 [MODEL=lazy] [SIM=1] prints a model's fill tps
# against none at that size (docs/scale.md).

JANSSON_LIBS ?= -ljansson
# Every lab/model file but the programs' mains.
MODEL_LIB_OBJS = $(patsubst %.c,$(B)/%.o,$(filter-out %_main.c,$(wildcard lab/model/*.c)))
MODEL_OBJS = $(MODEL_LIB_OBJS) $(B)/lab/common/json_read.o $(B)/lab/common/statistics.o \
	$(B)/buffer_pool/spin_backoff.o

$(B)/predict: $(B)/lab/model/predict_main.o $(MODEL_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(JANSSON_LIBS) $(LDLIBS)

MODEL_TESTS = $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/test_model_*.c))
$(B)/tests/unit/test_model_%.o: CFLAGS += -DPREEMPTLAB_TOP='"$(CURDIR)"'
$(B)/tests/test_model_%: $(B)/tests/unit/test_model_%.o $(MODEL_OBJS) $(B)/libbufferpool.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(JANSSON_LIBS) $(NUMA_LIBS) $(LDLIBS)

# The lock-capacity law's grid (capacity.h), calibrated on one hot-lock cell.
$(B)/capacity: $(B)/lab/model/capacity_main.o $(MODEL_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(JANSSON_LIBS) $(LDLIBS)

ALL_TARGETS += $(B)/predict $(B)/capacity $(MODEL_TESTS)

# Without INPUTS: the calibration docs/scale.md's blind prediction is
# made from (docs/model/calibrated-72lab-4k-c21-twins.json: one kernel,
# 7.2-lab, with a q for each of none, voluntary, full and lazy, from
# traced runs with bare twins), moved to PAGES (default 4k) by the stated
# rules; without CPUS and CLIENTS: the regression report's
# configuration (predict --report).  The variables reach the recipe through
# the environment, as data (Makefile: DATA_VARS), never spliced into it.
MODEL_CALIBRATED = docs/model/calibrated-72lab-4k-c21-twins.json
predict: config.mk
	$(MAKE) $(B)/predict
	$(B)/predict --inputs "$${INPUTS:-$(MODEL_CALIBRATED)}" \
		$(if $(or $(CPUS),$(CLIENTS)),--cpus "$${CPUS-}" --clients "$${CLIENTS-}",--report) \
		$(if $(INPUTS),,--extrapolate --pages "$${PAGES:-4k}") \
		$(if $(MODEL),--model "$$MODEL") $(if $(filter 1,$(SIM)),--sim)
.PHONY: predict

# make model RUN=results/DIR: the model's inputs from an EVIDENCE run
# (lab/model/extract.c), one model-inputs-PAGES-cCLIENTS.json per cell family.
$(B)/model: $(B)/lab/model/model_main.o $(MODEL_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(JANSSON_LIBS) $(LDLIBS)
ALL_TARGETS += $(B)/model

model: config.mk
	@if [ -z "$${RUN-}" ]; then echo "make model: give RUN=results/DIR (a make bench EVIDENCE=on run)" >&2; exit 2; fi
	$(MAKE) $(B)/model
	$(B)/model "$$RUN"
.PHONY: model
