/*
 * The fill phase and the steady phase of a run.
 *
 * The boundary is the moment the strategy handed out its last never-used
 * buffer (freelist.c stamps it under the strategy lock).  Each client
 * switches from its fill slot to its steady slot at its first transaction
 * after that moment, so a transaction in flight at the boundary counts to
 * the fill phase: the phases' durations are exact, their counts exact to
 * one transaction per client.
 */
#include <string.h>

#include "bufbench.h"

const char *fill_state_name(enum fill_state f)
{
	switch (f) {
	case FILL_IN_INTERVAL: return "in-interval";
	case FILL_NOT_REACHED: return "not-reached";
	case FILL_BEFORE_INTERVAL: return "before-interval";
	}
	return "?";
}

void bench_collect(struct bench_result *r, struct pool *p, const struct bench_opts *o,
		   uint64_t run_start, uint64_t start, uint64_t stop)
{
	uint64_t filled = strategy_fill_ns(&p->ctl->strategy);
	struct bench_phase *fill = &r->phase[PHASE_FILL], *steady = &r->phase[PHASE_STEADY];

	for (int i = 0; i < o->clients; i++) {
		backend_stats_add(&fill->sum, &p->stats[i]);
		backend_stats_add(&steady->sum, &p->stats_steady[i]);
	}
	backend_stats_add(&r->sum, &fill->sum);
	backend_stats_add(&r->sum, &steady->sum);
	r->complete_passes = strategy_complete_passes(&p->ctl->strategy);

	r->time_to_fill_s = !filled ? -1 : filled > run_start ? (filled - run_start) / 1e9 : 0;
	if (!filled || filled >= stop) {
		r->fill = FILL_NOT_REACHED;
		fill->present = true;
		fill->duration_s = r->elapsed_s;
	} else if (filled <= start) {
		r->fill = FILL_BEFORE_INTERVAL;
		steady->present = true;
		steady->duration_s = r->elapsed_s;
	} else {
		r->fill = FILL_IN_INTERVAL;
		fill->present = steady->present = true;
		fill->duration_s = (filled - start) / 1e9;
		steady->start_s = fill->duration_s;
		steady->duration_s = (stop - filled) / 1e9;
	}

	uint64_t step = p->ctl->timeline_step_ns;
	r->timeline_step_s = step / 1e9;
	r->timeline_len = (uint32_t)((stop - start + step - 1) / step);
	if (r->timeline_len > TIMELINE_MAX)
		r->timeline_len = TIMELINE_MAX;
	memset(r->timeline, 0, sizeof(r->timeline));
	for (int i = 0; i < o->clients; i++)
		for (uint32_t t = 0; t < r->timeline_len; t++)
			r->timeline[t] += p->timeline[(size_t)i * TIMELINE_MAX + t];
}
