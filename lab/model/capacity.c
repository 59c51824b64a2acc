/* The lock-capacity law (capacity.h). */
#include "capacity.h"

#include <math.h>

int capacity_calibrate(double m, double h_us, double d_f_us, double p_f, int fa_pages, int shift,
		       struct capacity_calib *out)
{
	if (!(m > 0) || !(p_f > 0) || p_f > 1 || !(h_us >= 0) || !(d_f_us > 0) || fa_pages < 1 ||
	    shift < 0)
		return -1;
	out->m = m;
	out->h_us = h_us;
	out->p_f = p_f;
	out->d_f_us = d_f_us;
	out->fa_pages = fa_pages;
	out->shift = shift;
	return 0;
}

void capacity_predict(const struct capacity_calib *c, int fa_pages, int shift,
		      struct capacity_pred *out)
{
	double scale = ldexp(1.0, shift - c->shift);
	double p = c->p_f * (double)c->fa_pages / (double)fa_pages;
	out->p_f = p > 1 ? 1 : p;
	out->h_us = c->h_us * scale;
	out->d_f_us = c->d_f_us * scale;
	out->tps = 1e6 / (c->m * (out->h_us + out->p_f * out->d_f_us));
}
