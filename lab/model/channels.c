/* The channels of outage besides holder descheduling (see channels.h). */
#include "channels.h"

#include <math.h>
#include <stdio.h>

#include "inputs.h"
#include "stall.h"

_Static_assert(CH_COUNT == MI_CHANNELS, "inputs.h carries one inputs_channel per channel");

static const char *const keys[CH_COUNT] = { "blocked_in_fault", "wakeup_latency", "tick_span",
					    "emulator_freeze" };
static const char *const titles[CH_COUNT] = {
	"blocked in fault behind a preempted task's kernel lock",
	"wakeup latency of a holder that slept in its fault",
	"faults spanning a tick (lazy's upgrade)",
	"emulator freezes (icount's round robin)",
};

const char *ch_key(enum channel c)
{
	return c < CH_COUNT ? keys[c] : "?";
}

const char *ch_title(enum channel c)
{
	return c < CH_COUNT ? titles[c] : "?";
}

bool ch_applies(const struct model_inputs *in, enum channel c, int cpus)
{
	/* A freeze needs another vCPU to run, and exists only on the emulated machine. */
	if (c == CH_EMU_FREEZE)
		return cpus >= 2 && cpus <= in->cpus;
	return true;
}

/* Measured, and seen under neither model: p 0 (with its bound), no time to give it. */
static bool never_seen(const struct inputs_channel *ch, enum pmodel model)
{
	return !ch->have_t && ch->p[model].v == 0 && ch->p[PM_NONE].v == 0;
}

bool ch_measured(const struct model_inputs *in, enum channel c, enum pmodel model)
{
	const struct inputs_channel *ch = &in->ch[c];
	return ch->have_p[model] && ch->have_p[PM_NONE] &&
	       (ch->have_t || never_seen(ch, model) || ch->inside_q[0]);
}

double ch_k(const struct model_inputs *in, enum pmodel model, int cpus, double m, double p_f,
	    uint64_t *rng)
{
	double k = 0;
	for (int c = 0; c < CH_COUNT; c++) {
		if (!ch_applies(in, (enum channel)c, cpus) || !ch_measured(in, (enum channel)c, model))
			continue;
		const struct inputs_channel *ch = &in->ch[c];
		/* Counted in q already, or never seen (nothing to time): adds nothing. */
		if (ch->inside_q[0] || !ch->have_t)
			continue;
		double p = rng ? inputs_draw(&ch->p[model], rng, 0, 1) : ch->p[model].v;
		double t = rng ? inputs_draw(&ch->t_us, rng, 0, INFINITY) : ch->t_us.v;
		k += closed_k(m, p_f, p, t);
	}
	return k;
}

int ch_describe(const struct model_inputs *in, enum pmodel model, int cpus, FILE *f)
{
	int missing = 0;
	fprintf(f, "  channels for %s: holder descheduling (q_M, T): included, measured\n", pmodel_name(model));
	for (int c = 0; c < CH_COUNT; c++) {
		const char *what;
		char buf[200];
		bool measured = ch_measured(in, (enum channel)c, model);
		if (!ch_applies(in, (enum channel)c, cpus)) {
			what = "excluded: does not exist on the target (real hardware, not the emulator)";
		} else if (measured && in->ch[c].inside_q[0]) {
			snprintf(buf, sizeof(buf), "measured (p %s %.4f, none %.4f), its stall inside q's %s "
				 "route: not added again", pmodel_name(model), in->ch[c].p[model].v,
				 in->ch[c].p[PM_NONE].v, in->ch[c].inside_q);
			what = buf;
		} else if (measured && !in->ch[c].have_t) {
			snprintf(buf, sizeof(buf), "measured, never seen (p %s <= %.2g%%, none <= %.2g%% of "
				 "faulting holds): adds nothing", pmodel_name(model), 100 * in->ch[c].p[model].hi,
				 100 * in->ch[c].p[PM_NONE].hi);
			what = buf;
		} else if (measured) {
			what = "included, measured";
		} else {
			what = "NOT INCLUDED: unmeasured, so the prediction cannot include it";
			missing++;
		}
		fprintf(f, "    %s (%s): %s\n", ch_title((enum channel)c), keys[c], what);
	}
	return missing;
}
