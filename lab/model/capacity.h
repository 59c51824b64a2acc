/*
 * The lock-capacity law (issue 36, item 2): a saturated strategy lock
 * admits one holder at a time, so the fill's transactions per second
 * cannot exceed
 *
 *     X = 1 / (m (h + p_f d_f))
 *
 * m acquisitions a transaction, h the hold without a fault, p_f the share
 * of holds that fault, d_f what a fault adds to the hold.  No preemption
 * model enters: a faulting hold under a hot lock costs the whole machine.
 *
 * Calibrated at one cell (its fault-around F0 pages, icount shift S0),
 * moved to another (F, S) by two rules:
 *   - p_f(F) = min(1, p_f0 F0 / F): one fault maps F pages, and with the
 *     freelist strided a page a pop a backend then pops through them
 *     without faulting;
 *   - every time scales by 2^(S - S0): under icount an instruction is
 *     2^S ns of guest time, and h and d_f are instructions.
 */
#ifndef PREEMPTLAB_MODEL_CAPACITY_H
#define PREEMPTLAB_MODEL_CAPACITY_H

struct capacity_calib {
	double m;		/* acquisitions per transaction */
	double h_us;		/* hold without a fault */
	double d_f_us;		/* what a fault adds */
	double p_f;		/* share of holds that fault */
	int fa_pages, shift;	/* where it was measured */
};

struct capacity_pred {
	double p_f, h_us, d_f_us;
	double tps;		/* the saturated lock's fill tps */
};

/*
 * The calibration: m and p_f measured in one cell, h its hold without a
 * fault, d_f one fault's cost (provenance.fault_cost_ns: a first-touch
 * minor fault, timed alone).  Returns 0, or -1 for figures that are no
 * calibration (m or d_f not positive, p_f outside (0, 1], h negative).
 */
int capacity_calibrate(double m, double h_us, double d_f_us, double p_f, int fa_pages, int shift,
		       struct capacity_calib *out);
void capacity_predict(const struct capacity_calib *c, int fa_pages, int shift,
		      struct capacity_pred *out);

#endif
