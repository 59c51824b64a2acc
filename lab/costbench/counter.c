/* Instructions per batch: the PMU where there is one, else icount's clock. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "costbench.h"
#include "unit_conf.h"

void costbench_counter_open(struct costbench_counter *c)
{
	struct perf_event_attr a;
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	/* Kernel instructions are the point: the model's cost is in the kernel. */
	a.exclude_hv = 1;
	c->fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (c->fd >= 0) {
		c->source = CB_INSTR_PERF;
		return;
	}
	snprintf(c->why, sizeof(c->why), "perf_event_open(instructions, kernel included): %s",
		 strerror(errno));
	/*
	 * Under QEMU icount (TCG emulates no PMU) the guest's clock advances
	 * 2^shift ns per instruction executed, so an interval's ns are its
	 * instructions, those of interrupts taken inside it included.
	 */
	const char *virt = unit_conf_get("virt");
	const char *shift = unit_conf_get("icount_shift");
	if (virt && !strcmp(virt, "tcg-icount") && shift && *shift) {
		c->source = CB_INSTR_ICOUNT;
		c->icount_shift = atoi(shift);
		return;
	}
	c->source = CB_INSTR_NONE;
}

int64_t costbench_counter_read(const struct costbench_counter *c)
{
	uint64_t v;
	if (c->source != CB_INSTR_PERF || read(c->fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return -1;
	return (int64_t)v;
}
