#include "wakefolio.h"

#include <stdlib.h>
#include <string.h>

#include "doc_rows.h"
#include "escape.h"
#include "json_read.h"
#include "logs_each.h"
#include "statistics.h"
#include "textfmt.h"

/* The readers: an RT one and a fair one of a page the fault allocates, an
 * RT one of a page it only maps, and the first one's traced twin (last). */
#define FO_SETS 4
#define FO_TRACED 3
static const char *const set_prefix[FO_SETS] = { "wakefolio-", "wakefoliofair-", "wakefoliomap-",
						 "wakefoliotrace-" };
static const char *const set_text[FO_SETS] = { "RT", "fair", "RT, map", "RT, traced" };

/* One kernel/model of one reader, its boots' documents pooled (plain arm). */
struct fo_row {
	struct doc_row d;
	double fault_ns;
	long in_n, in_slept;		/* wakes inside the fault; the reads that slept */
	long ctl_n, ctl_slept;		/* wakes before the touch and after the fault */
	/* The traced twin's census of folio waits. */
	bool traced;
	double waits, joined, preempted, wait_ns, holder_off_ns;
};

struct fo_set {
	struct fo_row *row;
	size_t n;
	int k;			/* set_prefix's */
};

static void add_census(struct fo_row *w, const struct json_read_val *j)
{
	const struct json_read_val *t = json_read_get(j, "trace");
	if (!t || !json_read_true(t, "traced")) {
		if (t && !w->d.why[0])
			snprintf(w->d.why, sizeof(w->d.why), "not traced: %s", json_read_str(t, "why", "?"));
		return;
	}
	const struct json_read_val *c = json_read_get(json_read_get(t, "census"), "folios");
	w->traced = true;
	w->waits += doc_num(c, "waits");
	w->joined += doc_num(c, "joined");
	w->preempted += doc_num(c, "holder_preempted");
	w->wait_ns += doc_num(c, "wait_ns");
	w->holder_off_ns += doc_num(c, "holder_off_ns");
}

static void load_one(void *ctx, const char *dir, const char *name)
{
	char path[4096], err[512];
	snprintf(path, sizeof(path), "%s/logs/%s", dir, name);
	struct json_read_val *j = json_read_parse_file(path, err, sizeof(err));
	const char *contend = j ? json_read_str(j, "contend_page", "off") : "off";
	if (!j || strcmp(json_read_str(j, "mode", ""), "wake_in_fault") ||
	    (strcmp(contend, "alloc") && strcmp(contend, "map"))) {
		txt_printf(stderr, "report: ignoring %s\n", j ? path : err);
		json_read_free(j);
		return;
	}
	struct fo_set *set = ctx;
	struct fo_row *w = (struct fo_row *)doc_row_of((void **)&set->row, &set->n, sizeof(*set->row), j,
							set_prefix[set->k], name);
	const struct json_read_val *arm = json_read_get(json_read_get(j, "arms"), "plain");
	if (w && w->d.ndocs == 1)
		json_read_num(j, "fault_ns", &w->fault_ns);
	if (w && !json_read_true(j, "available"))
		snprintf(w->d.why, sizeof(w->d.why), "%s", json_read_str(j, "why", "?"));
	else if (w && arm) {
		w->in_n += (long)doc_num(arm, "wake_in_fault.trials");
		w->in_slept += (long)doc_num(arm, "wake_in_fault.competitor_blocked");
		w->ctl_n += (long)doc_num(arm, "wake_before_touch.trials") + (long)doc_num(arm, "wake_after_fault.trials");
		w->ctl_slept += (long)doc_num(arm, "wake_before_touch.competitor_blocked") +
				(long)doc_num(arm, "wake_after_fault.competitor_blocked");
		add_census(w, j);
	}
	json_read_free(j);
}

static size_t load(const struct results *r, struct fo_set s[FO_SETS])
{
	size_t n = 0;
	for (int k = 0; k < FO_SETS; k++) {
		memset(&s[k], 0, sizeof(s[k]));
		s[k].k = k;
		logs_each_run(r, set_prefix[k], load_one, &s[k]);
		if (s[k].n)
			qsort(s[k].row, s[k].n, sizeof(*s[k].row), doc_row_cmp);
		n += s[k].n;
	}
	return n;
}

static void unload(struct fo_set s[FO_SETS])
{
	for (int k = 0; k < FO_SETS; k++)
		free(s[k].row);
}

/* What the share's interval allows one to say, and nothing more. */
static const char *verdict(long k, long n, char *buf, size_t len)
{
	double lo, hi;
	if (n <= 0)
		return "no wake inside the fault";
	st_wilson((double)k, (double)n, &lo, &hi);
	if (k == 0)
		snprintf(buf, len, "never slept (<= %.0f%%)", 100 * hi);
	else
		snprintf(buf, len, "slept on the holder's folio");
	return buf;
}

static const char intro[] =
	"costbench --wake-in-fault --contend-page alloc (logs/wakefolio-*.json, an RT reader; "
	"logs/wakefoliofair-*.json, a fair one at nice -20): the competitor of 'A wakeup inside a "
	"fault', woken inside the holder's first write to a fresh page of a shared (shmem) "
	"mapping, reads that same page. The holder's fault holds the page's folio lock from the "
	"folio's allocation through its zeroing and mapping to the unlock after it "
	"(shmem_alloc_and_add_folio, shmem_get_folio_gfp, fault_dirty_shared_page); a reader that "
	"runs while the holder is off CPU inside that stretch sleeps in __folio_lock until the "
	"holder runs again and unlocks. 'RT, map' (logs/wakefoliomap-*.json, --contend-page map): "
	"the page exists and the fault only maps it, as a backend's first touch of a shared "
	"buffer page, holding the lock from shmem_get_folio_gfp's folio_lock to the same unlock. 'slept': the reads that slept (a voluntary switch) of the "
	"wakes inside the fault (the plain arm); 'controls': wakes before the touch and after the "
	"fault. Under none the holder is switched out only at the fault's return to user mode, "
	"after the unlock.";

static const char intro_trace[] =
	"The traced twin (logs/wakefoliotrace-*.json, --trace on: bufbench's channel-census "
	"events; the trace and hold records beside it): each folio wait (a contended "
	"__folio_lock) joined to the folio_unlock that ended it, the holder's state when the wait "
	"began, the mean wait and the holder's mean time off CPU within it.";

struct fo_cols {
	char counts[32], share[48], ctl[32], says[64];
};

static void cols_of(const struct fo_row *w, struct fo_cols *c)
{
	double lo = 0, hi = 0;
	if (w->in_n > 0)
		st_wilson((double)w->in_slept, (double)w->in_n, &lo, &hi);
	snprintf(c->counts, sizeof(c->counts), "%ld/%ld", w->in_slept, w->in_n);
	snprintf(c->share, sizeof(c->share), "%.0f%% [%.0f, %.0f]",
		 w->in_n ? 100.0 * (double)w->in_slept / (double)w->in_n : 0.0, 100 * lo, 100 * hi);
	snprintf(c->ctl, sizeof(c->ctl), "%ld/%ld", w->ctl_slept, w->ctl_n);
	verdict(w->in_slept, w->in_n, c->says, sizeof(c->says));
}

static void write_rows(FILE *f, const struct fo_set *s, bool md)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct fo_row *w = &s->row[i];
		if (!w->in_n && w->d.why[0]) {
			if (md)
				md_printf(f, "| %s | %s | %s | unavailable: %s | | | | |\n", w->d.kernel, w->d.model,
					  set_text[s->k], w->d.why);
			else
				txt_printf(f, "%-18s %-9s %-10s unavailable: %s\n", w->d.kernel, w->d.model,
					   set_text[s->k], w->d.why);
			continue;
		}
		struct fo_cols c;
		cols_of(w, &c);
		if (md)
			md_printf(f, "| %s | %s | %s | %.1f | %s | %s | %s | %s |\n", w->d.kernel, w->d.model,
				  set_text[s->k], w->fault_ns / 1000, c.counts, c.share, c.ctl, c.says);
		else
			txt_printf(f, "%-18s %-9s %-10s %8.1f %9s %-15s %8s  %s\n", w->d.kernel, w->d.model,
				   set_text[s->k], w->fault_ns / 1000, c.counts, c.share, c.ctl, c.says);
	}
}

static double mean_us(double ns, double n)
{
	return n > 0 ? ns / n / 1000 : 0;
}

static void write_census(FILE *f, const struct fo_set *s, bool md)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct fo_row *w = &s->row[i];
		if (!w->traced) {
			const char *why = w->d.why[0] ? w->d.why : "no trace in its document";
			if (md)
				md_printf(f, "| %s | %s | %s | | | | | |\n", w->d.kernel, w->d.model, why);
			else
				txt_printf(f, "%-18s %-9s %s\n", w->d.kernel, w->d.model, why);
			continue;
		}
		char slept[32];
		snprintf(slept, sizeof(slept), "%ld/%ld", w->in_slept, w->in_n);
		if (md)
			md_printf(f, "| %s | %s | %s | %.0f | %.0f | %.0f | %.1f | %.1f |\n", w->d.kernel,
				  w->d.model, slept, w->waits, w->joined, w->preempted,
				  mean_us(w->wait_ns, w->joined), mean_us(w->holder_off_ns, w->joined));
		else
			txt_printf(f, "%-18s %-9s %9s %6.0f %7.0f %10.0f %8.1f %9.1f\n", w->d.kernel, w->d.model,
				   slept, w->waits, w->joined, w->preempted, mean_us(w->wait_ns, w->joined),
				   mean_us(w->holder_off_ns, w->joined));
	}
}

static void sources(FILE *f, const struct fo_set *s, bool md)
{
	for (size_t i = 0; i < s->n; i++) {
		char buf[448];
		doc_row_source(&s->row[i].d, buf, sizeof(buf));
		if (md)
			md_printf(f, "- %s\n", buf);
		else
			text_para(f, "  ", buf, 2);
	}
}

void write_wakefolio_txt(FILE *f, const struct results *r)
{
	struct fo_set s[FO_SETS];
	if (load(r, s)) {
		text_heading(f, "A page read inside a fault: the folio channel");
		text_para(f, "", intro, 0);
		txt_printf(f, "\n%-18s %-9s %-10s %8s %9s %-15s %8s  %s\n", "kernel", "model", "reader",
			   "fault us", "slept", "share (95%)", "controls", "says");
		for (int k = 0; k < FO_SETS; k++)
			write_rows(f, &s[k], false);
		if (s[FO_TRACED].n) {
			txt_printf(f, "\n");
			text_para(f, "", intro_trace, 0);
			txt_printf(f, "\n%-18s %-9s %9s %6s %7s %10s %8s %9s\n", "kernel", "model", "slept",
				   "waits", "joined", "preempted", "wait us", "off CPU us");
			write_census(f, &s[FO_TRACED], false);
		}
		txt_printf(f, "\n");
		for (int k = 0; k < FO_SETS; k++)
			sources(f, &s[k], false);
		txt_printf(f, "\n");
	}
	unload(s);
}

void write_wakefolio_md(FILE *f, const struct results *r)
{
	struct fo_set s[FO_SETS];
	if (load(r, s)) {
		md_printf(f, "\n## A page read inside a fault: the folio channel\n\n%s\n\n", intro);
		md_printf(f, "| kernel | model | reader | fault us | slept / in fault | share (95%%) | "
			     "controls: slept | says |\n|---|---|---|---|---|---|---|---|\n");
		for (int k = 0; k < FO_SETS; k++)
			write_rows(f, &s[k], true);
		if (s[FO_TRACED].n) {
			md_printf(f, "\n%s\n\n| kernel | model | slept / in fault | folio waits | joined to "
				     "an unlock | holder preempted | mean wait us | holder off CPU us |\n"
				     "|---|---|---|---|---|---|---|---|\n", intro_trace);
			write_census(f, &s[FO_TRACED], true);
		}
		md_printf(f, "\n");
		for (int k = 0; k < FO_SETS; k++)
			sources(f, &s[k], true);
	}
	unload(s);
}

bool wakefolio_sentence(const struct results *r, char *buf, size_t len)
{
	struct fo_set s[FO_SETS];
	load(r, s);
	size_t o = 0;
	buf[0] = '\0';
	/* The bare readers only: the traced twin is an instrument's run. */
	for (int k = 0; k < FO_TRACED; k++)
		for (size_t i = 0; i < s[k].n && o < len; i++) {
			const struct fo_row *w = &s[k].row[i];
			char says[64];
			if (!w->in_n)
				continue;
			o += (size_t)snprintf(buf + o, len - o, "%s%s %s, %s reader: %s (%ld of %ld)",
					      o ? "; " : "A read of the holder's page timed inside its fault "
							 "(costbench --contend-page): ",
					      w->d.kernel, w->d.model, set_text[k],
					      verdict(w->in_slept, w->in_n, says, sizeof(says)), w->in_slept,
					      w->in_n);
		}
	if (o && o < len)
		snprintf(buf + o, len - o, ".");
	unload(s);
	return o > 0;
}
