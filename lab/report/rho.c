#include "rho.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "statistics.h"

double cell_fill_rho(const struct cell *c, bool *from_records)
{
	double *rec = calloc(c->nruns + 1, sizeof(*rec));
	double *any = calloc(c->nruns + 1, sizeof(*any));
	size_t nr = 0, na = 0;
	if (!rec || !any)
		exit(1);
	for (size_t i = 0; i < c->nruns; i++) {
		double v;
		if (!json_read_num(c->runs[i]->doc, "results.phase.fill.rho.value", &v) || v < 0)
			continue;
		any[na++] = v;
		if (!strcmp(json_read_str(c->runs[i]->doc, "results.phase.fill.rho.source", ""),
			    "hold_records"))
			rec[nr++] = v;
	}
	double r = nr ? st_median(rec, nr) : na ? st_median(any, na) : -1;
	if (from_records)
		*from_records = nr > 0;
	free(rec);
	free(any);
	return r;
}

/* The median fill-phase CPU spin share of c's runs (a fraction), or -1. */
static double cell_fill_spin(const struct cell *c)
{
	double s;
	return cell_median(c, "results.phase.fill.cpu_spin_share", &s) ? s : -1;
}

bool cold_lock_line(const struct cell *a, const struct cell *b, char *buf, size_t len)
{
	double ra = a ? cell_fill_rho(a, NULL) : -1, rb = b ? cell_fill_rho(b, NULL) : -1;
	double r = ra > rb ? ra : rb;
	buf[0] = '\0';
	/* The hotter of the two: a comparison is cold only if both sides are. */
	if (r < 0)
		return false;
	if (r < RHO_HOT) {
		snprintf(buf, len, "cold lock (rho = %.3g): not the report's regime", r);
		return true;
	}
	/* Hot, but is it spun on?  The more spinning side decides, as above. */
	double sa = a ? cell_fill_spin(a) : -1, sb = b ? cell_fill_spin(b) : -1;
	double s = sa > sb ? sa : sb;
	if (s < 0 || s >= SPIN_HOT)
		return false;
	/*
	 * A waiter spins only while the lock is held, on a CPU the running
	 * holder does not use: of n CPUs, spinning can take at most
	 * rho (n - 1) / n of them (a holder off CPU frees one more, for the
	 * short share of its stalls).
	 */
	double n = 0;
	const struct cell *c = a ? a : b;
	if (!c->nruns || !json_read_num(c->runs[0]->doc, "provenance.cpus", &n))
		n = 0;
	double cap = n >= 1 ? r * (n - 1) / n : -1;
	int k = snprintf(buf, len, "hot lock (rho = %.3g) spun on little (fill CPU spin share %.3g%%, "
			 "under %.0f%%; the report's s_lock 55%%)", r, 100 * s, 100 * SPIN_HOT);
	if (k < 0 || (size_t)k >= len || cap < 0)
		return true;
	if (cap < SPIN_HOT)
		snprintf(buf + k, len - (size_t)k, ": on %.0f CPUs spinning can fill at most rho x %.0f/%.0f "
			 "= %.3g%% of them, so this lock cannot reach the report's regime here",
			 n, n - 1, n, 100 * cap);
	else
		snprintf(buf + k, len - (size_t)k, ": its waiters wait off CPU, where %.0f CPUs would let "
			 "them spin up to rho x %.0f/%.0f = %.3g%%", n, n - 1, n, 100 * cap);
	return true;
}
