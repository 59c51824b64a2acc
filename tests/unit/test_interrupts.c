/*
 * /proc/interrupts as both architectures print it: the IPI lines found by
 * their description, one CPU's column or the sum of all, arm64's first
 * arch_timer line only, and a missing line or CPU left unknown.
 */
#include "check.h"
#include "interrupts.h"

#include <string.h>

static const char x86[] =
	"           CPU0       CPU1       \n"
	"  0:         38          0   IO-APIC   2-edge      timer\n"
	"NMI:          0          0   Non-maskable interrupts\n"
	"LOC:   18677562   18607818   Local timer interrupts\n"
	"RES:    7266105    6700299   Rescheduling interrupts\n"
	"CAL:    7554715    7823852   Function call interrupts\n"
	"TLB:       1234       5678   TLB shootdowns\n"
	"ERR:          0\n";

static const char arm64[] =
	"           CPU0       CPU1       CPU2       \n"
	" 11:       9001       8002       7003     GICv3  27 Level     arch_timer\n"
	" 12:          5          6          7     GICv3  30 Level     arch_timer\n"
	"IPI0:        11         22         33       Rescheduling interrupts\n"
	"IPI1:       101        202        303       Function call interrupts\n"
	"IPI2:         0          0          0       CPU stop interrupts\n";

static struct irq_counts parse(const char *text, int cpu)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct irq_counts c = irq_counts_parse(f, cpu);
	fclose(f);
	return c;
}

int main(void)
{
	struct irq_counts c = parse(x86, 1);
	CHECK(c.known && c.resched == 6700299 && c.call_function == 7823852 && c.local_timer == 18607818,
	      "x86, CPU1's column: RES, CAL, LOC");
	c = parse(x86, -1);
	CHECK(c.known && c.resched == 7266105 + 6700299 && c.call_function == 7554715 + 7823852,
	      "x86, every CPU summed");
	c = parse(arm64, 2);
	CHECK(c.known && c.resched == 33 && c.call_function == 303 && c.local_timer == 7003,
	      "arm64, CPU2: IPI0, IPI1 and the first arch_timer line");
	c = parse(arm64, -1);
	CHECK(c.known && c.resched == 66 && c.call_function == 606 && c.local_timer == 24006, "arm64 summed");
	CHECK(!parse(x86, 7).known, "a CPU the header does not name is unknown");
	CHECK(!parse("           CPU0\nLOC:  5  Local timer interrupts\n", 0).known,
	      "no IPI lines (a uniprocessor kernel): unknown");
	CHECK(parse("           CPU0\nRES:  5  Rescheduling interrupts\nCAL:  1  Function call interrupts\n", 0)
		      .local_timer == -1,
	      "no timer line: -1, not 0");
	struct irq_counts a = { true, 10, 20, 30 }, b = { true, 15, 27, 100 };
	struct irq_counts d = irq_counts_delta(a, b);
	CHECK(d.known && d.resched == 5 && d.call_function == 7 && d.local_timer == 70, "delta");
	b.known = false;
	b.local_timer = -1;
	d = irq_counts_delta(a, b);
	CHECK(!d.known && d.local_timer == -1, "delta of an unknown reading is unknown");
	return CHECK_DONE();
}
