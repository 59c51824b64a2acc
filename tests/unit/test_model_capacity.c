/*
 * The lock-capacity law (lab/model/capacity.c) on figures worked out by
 * hand: the calibration point gives back 1 / (m (h + p_f d_f)), fault-around
 * divides p_f, the icount shift scales every time, p_f stops at 1, and
 * figures that give no fault cost are refused.
 */
#include <math.h>

#include "check.h"
#include "model/capacity.h"

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b);
}

int main(void)
{
	struct capacity_calib c;
	struct capacity_pred p;
	/* m 1, h 2 us, d_f 100 us, p_f 0.78 at 1 page, shift 3: hold 2 + 78 = 80 us. */
	CHECK(capacity_calibrate(1.0, 2, 100, 0.78, 1, 3, &c) == 0 && near(c.d_f_us, 100),
	      "calibrated: d_f 100 us (got %g)", c.d_f_us);
	capacity_predict(&c, 1, 3, &p);
	CHECK(near(p.tps, 12500), "the calibration cell: 1 / (1 x 80 us) = 12,500 tps (got %g)", p.tps);
	capacity_predict(&c, 16, 3, &p);
	/* p_f 0.78 / 16 = 0.04875; hold 2 + 4.875 = 6.875 us. */
	CHECK(near(p.p_f, 0.04875) && near(p.tps, 1e6 / 6.875),
	      "64 KB: p_f / 16, 1 / 6.875 us = 145,454.5 tps (got %g, %g)", p.p_f, p.tps);
	capacity_predict(&c, 1, 0, &p);
	/* shift 0: every time / 8: h 0.25, d_f 12.5, hold 10 us. */
	CHECK(near(p.h_us, 0.25) && near(p.d_f_us, 12.5) && near(p.tps, 100000),
	      "shift 0: times / 8, 100,000 tps (got %g, %g, %g)", p.h_us, p.d_f_us, p.tps);
	capacity_calibrate(2.0, 2, 100, 0.1, 16, 2, &c);
	capacity_predict(&c, 1, 2, &p);
	/* p_f 0.1 x 16 = 1.6 -> 1; m 2: 1 / (2 x 102 us). */
	CHECK(p.p_f == 1 && near(p.tps, 1e6 / 204), "p_f stops at 1; m 2: %g tps (got p_f %g)",
	      p.tps, p.p_f);
	CHECK(capacity_calibrate(1, 2, 100, 0, 1, 3, &c) != 0, "p_f 0: refused");
	CHECK(capacity_calibrate(1, 2, 0, 0.5, 1, 3, &c) != 0, "no fault cost: refused");
	CHECK(capacity_calibrate(0, 2, 100, 0.5, 1, 3, &c) != 0, "m 0: refused");
	return CHECK_DONE();
}
