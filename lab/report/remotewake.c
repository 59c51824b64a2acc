#include "remotewake.h"

#include <stdlib.h>
#include <string.h>

#include "doc_rows.h"
#include "escape.h"
#include "json_read.h"
#include "logs_each.h"
#include "statistics.h"
#include "textfmt.h"

#define RW_ARMS 4
static const char *const arm_key[RW_ARMS] = { "idle_spinner", "fair_spinner", "idle_target",
					      "idle_spinner_waker_spins" };
static const char *const arm_text[RW_ARMS] = { "idle spinner", "fair spinner", "idle target",
					       "waker spins" };

/* One arm's wakes, a row's boots pooled. */
struct rw_arm {
	double *lat;		/* latency_ns of every trial */
	size_t n;
	long late;		/* over costbench's CB_REMOTE_LATE_NS, 100 us */
	long awake;		/* trials left out: the wakee had not slept yet */
	/* The target's rescheduling and function-call interrupts over the
	 * trials (-1: a document did not count them). */
	double res, cal;
};

struct rw_row {
	struct doc_row d;
	char llc[8], llc_source[200];
	struct rw_arm arm[RW_ARMS];
};

struct rw_set {
	struct rw_row *row;
	size_t n;
};

static void add_trials(struct rw_arm *a, const struct jr_val *arm)
{
	const struct jr_val *t = jr_get(arm, "trials");
	if (!t || t->type != JR_ARR)
		return;
	double *g = realloc(a->lat, (a->n + t->n) * sizeof(*g));
	if (!g)
		return;
	a->lat = g;
	/* A trial whose wakee had not yet slept woke nothing: left out. */
	for (size_t i = 0; i < t->n; i++) {
		const struct jr_val *asleep = jr_get(t->items[i], "asleep");
		if (asleep && asleep->type == JR_BOOL && !asleep->b)
			a->awake++;
		else if (jr_num(t->items[i], "latency_ns", &a->lat[a->n]))
			a->n++;
	}
	double late = 0, res = 0, cal = 0;
	jr_num(arm, "late", &late);
	a->late += (long)late;
	bool known = jr_true(arm, "target_interrupts.known") && a->res >= 0 &&
		     jr_num(arm, "target_interrupts.resched", &res) &&
		     jr_num(arm, "target_interrupts.call_function", &cal);
	a->res = known ? a->res + res : -1;
	a->cal = known ? a->cal + cal : -1;
}

static void load_one(void *ctx, const char *dir, const char *name)
{
	char path[4096], err[512];
	snprintf(path, sizeof(path), "%s/logs/%s", dir, name);
	struct jr_val *j = jr_parse_file(path, err, sizeof(err));
	if (!j || strcmp(jr_str(j, "mode", ""), "remote_wake")) {
		txt_printf(stderr, "report: ignoring %s\n", j ? path : err);
		jr_free(j);
		return;
	}
	struct rw_set *set = ctx;
	struct rw_row *w = (struct rw_row *)doc_row_of((void **)&set->row, &set->n, sizeof(*set->row), j,
							"remotewake-", name);
	if (w && w->d.ndocs == 1) {
		snprintf(w->llc, sizeof(w->llc), "%s", jr_str(j, "llc_shared", "?"));
		snprintf(w->llc_source, sizeof(w->llc_source), "%s", jr_str(j, "llc_source", "?"));
	}
	if (w && !jr_true(j, "available"))
		snprintf(w->d.why, sizeof(w->d.why), "%s", jr_str(j, "why", "?"));
	for (int a = 0; w && a < RW_ARMS; a++) {
		const struct jr_val *arm = jr_get(jr_get(j, "arms"), arm_key[a]);
		if (arm && jr_true(arm, "available"))
			add_trials(&w->arm[a], arm);
	}
	jr_free(j);
}

static void load(const struct results *r, struct rw_set *s)
{
	memset(s, 0, sizeof(*s));
	if (r->nsources)
		for (size_t i = 0; i < r->nsources; i++)
			logs_each(r->sources[i].dir, "remotewake-", load_one, s);
	else
		logs_each(r->dir, "remotewake-", load_one, s);
	if (s->n)
		qsort(s->row, s->n, sizeof(*s->row), doc_row_cmp);
}

static void release(struct rw_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		for (int a = 0; a < RW_ARMS; a++)
			free(s->row[i].arm[a].lat);
	free(s->row);
}

/* The same kernel's none row, if the run has it. */
static const struct rw_row *none_of(const struct rw_set *s, const struct rw_row *w)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->row[i].d.kernel, w->d.kernel) && !strcmp(s->row[i].d.model, "none"))
			return &s->row[i];
	return NULL;
}

/*
 * The row's late share against none's in the same arm, as the interval
 * allows: "later than none", "earlier than none", "not resolved".  False
 * when there is nothing to compare (no none row, or this is it).
 */
static bool against_none(const struct rw_set *s, const struct rw_row *w, int a, char *buf, size_t len)
{
	const struct rw_row *base = none_of(s, w);
	if (!base || base == w || !base->arm[a].n || !w->arm[a].n)
		return false;
	struct share_diff d = st_share_diff((double)w->arm[a].late, (double)w->arm[a].n,
					    (double)base->arm[a].late, (double)base->arm[a].n);
	const char *says = d.lo > 0 ? "later than none" : d.hi < 0 ? "earlier than none" : "not resolved";
	snprintf(buf, len, "%+.0f [%+.0f, %+.0f] points: %s", 100 * d.est, 100 * d.lo, 100 * d.hi, says);
	return true;
}

/* One arm's columns, as both tables print them. */
struct rw_cols {
	char median[24], p75[24], late[24], share[32], ipis[24], vs[96];
};

static void cols_of(const struct rw_set *s, const struct rw_row *w, int a, struct rw_cols *c)
{
	const struct rw_arm *x = &w->arm[a];
	double lo, hi;
	st_wilson((double)x->late, (double)x->n, &lo, &hi);
	snprintf(c->median, sizeof(c->median), "%.1f", st_percentile(x->lat, x->n, 50) / 1000);
	snprintf(c->p75, sizeof(c->p75), "%.1f", st_percentile(x->lat, x->n, 75) / 1000);
	snprintf(c->late, sizeof(c->late), "%ld/%zu", x->late, x->n);
	snprintf(c->share, sizeof(c->share), "%.0f%% [%.0f, %.0f]", 100.0 * (double)x->late / (double)x->n,
		 100 * lo, 100 * hi);
	if (x->res >= 0)
		snprintf(c->ipis, sizeof(c->ipis), "%.2f/%.2f", x->res / (double)x->n, x->cal / (double)x->n);
	else
		snprintf(c->ipis, sizeof(c->ipis), "?");
	if (!against_none(s, w, a, c->vs, sizeof(c->vs)))
		snprintf(c->vs, sizeof(c->vs), "%s", strcmp(w->d.model, "none") ? "no none row" : "(base)");
}

static void write_rows(FILE *f, const struct rw_set *s, bool md)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct rw_row *w = &s->row[i];
		for (int a = 0; a < RW_ARMS; a++) {
			if (!w->arm[a].n) {
				const char *why = w->d.why[0] ? w->d.why : "not run";
				if (md)
					md_printf(f, "| %s | %s | %s | unavailable: %s | | | | | |\n", w->d.kernel,
						  w->d.model, arm_text[a], why);
				else
					txt_printf(f, "%-18s %-9s %-13s unavailable: %s\n", w->d.kernel, w->d.model,
						   arm_text[a], why);
				continue;
			}
			struct rw_cols c;
			cols_of(s, w, a, &c);
			if (md)
				md_printf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", w->d.kernel,
					  w->d.model, arm_text[a], c.median, c.p75, c.late, c.share, c.ipis, c.vs);
			else
				txt_printf(f, "%-18s %-9s %-13s %9s %8s %8s %-15s %9s  %s\n", w->d.kernel,
					   w->d.model, arm_text[a], c.median, c.p75, c.late, c.share, c.ipis, c.vs);
		}
	}
}

static void sources(FILE *f, const struct rw_set *s, bool md)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct rw_row *w = &s->row[i];
		char head[448], buf[768];
		doc_row_source(&w->d, head, sizeof(head));
		long awake = 0;
		for (int a = 0; a < RW_ARMS; a++)
			awake += w->arm[a].awake;
		snprintf(buf, sizeof(buf), "%s, HZ %.0f, CPUs share a last-level cache: %s (%s)%s", head,
			 w->d.hz, w->llc, w->llc_source, awake ? "; trials left out, the wakee not yet asleep: " : "");
		if (awake)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%ld", awake);
		if (md)
			md_printf(f, "- %s\n", buf);
		else
			tw_para(f, "  ", buf, 2);
	}
}

static const char intro[] =
	"costbench --remote-wake (logs/remotewake-*.json): a task pinned to one CPU sleeps on a "
	"futex and is woken from another CPU by a waker that sleeps a drawn 0-2 ms, wakes it, "
	"and sleeps until it has run; the latency runs from the waker's clock read to the wakee's. Under "
	"lazy a wakeup that should preempt sets only the lazy bit and sends no IPI "
	"(kernel/sched/core.c __resched_curr), so a target busy in user space runs the wakee at "
	"its next tick; none and full send the IPI at once. 'idle spinner': the target runs a "
	"SCHED_IDLE task spinning in user space, which the wakee always preempts, so only the "
	"model's bit and IPI differ; 'fair spinner': a SCHED_OTHER spinner, as a backend in s_lock, "
	"where EEVDF decides as well; 'idle target': the control, woken by the target's own IPI "
	"under every model; 'waker spins': the idle spinner with a waker that busy-waits through "
	"both waits instead of sleeping, the same on hardware, while under single-threaded icount an interrupt for "
	"another vCPU waits for the running vCPU's turn to end (its next timer deadline or idling), "
	"so the difference from 'idle spinner' is the emulator's. The waker wakes the target itself "
	"only where the two CPUs share a last-level cache (ttwu_queue_cond); the sources line says "
	"whether they do, and 'RES/CAL' counts how the wakes reached the target: its rescheduling "
	"interrupts (a remote resched_curr's IPI) and function-call interrupts (the wakelist's) "
	"per wake, from /proc/interrupts over the arm. 'late': over 100 us, a tenth of HZ 1000's "
	"tick; 'vs none': the late share's difference from none's on the same kernel, in points "
	"with a 95% Newcombe interval.";

void write_remotewake_txt(FILE *f, const struct results *r)
{
	struct rw_set s;
	load(r, &s);
	if (s.n) {
		tw_heading(f, "A wakeup from another CPU");
		tw_para(f, "", intro, 0);
		txt_printf(f, "\n%-18s %-9s %-13s %9s %8s %8s %-15s %9s  %s\n", "kernel", "model", "arm",
			   "median us", "p75 us", "late", "late (95%)", "RES/CAL", "vs none");
		write_rows(f, &s, false);
		txt_printf(f, "\n");
		sources(f, &s, false);
		txt_printf(f, "\n");
	}
	release(&s);
}

void write_remotewake_md(FILE *f, const struct results *r)
{
	struct rw_set s;
	load(r, &s);
	if (s.n) {
		md_printf(f, "\n## A wakeup from another CPU\n\n%s\n\n", intro);
		md_printf(f, "| kernel | model | arm | median us | p75 us | late | share (95%%) | RES/CAL per wake | vs none |\n"
			     "|---|---|---|---|---|---|---|---|---|\n");
		write_rows(f, &s, true);
		md_printf(f, "\n");
		sources(f, &s, true);
	}
	release(&s);
}

bool remotewake_sentence(const struct results *r, char *buf, size_t len)
{
	struct rw_set s;
	load(r, &s);
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < s.n && o < len; i++) {
		const struct rw_row *w = &s.row[i];
		char vs[96];
		if (!against_none(&s, w, 0, vs, sizeof(vs)))
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s %s, %ld of %zu late against none's %ld of %zu, %s",
				      o ? "; " : "A wakeup from another CPU onto a CPU spinning in user "
						 "space (costbench --remote-wake, idle spinner, late over 100 us): ",
				      w->d.kernel, w->d.model, w->arm[0].late, w->arm[0].n,
				      none_of(&s, w)->arm[0].late, none_of(&s, w)->arm[0].n, vs);
	}
	if (o && o < len)
		snprintf(buf + o, len - o, ".");
	release(&s);
	return o > 0;
}
