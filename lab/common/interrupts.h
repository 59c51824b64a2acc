/*
 * The interrupts a CPU (or the machine) took, from /proc/interrupts: the
 * count that tells how wakeups reached a busy CPU.  A remote resched_curr
 * sends a rescheduling interrupt under none and full and none under lazy
 * (kernel/sched/core.c __resched_curr); the wakelist and the hrtick's
 * cross-CPU call send function-call interrupts under every model.  Lines
 * are found by the description both architectures print (x86's RES, CAL
 * and LOC; arm64's IPI0, IPI1 and arch_timer), not by their label.
 */
#ifndef PREEMPTLAB_INTERRUPTS_H
#define PREEMPTLAB_INTERRUPTS_H

#include <stdbool.h>
#include <stdio.h>

struct irq_counts {
	bool known;		/* both IPI lines and the CPU's column were found */
	long resched;		/* rescheduling interrupts */
	long call_function;	/* function-call interrupts */
	long local_timer;	/* the CPU's own timer (x86 LOC, arm64 arch_timer); -1 not found */
};

/* From /proc/interrupts' text: cpu >= 0 reads that CPU's column (by the
 * header's "CPUn"), cpu < 0 the sum over every column. */
struct irq_counts irq_counts_parse(FILE *f, int cpu);

/* The same from /proc/interrupts; known is false where it cannot be read. */
struct irq_counts irq_counts_read(int cpu);

/* after - before, known only where both were. */
struct irq_counts irq_counts_delta(struct irq_counts before, struct irq_counts after);

#endif
