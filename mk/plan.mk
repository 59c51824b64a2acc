# build/plan: the planner (lab/plan/), the one place a bench's matrix,
# defaults, validation and sizing are decided.

PLAN_OBJS = $(patsubst %.c,$(B)/%.o,$(wildcard lab/plan/*.c)) $(B)/lab/common/json.o

$(B)/plan: $(PLAN_OBJS) $(B)/libbufferpool.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ALL_TARGETS += $(B)/plan
