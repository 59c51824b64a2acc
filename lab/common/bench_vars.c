/* The names and the safe characters of `make bench` variables (bench_vars.h). */
#include <string.h>

#include "bench_vars.h"

const char *const bench_vars[] = {
	"SCENARIO", "KERNEL", "HUGEPAGES", "BASELINE", "BASELINE_MODELS", "MODELS", "MODEL_SWITCH",
	"PAGES", "CLIENTS", "LOCKS", "STRATEGY", "MITIGATIONS", "DURATION", "WARMUP", "REPEAT", "POOL",
	"RELATION", "WORKLOAD", "FREELIST_STRIDE", "STEADY", "HOLD_EVENTS", "REPRO_MIN", "COSTBENCH", "EVIDENCE", "CHANNEL", "CONTROLS", "SLICE_EXT_US",
	"FAULT_AROUND_BYTES", "BASE_SLICE_US", "SPINS_PER_DELAY",
	"BUFBENCH_ARGS",
	"PGBENCH", "PG_HUGE_PAGES", "PG_SHARED_BUFFERS", "PG_BUILTINS", "PG_SCALE", "PG_REPEAT",
	"PG_DURATION", "PG_FILLFACTOR", "PG_COLD", "PG_BUFFERCACHE", "PG_VERSION", "PROFILE", "PROFILE_FREQ", "PROFILE_CALLGRAPH",
	"VCPUS", "MEM_MB", "ACCEL", "ICOUNT_SHIFT", "PIN_VCPUS", "GUEST_HUGEPAGES", "HOST_TOPOLOGY", "ICOUNT_EPOCH", "BOOTS", "ARCH",
	"FORCE", NULL,
};

bool bench_var_known(const char *name)
{
	for (int i = 0; bench_vars[i]; i++)
		if (!strcmp(bench_vars[i], name))
			return true;
	return false;
}

bool bench_value_safe(const char *value)
{
	for (const unsigned char *c = (const unsigned char *)value; *c; c++) {
		/* Not isalnum(): the locale must not widen the set. */
		bool alnum = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9');
		if (!alnum && !strchr(" ,._:/+=@-", *c))
			return false;
	}
	return true;
}
