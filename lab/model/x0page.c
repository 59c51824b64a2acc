/* X0 at another page size (see x0page.h). */
#include "x0page.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double x0page_page_bytes(int page)
{
	return page == MI_4K ? 4096.0 : page == MI_2M ? 2097152.0 : 0;
}

/* Pages a backend faults on when it touches k uniform addresses of u pages. */
static double occupied(double u, double k)
{
	return u * -expm1(-k / u);
}

static int need(double v, const char *what, int page, char *err, size_t errlen)
{
	if (v > 0)
		return 0;
	snprintf(err, errlen, "X0 at another page size needs %s%s%s (make model writes it; fault "
		 "costs come from the run's costbench, COSTBENCH=on, or predict --costbench FILE)", what,
		 page >= 0 ? " for " : "", page >= 0 ? inputs_page_name(page) : "");
	return -1;
}

int x0page_move(const struct model_inputs *in, const char *page, double faults_given, double map_scale,
	     struct model_inputs *out, struct x0page_trace *tr, char *err, size_t errlen)
{
	memset(tr, 0, sizeof(*tr));
	*out = *in;
	tr->from = inputs_page_index(in->page_size);
	tr->to = inputs_page_index(page);
	tr->map_scale = map_scale > 0 ? map_scale : 1;
	if (tr->from < 0 || tr->to < 0) {
		snprintf(err, errlen, "X0 per page size knows 4k and 2m, not %s -> %s", in->page_size, page);
		return -1;
	}
	if (need(in->faults_per_txn.v, "faults_per_txn", -1, err, errlen) ||
	    need(in->fault_alloc_us[tr->from], "an allocating fault's cost", tr->from, err, errlen) ||
	    need(in->fault_map_us[tr->from], "a mapping fault's cost", tr->from, err, errlen) ||
	    need(in->fault_alloc_us[tr->to], "an allocating fault's cost", tr->to, err, errlen) ||
	    need(in->fault_map_us[tr->to], "a mapping fault's cost", tr->to, err, errlen) ||
	    need(in->block_size, "block_size (the allocating faults per transaction are m x block_size / page)",
		 -1, err, errlen))
		return -1;
	double m = in->m.v, b = in->block_size;
	int run = in->clients < in->cpus ? in->clients : in->cpus;
	tr->cpu_us = run * 1e6 / in->x0_tps.v;
	tr->allocs_from = m * b / x0page_page_bytes(tr->from);
	tr->maps_from = fmax(0, in->faults_per_txn.v - tr->allocs_from);
	tr->fault_us_from = tr->allocs_from * in->fault_alloc_us[tr->from] +
			    tr->maps_from * in->fault_map_us[tr->from];
	tr->base_us = tr->cpu_us - tr->fault_us_from;
	if (tr->base_us <= 0) {
		snprintf(err, errlen, "the faults' own cost (%.1f us per transaction) exceeds the measured "
			 "CPU per transaction (%.1f us): the fault costs do not belong to this run",
			 tr->fault_us_from, tr->cpu_us);
		return -1;
	}
	double f_to;
	if (faults_given > 0) {
		f_to = faults_given;
		tr->faults_to_source = "given";
	} else if (tr->to == tr->from) {
		f_to = in->faults_per_txn.v;
		tr->faults_to_source = "measured";
	} else if (in->faults_by_page[tr->to] > 0) {
		f_to = in->faults_by_page[tr->to];
		tr->faults_to_source = "measured";
	} else {
		if (need(in->segment_bytes, "segment_bytes", -1, err, errlen) ||
		    need(in->pool_pages, "pool_pages", -1, err, errlen))
			return -1;
		/* The fill is pool_pages pops: pool_pages / m transactions over N backends. */
		double per_backend = in->pool_pages / m / in->clients;
		double u_from = in->segment_bytes / x0page_page_bytes(tr->from);
		double fb = in->faults_per_txn.v * per_backend;
		if (fb >= 0.95 * u_from) {
			snprintf(err, errlen, "at %s every backend faulted on %.0f of the segment's %.0f pages: "
				 "saturated, so how many pages it would touch at %s is not in these inputs; "
				 "measure both page sizes in one run (HUGEPAGES=compare) or give "
				 "--faults-per-txn", in->page_size, fb, u_from, page);
			return -1;
		}
		tr->k_touches = -u_from * log1p(-fb / u_from);
		f_to = occupied(in->segment_bytes / x0page_page_bytes(tr->to), tr->k_touches) / per_backend;
		tr->faults_to_source = "occupancy rule";
	}
	tr->allocs_to = m * b / x0page_page_bytes(tr->to);
	tr->maps_to = fmax(0, f_to - tr->allocs_to);
	tr->fault_us_to = tr->allocs_to * in->fault_alloc_us[tr->to] +
			  tr->maps_to * in->fault_map_us[tr->to] * tr->map_scale;
	tr->factor = tr->cpu_us / (tr->base_us + tr->fault_us_to);
	out->x0_tps.v *= tr->factor;
	out->x0_tps.lo *= tr->factor;
	out->x0_tps.hi *= tr->factor;
	out->faults_per_txn.v = out->faults_per_txn.lo = out->faults_per_txn.hi = f_to;
	return 0;
}
