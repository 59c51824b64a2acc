/*
 * costbench's measurements on this machine: each fault op's touches took
 * exactly one fault each (getrusage), the batches are all there, a fault
 * costs more than a getppid, instructions come from where the counter
 * says, and the order statistics match values worked by hand.
 */
#include <string.h>
#include <sys/mman.h>

#include "check.h"
#include "costbench/costbench.h"

static void summary_by_hand(void)
{
	double v[] = { 9, 1, 5, 3, 7 };
	struct cb_summary s;
	cb_summarize(v, 5, &s);
	CHECK(s.median == 5 && s.min == 1 && s.max == 9, "odd count: median 5, min 1, max 9 (got %g %g %g)",
	      s.median, s.min, s.max);
	CHECK(s.p25 == 3 && s.p75 == 7, "odd count: quartiles 3 and 7 (got %g %g)", s.p25, s.p75);
	double w[] = { 4, 1, 3, 2 };
	cb_summarize(w, 4, &s);
	/* Type 7: h = 3q; q=.5 -> 2.5, q=.25 -> 1.75, q=.75 -> 3.25. */
	CHECK(s.median == 2.5 && s.p25 == 1.75 && s.p75 == 3.25,
	      "even count interpolates: 2.5, 1.75, 3.25 (got %g %g %g)", s.median, s.p25, s.p75);
	double one[] = { 42 };
	cb_summarize(one, 1, &s);
	CHECK(s.median == 42 && s.p25 == 42 && s.p75 == 42, "one batch: every statistic is it");
}

static double median_of(struct cb_op *op, bool instr)
{
	struct cb_summary s;
	double v[CB_MAX_BATCHES];
	memcpy(v, instr ? op->instr : op->ns, sizeof(double) * (size_t)op->nbatches);
	cb_summarize(v, op->nbatches, &s);
	return s.median;
}

int main(void)
{
	summary_by_hand();

	struct cb_config cfg = { 7, 64, 1, 500 };
	struct cb_counter c;
	cb_counter_open(&c);
	printf("instructions from: %s%s%s\n", c.source == CB_INSTR_PERF ? "perf" :
	       c.source == CB_INSTR_ICOUNT ? "icount" : "nowhere (clock only)",
	       c.why[0] ? "; " : "", c.why);

	static struct cb_op op;
	cb_fault_4k_alloc(&op, &cfg, &c);
	CHECK(op.available && op.nbatches == 7, "fault_4k_alloc: 7 batches kept (warm-up dropped)");
	CHECK(op.each_faulted && op.minflt_per_op == 1.0,
	      "fault_4k_alloc: every write touch of fresh MAP_SHARED memory took exactly one fault (%.3f)",
	      op.minflt_per_op);
	double alloc_ns = median_of(&op, false);

	cb_fault_4k_map(&op, &cfg, &c);
	CHECK(op.available && op.each_faulted && op.minflt_per_op == 1.0,
	      "fault_4k_map: one read touch per fault-around window, exactly one fault each (%.3f)",
	      op.minflt_per_op);
	double map_ns = median_of(&op, false);

	cb_fault_2m_alloc(&op, &cfg, &c);
	if (op.available) {
		CHECK(op.each_faulted && op.minflt_per_op == 1.0, "fault_2m_alloc: one fault per 2 MB page");
		CHECK(median_of(&op, false) > alloc_ns,
		      "allocating and zeroing a 2 MB page costs more than a 4 KB one");
	} else {
		CHECK(op.why[0] && strstr(op.why, "MAP_HUGETLB"), "fault_2m_alloc unavailable says why: %s",
		      op.why);
	}

	cb_getppid(&op, &cfg, &c);
	CHECK(op.available && op.nbatches == 7 && op.per_batch == 500, "getppid: 7 batches of 500");
	double ppid_ns = median_of(&op, false);
	/* Not map < alloc: a read fault maps a whole fault-around window. */
	CHECK(ppid_ns > 0 && ppid_ns < map_ns && ppid_ns < alloc_ns,
	      "getppid (%.0f ns) costs less than mapping a present page (%.0f ns) or allocating one (%.0f ns)",
	      ppid_ns, map_ns, alloc_ns);
	if (c.source == CB_INSTR_PERF) {
		CHECK(op.instr[0] > 10 && median_of(&op, true) < 100000,
		      "getppid: instructions per call counted, kernel included (%.0f)", median_of(&op, true));
	} else {
		CHECK(op.instr[0] == -1 || c.source == CB_INSTR_ICOUNT,
		      "no counter: instructions are absent, not made up");
	}

	cb_pread_4k(&op, &cfg, &c);
	CHECK(op.available && median_of(&op, false) > 0, "pread of a cached 4 KB page timed");
	cb_sched_yield(&op, &cfg, &c);
	CHECK(op.available && !op.each_faulted, "sched_yield timed, and not called a fault");

	return CHECK_DONE();
}
