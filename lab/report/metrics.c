/*
 * Metric discovery.  The headline list follows the issue: throughput,
 * tail latency, time spent waiting for the strategy lock (wait share, wall
 * clock, sleeps included) beside the CPU spent spinning for it, faults per transaction, SpinDelay
 * samples (and their share of the samples of active backends), and the
 * strategy lock's worst hold, which is where a holder preempted in a fault
 * shows first.
 */
#include "metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct metric headline[] = {
	{ "tps", "results.tps", "", 1, true, true },
	/* The fill phase first: where the regression report's mechanism lives. */
	{ "fill tps", "results.phase.fill.tps", "", 1, true, true },
	{ "fill wait share %", "results.phase.fill.wait_share", "", 100, false, true },
	{ "fill CPU spin share %", "results.phase.fill.cpu_spin_share", "", 100, false, true },
	{ "fill T_tail total ms", "results.phase.fill.t_tail.total_ms", "", 1, false, true },
	{ "fill holds w/ fault %", "results.phase.fill.strategy.holds_with_fault",
	  "results.phase.fill.strategy.acquisitions", 100, false, true },
	{ "time to fill s", "results.time_to_fill_s", "", 1, false, true },
	{ "steady tps", "results.phase.steady.tps", "", 1, true, true },
	{ "shared_buffers fill s", "results.buffer_fill.time_to_fill_s", "", 1, false, true },
	{ "latency p99 us", "results.latency_us.p99", "", 1, false, true },
	{ "latency avg ms", "results.latency_ms_avg", "", 1, false, true },
	{ "wait share %", "results.wait_share", "", 100, false, true },
	{ "CPU spin share %", "results.cpu_spin_share", "", 100, false, true },
	{ "minor faults/txn", "results.minor_faults_per_txn", "", 1, false, true },
	{ "invol. csw/txn", "results.ivcsw_per_txn", "", 1, false, true },
	/* pgbench's: the machine's interrupts over the run.  A wakeup that
	 * preempts a busy CPU's task sends a rescheduling IPI under none and
	 * full, none under lazy, which leaves it to the next tick. */
	{ "resched IPIs/txn", "results.interrupts.resched", "results.transactions", 1, false, true },
	{ "call-function IPIs/txn", "results.interrupts.call_function", "results.transactions", 1, false, true },
	{ "timer irqs/txn", "results.interrupts.local_timer", "results.transactions", 1, false, true },
	{ "strategy contended %", "locks.strategy.contended", "locks.strategy.acquisitions", 100, false, true },
	{ "strategy max hold us", "locks.strategy.max_hold_ns", "", 0.001, false, true },
	{ "strategy sleeps", "locks.strategy.sleeps", "", 1, false, true },
	{ "holds w/ fault %", "locks.strategy.holds_with_fault", "locks.strategy.acquisitions", 100, false, true },
	{ "holds switched out %", "locks.strategy.holds_with_switch", "locks.strategy.acquisitions", 100, false, true },
	{ "rseq grants", "locks.strategy.rseq_grants", "", 1, false, true },
	{ "rseq yields in time", "locks.strategy.rseq_yields", "", 1, false, true },
	{ "rseq revoked", "locks.strategy.rseq_revoked", "", 1, false, true },
	{ "kernel slice grants", "results.kernel_rseq.granted", "", 1, false, true },
	{ "kernel slice expired", "results.kernel_rseq.expired", "", 1, false, true },
	{ "SpinDelay samples", "sampler.spindelay_samples", "", 1, false, true },
	{ "SpinDelay % of active", "sampler.spindelay_samples", "sampler.active_backend_samples", 100, false, true },
	{ "failed txns", "results.failed", "", 1, false, true },
};

bool metric_value(const struct metric *m, const struct json_read_val *doc, double *v)
{
	double num, den = 1;
	if (!json_read_num(doc, m->path, &num))
		return false;
	if (m->per[0] && (!json_read_num(doc, m->per, &den) || den == 0))
		return false;
	*v = m->scale * num / den;
	return true;
}

bool metric_always(const struct metric *m)
{
	return !strncmp(m->path, "sampler.spindelay_samples", 25);
}

size_t metric_values(const struct metric *m, const struct cell *c, double *out)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nruns; i++)
		if (metric_value(m, c->runs[i]->doc, &out[n]))
			n++;
	return n;
}

struct list {
	struct metric *m;
	size_t n, cap;
};

static bool listed(const struct list *l, const char *path, const char *per)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->m[i].path, path) && !strcmp(l->m[i].per, per))
			return true;
	return false;
}

static void add(struct list *l, const struct metric *m)
{
	if (listed(l, m->path, m->per))
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 32;
		l->m = realloc(l->m, l->cap * sizeof(*l->m));
		if (!l->m)
			exit(1);
	}
	l->m[l->n++] = *m;
}

/* Every numeric leaf under v (arrays such as histograms are not metrics). */
static void walk(struct list *l, const struct json_read_val *v, const char *prefix)
{
	if (v->type == JR_NUM) {
		struct metric m = { "", "", "", 1, false, false };
		snprintf(m.path, sizeof(m.path), "%s", prefix);
		snprintf(m.name, sizeof(m.name), "%s", prefix);
		/* Throughput-like counters are better higher; the rest lower. */
		m.higher_better = strstr(prefix, "tps") || strstr(prefix, "transactions") ||
				  strstr(prefix, "hits") || strstr(prefix, "acquisitions") ||
				  strstr(prefix, "grants");
		add(l, &m);
		return;
	}
	if (v->type != JR_OBJ)
		return;
	for (size_t i = 0; i < v->n; i++) {
		char p[128];
		snprintf(p, sizeof(p), "%s.%s", prefix, v->keys[i]);
		walk(l, v->items[i], p);
	}
}

size_t metrics_for(const struct results *r, const char *tool, struct metric **out)
{
	struct list l = { 0 };
	for (size_t h = 0; h < sizeof(headline) / sizeof(headline[0]); h++) {
		for (size_t i = 0; i < r->nruns; i++) {
			double v;
			if (!strcmp(json_read_str(r->runs[i].doc, "tool", ""), tool) &&
			    metric_value(&headline[h], r->runs[i].doc, &v)) {
				add(&l, &headline[h]);
				break;
			}
		}
	}
	static const char *roots[] = { "results", "sampler", "locks" };
	for (size_t i = 0; i < r->nruns; i++) {
		if (strcmp(json_read_str(r->runs[i].doc, "tool", ""), tool))
			continue;
		for (size_t k = 0; k < 3; k++) {
			const struct json_read_val *v = json_read_get(r->runs[i].doc, roots[k]);
			if (v)
				walk(&l, v, roots[k]);
		}
	}
	*out = l.m;
	return l.n;
}
