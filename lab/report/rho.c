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

bool cold_lock_line(const struct cell *a, const struct cell *b, char *buf, size_t len)
{
	double ra = a ? cell_fill_rho(a, NULL) : -1, rb = b ? cell_fill_rho(b, NULL) : -1;
	double r = ra > rb ? ra : rb;
	buf[0] = '\0';
	/* The hotter of the two: a comparison is cold only if both sides are. */
	if (r < 0 || r >= RHO_HOT)
		return false;
	snprintf(buf, len, "cold lock (rho = %.3g): not the report's regime", r);
	return true;
}
