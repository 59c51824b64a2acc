/*
 * What costbench --remote-wake reads of the machine beside its timings:
 * whether two CPUs share a last-level cache (the condition for a waker
 * to wake a task on another CPU itself); the interrupt counts are
 * lab/common/interrupts.c's, the hrtick's state provenance.c's.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "costbench.h"

/* Is CPU in a sysfs cpulist such as "0-3,8"? */
static bool in_cpulist(const char *list, int cpu)
{
	const char *p = list;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			return false;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return true;
		p = *end == ',' ? end + 1 : end;
		if (*p == '\n')
			break;
	}
	return false;
}

/* The highest cache level of TARGET and whether WAKER shares it. */
void costbench_llc_shared(struct costbench_remote *r)
{
	int best = -1;
	char list[256] = "";
	for (int i = 0; i < 16; i++) {
		char path[128], level[16];
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
			 r->target_cpu, i);
		FILE *f = fopen(path, "r");
		if (!f)
			break;
		bool got = fgets(level, sizeof(level), f) != NULL;
		fclose(f);
		if (!got || atoi(level) <= best)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
			 r->target_cpu, i);
		if ((f = fopen(path, "r"))) {
			if (fgets(list, sizeof(list), f))
				best = atoi(level);
			fclose(f);
		}
	}
	if (best < 0) {
		r->llc_shared = "unknown";
		snprintf(r->llc_source, sizeof(r->llc_source),
			 "/sys/devices/system/cpu/cpu%d/cache: no cache levels", r->target_cpu);
		return;
	}
	list[strcspn(list, "\n")] = '\0';
	r->llc_shared = in_cpulist(list, r->waker_cpu) ? "yes" : "no";
	snprintf(r->llc_source, sizeof(r->llc_source), "sysfs: cpu%d's L%d shared_cpu_list %s",
		 r->target_cpu, best, list);
}
