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
	char llc[8], llc_source[200], hrtick[8];
	struct rw_arm arm[RW_ARMS];
	/* The traced twin (logs/ipisenders-*.json): "func count, ..." per arm. */
	char senders[RW_ARMS][320];
	char entries[RW_ARMS][320];	/* the target's own kernel entries, "event[ name] N" */
	long woken[RW_ARMS][2];		/* the wakee's wakeups done on the target, elsewhere */
	bool woken_known[RW_ARMS];
	long traced_wakes[RW_ARMS];
};

struct rw_set {
	struct rw_row *row;
	size_t n;
	const char *prefix;	/* the documents being read: timed or traced */
};

static void add_trials(struct rw_arm *a, const struct json_read_val *arm)
{
	const struct json_read_val *t = json_read_get(arm, "trials");
	if (!t || t->type != JR_ARR)
		return;
	double *g = realloc(a->lat, (a->n + t->n) * sizeof(*g));
	if (!g)
		return;
	a->lat = g;
	/* A trial whose wakee had not yet slept woke nothing: left out. */
	for (size_t i = 0; i < t->n; i++) {
		const struct json_read_val *asleep = json_read_get(t->items[i], "asleep");
		if (asleep && asleep->type == JR_BOOL && !asleep->b)
			a->awake++;
		else if (json_read_num(t->items[i], "latency_ns", &a->lat[a->n]))
			a->n++;
	}
	double late = 0, res = 0, cal = 0;
	json_read_num(arm, "late", &late);
	a->late += (long)late;
	bool known = json_read_true(arm, "target_interrupts.known") && a->res >= 0 &&
		     json_read_num(arm, "target_interrupts.resched", &res) &&
		     json_read_num(arm, "target_interrupts.call_function", &cal);
	a->res = known ? a->res + res : -1;
	a->cal = known ? a->cal + cal : -1;
}

/* The traced twin's senders of one arm, as "func N, func N". */
static void add_senders(struct rw_row *w, int a, const struct json_read_val *arm)
{
	const struct json_read_val *list = json_read_path(arm, "interrupt_senders.senders");
	if (!json_read_true(arm, "interrupt_senders.traced") || !list || list->type != JR_ARR)
		return;
	const struct json_read_val *t = json_read_get(arm, "trials");
	w->traced_wakes[a] += t && t->type == JR_ARR ? (long)t->n : 0;
	double on = 0, off = 0;
	if (json_read_num(arm, "interrupt_senders.woken_on_target", &on) &&
	    json_read_num(arm, "interrupt_senders.woken_elsewhere", &off))
		w->woken[a][0] += (long)on, w->woken[a][1] += (long)off, w->woken_known[a] = true;
	const struct json_read_val *ent = json_read_path(arm, "interrupt_senders.target_entries");
	for (size_t i = 0; ent && ent->type == JR_ARR && i < ent->n; i++) {
		double n = 0;
		json_read_num(ent->items[i], "count", &n);
		const char *name = json_read_str(ent->items[i], "name", "");
		size_t o = strlen(w->entries[a]);
		snprintf(w->entries[a] + o, sizeof(w->entries[a]) - o, "%s%s%s%s %.0f", o ? ", " : "",
			 json_read_str(ent->items[i], "event", "?"), *name ? " " : "", name, n);
	}
	for (size_t i = 0; i < list->n; i++) {
		double n = 0;
		json_read_num(list->items[i], "count", &n);
		/* A queued cross-CPU call names what it queued. */
		const char *site = json_read_str(list->items[i], "callsite", "?");
		bool queued = !strncmp(site, "queue:", 6);
		size_t o = strlen(w->senders[a]);
		snprintf(w->senders[a] + o, sizeof(w->senders[a]) - o, "%s%s%s%s %.0f", o ? ", " : "", site,
			 queued ? " -> " : "", queued ? json_read_str(list->items[i], "callback", "?") : "", n);
	}
}

static void load_one(void *ctx, const char *dir, const char *name)
{
	char path[4096], err[512];
	snprintf(path, sizeof(path), "%s/logs/%s", dir, name);
	struct json_read_val *j = json_read_parse_file(path, err, sizeof(err));
	if (!j || strcmp(json_read_str(j, "mode", ""), "remote_wake")) {
		txt_printf(stderr, "report: ignoring %s\n", j ? path : err);
		json_read_free(j);
		return;
	}
	struct rw_set *set = ctx;
	bool traced = !strcmp(set->prefix, "ipisenders-");
	/* A traced twin joins its timed row and makes none of its own. */
	struct rw_row *w = traced ?
		(struct rw_row *)doc_row_find(set->row, set->n, sizeof(*set->row), j) :
		(struct rw_row *)doc_row_of((void **)&set->row, &set->n, sizeof(*set->row), j,
					    set->prefix, name);
	if (w && !traced && w->d.ndocs == 1) {
		snprintf(w->llc, sizeof(w->llc), "%s", json_read_str(j, "llc_shared", "?"));
		snprintf(w->llc_source, sizeof(w->llc_source), "%s", json_read_str(j, "llc_source", "?"));
		snprintf(w->hrtick, sizeof(w->hrtick), "%s", json_read_str(j, "sched_hrtick", "?"));
	}
	if (w && !traced && !json_read_true(j, "available"))
		snprintf(w->d.why, sizeof(w->d.why), "%s", json_read_str(j, "why", "?"));
	for (int a = 0; w && a < RW_ARMS; a++) {
		const struct json_read_val *arm = json_read_get(json_read_get(j, "arms"), arm_key[a]);
		if (arm && json_read_true(arm, "available")) {
			if (traced)
				add_senders(w, a, arm);
			else
				add_trials(&w->arm[a], arm);
		}
	}
	json_read_free(j);
}

static void load(const struct results *r, struct rw_set *s)
{
	memset(s, 0, sizeof(*s));
	s->prefix = "remotewake-";
	logs_each_run(r, s->prefix, load_one, s);
	s->prefix = "ipisenders-";
	logs_each_run(r, s->prefix, load_one, s);
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

/* The traced twin's senders, where the run has it. */
static void senders(FILE *f, const struct rw_set *s, bool md)
{
	bool any = false;
	for (size_t i = 0; i < s->n; i++)
		for (int a = 0; a < RW_ARMS; a++)
			any |= s->row[i].traced_wakes[a] > 0;
	if (!any)
		return;
	static const char head[] =
		"Who sent the target its interrupts (the traced twin, logs/ipisenders-*.json: "
		"costbench --remote-wake --trace-ipis on, a run of its own since the tracepoints "
		"cost time in the wakeup path; ipi:ipi_send_cpu and ipi_send_cpumask events whose "
		"target is the wakee's CPU, by the kernel function that sent them, and csd:csd_queue_cpu "
		"events, 'queue:CALLER -> FUNCTION', the cross-CPU calls queued for it; then the "
		"interrupts the target took itself, by handler, IPI reason or vector, where the "
		"kernel traces them):";
	if (md)
		md_printf(f, "\n%s\n\n", head);
	else
		text_para(f, "", head, 0);
	for (size_t i = 0; i < s->n; i++)
		for (int a = 0; a < RW_ARMS; a++) {
			const struct rw_row *w = &s->row[i];
			if (!w->traced_wakes[a])
				continue;
			char buf[900];
			char woken[96] = "";
			if (w->woken_known[a])
				snprintf(woken, sizeof(woken), "; woken on the target %ld, elsewhere %ld",
					 w->woken[a][0], w->woken[a][1]);
			snprintf(buf, sizeof(buf), "%s/%s %s (%ld wakes%s): %s%s%s", w->d.kernel, w->d.model,
				 arm_text[a], w->traced_wakes[a], woken,
				 w->senders[a][0] ? w->senders[a] : "none",
				 w->entries[a][0] ? "; the target's own entries: " : "", w->entries[a]);
			if (md)
				md_printf(f, "- %s\n", buf);
			else
				text_para(f, "  ", buf, 2);
		}
	if (!md)
		txt_printf(f, "\n");
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
		snprintf(buf, sizeof(buf), "%s, HZ %.0f, HRTICK %s, CPUs share a last-level cache: %s (%s)%s",
			 head, w->d.hz, w->hrtick, w->llc, w->llc_source,
			 awake ? "; trials left out, the wakee not yet asleep: " : "");
		if (awake)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%ld", awake);
		if (md)
			md_printf(f, "- %s\n", buf);
		else
			text_para(f, "  ", buf, 2);
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
		text_heading(f, "A wakeup from another CPU");
		text_para(f, "", intro, 0);
		txt_printf(f, "\n%-18s %-9s %-13s %9s %8s %8s %-15s %9s  %s\n", "kernel", "model", "arm",
			   "median us", "p75 us", "late", "late (95%)", "RES/CAL", "vs none");
		write_rows(f, &s, false);
		txt_printf(f, "\n");
		senders(f, &s, false);
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
		senders(f, &s, true);
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
		o += (size_t)snprintf(buf + o, len - o,
				      "%s%s %s (HRTICK %s), %ld of %zu late against none's %ld of %zu, %s",
				      o ? "; " : "A wakeup from another CPU onto a CPU spinning in user "
						 "space (costbench --remote-wake, idle spinner, late over 100 us): ",
				      w->d.kernel, w->d.model, w->hrtick, w->arm[0].late, w->arm[0].n,
				      none_of(&s, w)->arm[0].late, none_of(&s, w)->arm[0].n, vs);
	}
	if (o && o < len)
		snprintf(buf + o, len - o, ".");
	release(&s);
	return o > 0;
}
