/*
 * Which instruments a bufbench run carries (issue 24).  Every instrument
 * costs the run some of its speed, so a run that counts (faults and
 * switches per hold, T_tail, a profile) is not the run whose timings are
 * compared: under CONTROLS=on each instrumented run gets an uninstrumented
 * twin on the same seed, and SCENARIO=overhead runs every instrument beside
 * the bare run, so that under icount the difference is the instrument's.
 */
#include <stdio.h>
#include <string.h>

#include "plan.h"
#include "scenario.h"
#include "variables.h"

/* The order SCENARIO=overhead runs them in, the bare run first. */
static const struct {
	unsigned set;
	const char *suffix;	/* of the cell id: the run's name in runs/ */
	const char *args;	/* bufbench's options */
} known[] = {
	{ 0, "-ctl", "" },
	{ INST_TRACE, "-trace", " --trace-holds" },
	{ INST_TRACE | INST_KPROBE, "-kprobe", " --trace-holds --fault-event kprobe" },
	/* The census's channel events (issue 36): sched_waking, the folio-lock kprobes. */
	{ INST_TRACE | INST_CHANNEL, "-channel", " --trace-holds --trace-channel" },
	{ INST_RECORDS, "-records", " --hold-records" },
	{ INST_EVENTS, "-events", " --hold-events" },
	{ INST_PROFILE, "-profile", "" },
};
#define NKNOWN (int)(sizeof(known) / sizeof(known[0]))

unsigned plan_instruments(const struct plan *p)
{
	return (p->evidence ? INST_TRACE : 0) | (p->evidence && p->channel ? INST_CHANNEL : 0) |
	       (p->hold_events ? INST_EVENTS : 0) |
	       (p->profile ? INST_PROFILE : 0);
}

/*
 * The variants of each cell, in the order they run for repetition rep:
 * the plan's own instruments (suffix "": the ids stay what they were) and,
 * under CONTROLS, the bare twin, the two alternating from one repetition
 * to the next so that neither always runs first.  SCENARIO=overhead: the
 * bare run and each instrument alone, the order rotated by repetition.
 */
int plan_variants(const struct plan *p, long rep, struct variant *out, int max)
{
	int n = 0;
	if (!strcmp(p->scenario, "overhead")) {
		for (int i = 0; i < NKNOWN && n < max; i++) {
			const int k = (int)((i + rep - 1) % NKNOWN);
			out[n].set = known[k].set;
			out[n].control = known[k].set == 0;
			snprintf(out[n].suffix, sizeof(out[n].suffix), "%s", known[k].suffix);
			n++;
		}
		return n;
	}
	unsigned set = plan_instruments(p);
	out[n].set = set;
	out[n].control = false;
	out[n].suffix[0] = 0;
	n++;
	if (!p->controls || !set || max < 2)
		return n;
	out[n].set = 0;
	out[n].control = true;
	snprintf(out[n].suffix, sizeof(out[n].suffix), "-ctl");
	n++;
	if (rep % 2 == 0) {
		struct variant t = out[0];
		out[0] = out[1];
		out[1] = t;
	}
	return n;
}

/*
 * An entry of set that another entry of set contains: the trace alone
 * inside the kprobe's or the channel's, which repeat its --trace-holds.
 */
static bool subsumed(unsigned set, int i)
{
	for (int k = 1; k < NKNOWN; k++)
		if (k != i && (set & known[k].set) == known[k].set &&
		    (known[k].set & known[i].set) == known[i].set && known[k].set != known[i].set)
			return true;
	return false;
}

/* The kprobe and channel entries both carry --trace-holds: printed once. */
static void put_args(const char *args, bool *trace, FILE *f)
{
	const char *th = " --trace-holds";
	if (!strncmp(args, th, strlen(th))) {
		if (!*trace)
			fputs(th, f);
		*trace = true;
		args += strlen(th);
	}
	fputs(args, f);
}

/* bufbench's options for the instruments in set (the profile is the runner's). */
void plan_instrument_args(unsigned set, FILE *f)
{
	bool trace = false;
	for (int i = 1; i < NKNOWN; i++)
		if ((set & known[i].set) == known[i].set && known[i].args[0] && !subsumed(set, i))
			put_args(known[i].args, &trace, f);
}

/* Names for plan.json: "trace", "kprobe", "records", "events", "profile". */
void plan_instrument_names(unsigned set, const char **names, int *n)
{
	*n = 0;
	for (int i = 1; i < NKNOWN; i++)
		if ((set & known[i].set) == known[i].set && !subsumed(set, i))
			names[(*n)++] = known[i].suffix + 1;
}

/* CONTROLS: on by default wherever a run carries an instrument. */
void controls_default(const struct plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s", plan_instruments(p) ? "on" : "off");
}

/*
 * CONTROLS asked on with nothing to control adds nothing, and says so.
 * SCENARIO=overhead pairs its runs itself.
 */
void controls_check(struct plan *p)
{
	const char *asked = var_get("CONTROLS");
	bool any = plan_instruments(p) != 0;
	if (!strcmp(p->scenario, "overhead")) {
		if (asked)
			plan_note("CONTROLS=%s: SCENARIO=overhead runs every cell bare beside each "
				  "instrument already", asked);
		p->controls = false;
		if (p->evidence || p->hold_events || p->profile)
			plan_die("SCENARIO=overhead runs each instrument in its own cell: leave "
				 "EVIDENCE, HOLD_EVENTS and PROFILE unset");
		/* Its profiled cells need perf where the units run (programs.c). */
		p->profile = true;
		return;
	}
	if (p->controls && !any) {
		if (asked)
			plan_note("CONTROLS=on: no run carries an instrument (EVIDENCE, HOLD_EVENTS, "
				  "PROFILE), so there is nothing to control");
		p->controls = false;
	}
}
