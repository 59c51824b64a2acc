/*
 * costbench's measurements on this machine: each fault op's touches took
 * exactly one fault each (getrusage), the batches are all there, a fault
 * costs more than a getppid, instructions come from where the counter
 * says, and the order statistics match values worked by hand.
 */
#include <math.h>
#include <string.h>
#include <sys/mman.h>

#include "check.h"
#include "emulation.h"
#include "costbench/costbench.h"
#include "report/hl_ratio.h"

#define NEAR(x, y, eps) (fabs((x) - (y)) <= (eps))

/* The report's ratio between models' batches (lab/report/hl_ratio.c). */
static void hl_by_hand(void)
{
	double a[] = { 1, 1, 1, 1 }, b[] = { 2, 2, 2, 2 };
	struct hl_ratio r = hl_ratio(a, 4, b, 4);
	/* U = 16 of 16 pairs, mu 8, sd sqrt(12): z = 7.5 / 3.4641, p = erfc(z / sqrt 2). */
	CHECK(r.ok && NEAR(r.est, 2, 1e-12) && NEAR(r.lo, 2, 1e-12) && NEAR(r.hi, 2, 1e-12) &&
	      NEAR(r.p, 0.030383, 1e-5), "every pair doubles: 2x [2, 2], p 0.0304 (got %g [%g, %g] p %g)",
	      r.est, r.lo, r.hi, r.p);
	/* One batch in eight inflated tenfold (another task ran in it): 56
	 * of 64 pairwise ratios are 1.01, the median and both 13th-from-the-
	 * end pairs among them; a ratio of geometric means would say 0.76. */
	double c[] = { 100, 100, 100, 100, 100, 100, 100, 1000 };
	double e[] = { 101, 101, 101, 101, 101, 101, 101, 101 };
	r = hl_ratio(c, 8, e, 8);
	CHECK(r.ok && NEAR(r.est, 1.01, 1e-12) && NEAR(r.lo, 1.01, 1e-12) && NEAR(r.hi, 1.01, 1e-12),
	      "an inflated batch does not move it: 1.01x [1.01, 1.01] (got %g [%g, %g])", r.est, r.lo, r.hi);
	/* k = floor(32 - 1.96 sqrt(64 * 17 / 12)) = 13: the 13th smallest of
	 * the 64 ratios is 14/15, the 13th largest 17/11; U = 46, p 0.156. */
	double f[] = { 10, 11, 12, 13, 14, 15, 16, 17 }, g[] = { 12, 13, 14, 15, 16, 17, 18, 40 };
	r = hl_ratio(f, 8, g, 8);
	CHECK(r.ok && NEAR(r.lo, 14.0 / 15, 1e-12) && NEAR(r.hi, 17.0 / 11, 1e-12) &&
	      NEAR(r.est, 1.160239, 1e-6) && NEAR(r.p, 0.156254, 1e-5),
	      "spread samples: 1.160x [14/15, 17/11], p 0.156 (got %g [%g, %g] p %g)", r.est, r.lo, r.hi, r.p);
	double z[] = { 1, 0 };
	CHECK(!hl_ratio(z, 2, b, 4).ok && !hl_ratio(a, 1, b, 4).ok,
	      "a value <= 0 or a single batch gives no ratio, not a made-up one");
}

static void summary_by_hand(void)
{
	double v[] = { 9, 1, 5, 3, 7 };
	struct costbench_summary s;
	costbench_summarize(v, 5, &s);
	CHECK(s.median == 5 && s.min == 1 && s.max == 9, "odd count: median 5, min 1, max 9 (got %g %g %g)",
	      s.median, s.min, s.max);
	CHECK(s.p25 == 3 && s.p75 == 7, "odd count: quartiles 3 and 7 (got %g %g)", s.p25, s.p75);
	double w[] = { 4, 1, 3, 2 };
	costbench_summarize(w, 4, &s);
	/* Type 7: h = 3q; q=.5 -> 2.5, q=.25 -> 1.75, q=.75 -> 3.25. */
	CHECK(s.median == 2.5 && s.p25 == 1.75 && s.p75 == 3.25,
	      "even count interpolates: 2.5, 1.75, 3.25 (got %g %g %g)", s.median, s.p25, s.p75);
	double one[] = { 42 };
	costbench_summarize(one, 1, &s);
	CHECK(s.median == 42 && s.p25 == 42 && s.p75 == 42, "one batch: every statistic is it");
}

static double median_of(struct costbench_op *op, bool instr)
{
	struct costbench_summary s;
	double v[CB_MAX_BATCHES];
	memcpy(v, instr ? op->instr : op->ns, sizeof(double) * (size_t)op->nbatches);
	costbench_summarize(v, op->nbatches, &s);
	return s.median;
}

/*
 * costbench --procs: N processes on one shared object each take exactly
 * one fault per fault-around window, and the quantiles are in order.
 */
static void procs_sweep(void)
{
	static struct costbench_procs r;
	for (int n = 1; n <= 16; n *= 4) {
		int rc = costbench_procs_run(n, 8, &r);
		if (under_qemu_user()) {
			/* getrusage counts the emulator's own faults too (its page descriptors). */
			CHECK(rc == 0 && r.procs == n && r.faults >= 8L * n,
			      "--procs %d under qemu-user: %ld faults, at least one per touch (%s)", n,
			      r.faults, rc ? r.why : "ok");
			SKIP("--procs %d: exactly one fault per touch is the kernel's to show, not qemu-user's", n);
		} else {
			CHECK(rc == 0 && r.procs == n && r.faults == 8L * n && r.each_faulted,
			      "--procs %d: %ld faults for %d x 8 touches, one each (%s)", n, r.faults, n,
			      rc ? r.why : "ok");
		}
		CHECK(rc == 0 && r.cpu.p50 > 0 && r.cpu.p50 <= r.cpu.p90 && r.cpu.p90 <= r.cpu.p99 &&
			      r.cpu.p99 <= r.cpu.max && r.wall.p50 <= r.wall.max && r.wall.p50 > 0,
		      "--procs %d: quantiles in order (cpu p50 %.0f ns, wall p50 %.0f ns)", n, r.cpu.p50,
		      r.wall.p50);
	}
}

int main(void)
{
	summary_by_hand();
	procs_sweep();
	hl_by_hand();

	struct costbench_config cfg = { 7, 64, 1, 500 };
	struct costbench_counter c;
	costbench_counter_open(&c);
	printf("instructions from: %s%s%s\n", c.source == CB_INSTR_PERF ? "perf" :
	       c.source == CB_INSTR_ICOUNT ? "icount" : "nowhere (clock only)",
	       c.why[0] ? "; " : "", c.why);

	static struct costbench_op op;
	costbench_fault_4k_alloc(&op, &cfg, &c);
	CHECK(op.available && op.nbatches == 7, "fault_4k_alloc: 7 batches kept (warm-up dropped)");
	CHECK(op.each_faulted && op.minflt_per_op == 1.0,
	      "fault_4k_alloc: every write touch of fresh MAP_SHARED memory took exactly one fault (%.3f)",
	      op.minflt_per_op);
	double alloc_ns = median_of(&op, false);

	costbench_fault_4k_map(&op, &cfg, &c);
	CHECK(op.available && op.each_faulted && op.minflt_per_op == 1.0,
	      "fault_4k_map: one read touch per fault-around window, exactly one fault each (%.3f)",
	      op.minflt_per_op);
	double map_ns = median_of(&op, false);

	costbench_fault_2m_alloc(&op, &cfg, &c);
	if (op.available) {
		CHECK(op.each_faulted && op.minflt_per_op == 1.0, "fault_2m_alloc: one fault per 2 MB page");
		CHECK(median_of(&op, false) > alloc_ns,
		      "allocating and zeroing a 2 MB page costs more than a 4 KB one");
	} else {
		CHECK(op.why[0] && strstr(op.why, "MAP_HUGETLB"), "fault_2m_alloc unavailable says why: %s",
		      op.why);
	}

	costbench_getppid(&op, &cfg, &c);
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

	costbench_pread_4k(&op, &cfg, &c);
	CHECK(op.available && median_of(&op, false) > 0, "pread of a cached 4 KB page timed");
	costbench_sched_yield(&op, &cfg, &c);
	CHECK(op.available && !op.each_faulted, "sched_yield timed, and not called a fault");

	return CHECK_DONE();
}
