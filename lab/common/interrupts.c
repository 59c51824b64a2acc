#include "interrupts.h"

#include <stdlib.h>
#include <string.h>

/* Which counter a line adds to, by its description; NULL for the rest. */
static long *counter_of(const char *line, struct irq_counts *c)
{
	if (strstr(line, "Rescheduling interrupts"))
		return &c->resched;
	if (strstr(line, "Function call interrupts"))
		return &c->call_function;
	if (strstr(line, "Local timer interrupts") || strstr(line, "arch_timer"))
		return &c->local_timer;
	return NULL;
}

struct irq_counts irq_counts_parse(FILE *f, int cpu)
{
	struct irq_counts c = { false, 0, 0, -1 };
	char line[8192];
	int col = -1, ncpus = 0, ipis = 0;
	bool timer = false;
	if (!fgets(line, sizeof(line), f))
		return c;
	/* The header names the online CPUs in column order. */
	char want[16];
	snprintf(want, sizeof(want), "CPU%d", cpu);
	for (char *t = strtok(line, " \t\n"); t; t = strtok(NULL, " \t\n"), ncpus++)
		if (cpu >= 0 && !strcmp(t, want))
			col = ncpus;
	if (cpu >= 0 && col < 0)
		return c;
	while (fgets(line, sizeof(line), f)) {
		long *into = counter_of(line, &c);
		char *p = strchr(line, ':');
		if (!into || !p)
			continue;
		if (into == &c.local_timer) {
			/* arm64 prints one arch_timer line per timer kind; the
			 * virtual timer is the one that ticks, and the first. */
			if (timer)
				continue;
			timer = true;
			c.local_timer = 0;
		} else {
			ipis++;
		}
		p++;
		for (int i = 0; i < ncpus; i++) {
			long v = strtol(p, &p, 10);
			if (cpu < 0)
				*into += v;
			else if (i == col)
				*into = v;
		}
	}
	c.known = ipis == 2;
	return c;
}

struct irq_counts irq_counts_read(int cpu)
{
	struct irq_counts c = { false, 0, 0, -1 };
	FILE *f = fopen("/proc/interrupts", "r");
	if (!f)
		return c;
	c = irq_counts_parse(f, cpu);
	fclose(f);
	return c;
}

struct irq_counts irq_counts_delta(struct irq_counts before, struct irq_counts after)
{
	return (struct irq_counts){
		before.known && after.known,
		after.resched - before.resched,
		after.call_function - before.call_function,
		before.local_timer >= 0 && after.local_timer >= 0 ? after.local_timer - before.local_timer : -1,
	};
}
