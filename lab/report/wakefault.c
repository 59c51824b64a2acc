#include "wakefault.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "doc_rows.h"
#include "escape.h"
#include "json_read.h"
#include "logs_each.h"
#include "statistics.h"
#include "textfmt.h"

#define WF_ARMS 2
static const char *const arm_key[WF_ARMS] = { "plain", "slice_requested" };
/* By the competitor: SCHED_FIFO (wakefault-*), or fair at nice -20 (wakefair-*). */
static const char *const arm_text[2][WF_ARMS] = { { "plain", "slice requested" },
						  { "plain, fair", "requested, fair" } };

/* One kernel/model, its boots' documents pooled. */
struct wf_row {
	struct doc_row d;
	double fault_ns, slice_ext_ns;
	bool ran[WF_ARMS];
	long in_n[WF_ARMS], in_off[WF_ARMS], in_granted[WF_ARMS];
	long after_n[WF_ARMS], after_off[WF_ARMS];
};

struct wf_set {
	struct wf_row *row;
	size_t n;
	const char *prefix;	/* "wakefault-" or "wakefair-" */
	int fair;		/* the competitor's class: arm_text's row */
};

static void load_one(void *ctx, const char *dir, const char *name)
{
	char path[4096], err[512];
	snprintf(path, sizeof(path), "%s/logs/%s", dir, name);
	struct json_read_val *j = json_read_parse_file(path, err, sizeof(err));
	if (!j || strcmp(json_read_str(j, "mode", ""), "wake_in_fault")) {
		txt_printf(stderr, "report: ignoring %s\n", j ? path : err);
		json_read_free(j);
		return;
	}
	struct wf_set *set = ctx;
	struct wf_row *w = (struct wf_row *)doc_row_of((void **)&set->row, &set->n, sizeof(*set->row), j,
							set->prefix, name);
	if (w && w->d.ndocs == 1) {
		json_read_num(j, "fault_ns", &w->fault_ns);
		json_read_num(j, "provenance.slice_ext_ns", &w->slice_ext_ns);
	}
	if (w && !json_read_true(j, "available"))
		snprintf(w->d.why, sizeof(w->d.why), "%s", json_read_str(j, "why", "?"));
	for (int a = 0; w && a < WF_ARMS; a++) {
		const struct json_read_val *arm = json_read_get(json_read_get(j, "arms"), arm_key[a]);
		if (!arm || !json_read_true(arm, "available")) {
			if (arm && !w->d.why[0])
				snprintf(w->d.why, sizeof(w->d.why), "%s", json_read_str(arm, "why", "?"));
			continue;
		}
		w->ran[a] = true;
		w->in_n[a] += (long)doc_num(arm, "wake_in_fault.trials");
		w->in_off[a] += (long)doc_num(arm, "wake_in_fault.off_cpu_before_release");
		w->in_granted[a] += (long)doc_num(arm, "wake_in_fault.granted");
		w->after_n[a] += (long)doc_num(arm, "wake_after_fault.trials");
		w->after_off[a] += (long)doc_num(arm, "wake_after_fault.off_cpu_before_release");
	}
	json_read_free(j);
}

static void load_set(const struct results *r, struct wf_set *s, int fair)
{
	memset(s, 0, sizeof(*s));
	s->prefix = fair ? "wakefair-" : "wakefault-";
	s->fair = fair;
	logs_each_run(r, s->prefix, load_one, s);
	if (s->n)
		qsort(s->row, s->n, sizeof(*s->row), doc_row_cmp);
}

/* Both competitors' documents: s[0] SCHED_FIFO, s[1] fair. */
static size_t load(const struct results *r, struct wf_set s[2])
{
	load_set(r, &s[0], 0);
	load_set(r, &s[1], 1);
	return s[0].n + s[1].n;
}

/* What the share's interval allows one to say, and nothing more. */
static const char *verdict(long k, long n)
{
	double lo, hi;
	if (n <= 0)
		return "no wake inside the fault";
	st_wilson((double)k, (double)n, &lo, &hi);
	return lo > 0.9 ? "off CPU before release" : hi < 0.1 ? "released first" : "mixed";
}

static const char intro[] =
	"costbench --wake-in-fault (logs/wakefault-*.json): a SCHED_FIFO competitor on the holder's "
	"CPU, its timer armed from a quarter fault before to a quarter after the holder's first "
	"touch of a page; the holder's critical section is that fault. 'in fault': trials whose "
	"timer expired inside the fault's own length (its median alone, 'fault us'); 'off CPU': "
	"the competitor ran while the holder still held. Every model predicts off CPU for the "
	"plain arm (full and lazy inside the fault, none at its return to user mode); with a "
	"slice requested, none and voluntary grant it at the exit, full and lazy preempt inside "
	"the fault unless kernels/patches/0002 defers them (KERNEL=7.2-rseqfault, a fault "
	"shorter than SLICE_EXT_US). 'after': the control, wakes after the fault (the holder "
	"had released).";

static const char intro_fair[] =
	" Rows ', fair' (logs/wakefair-*.json): the competitor is a fair task at nice -20 with "
	"EEVDF's shortest slice request and no timer slack, whose wakeup asks with "
	"resched_curr_lazy: full acts on it inside the fault as before, lazy only at the tick or "
	"the return to user, where a requested extension is granted as under none.";

/* One row's columns, as both tables print them. */
struct wf_cols {
	char counts[48], share[48];
};

static void cols_of(const struct wf_row *w, int a, struct wf_cols *c)
{
	double lo = 0, hi = 0;
	if (w->in_n[a] > 0)
		st_wilson((double)w->in_off[a], (double)w->in_n[a], &lo, &hi);
	snprintf(c->counts, sizeof(c->counts), "%ld/%ld", w->in_off[a], w->in_n[a]);
	snprintf(c->share, sizeof(c->share), "%.0f%% [%.0f, %.0f]",
		 w->in_n[a] ? 100.0 * (double)w->in_off[a] / (double)w->in_n[a] : 0.0, 100 * lo, 100 * hi);
}

static void write_rows(FILE *f, const struct wf_set *s, bool md)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct wf_row *w = &s->row[i];
		for (int a = 0; a < WF_ARMS; a++) {
			if (!w->ran[a]) {
				const char *why = w->d.why[0] ? w->d.why : "not run";
				if (md)
					md_printf(f, "| %s | %s | %s | unavailable: %s | | | | | |\n", w->d.kernel,
						  w->d.model, arm_text[s->fair][a], why);
				else
					txt_printf(f, "%-18s %-9s %-16s unavailable: %s\n", w->d.kernel, w->d.model,
						   arm_text[s->fair][a], why);
				continue;
			}
			struct wf_cols c;
			char after[48];
			cols_of(w, a, &c);
			snprintf(after, sizeof(after), "%ld/%ld", w->after_off[a], w->after_n[a]);
			const char *says = verdict(w->in_off[a], w->in_n[a]);
			if (md)
				md_printf(f, "| %s | %s | %s | %.1f | %s | %s | %ld | %s | %s |\n", w->d.kernel,
					  w->d.model, arm_text[s->fair][a], w->fault_ns / 1000, c.counts, c.share,
					  w->in_granted[a], after, says);
			else
				txt_printf(f, "%-18s %-9s %-16s %8.1f %9s %-15s %7ld %7s  %s\n", w->d.kernel,
					   w->d.model, arm_text[s->fair][a], w->fault_ns / 1000, c.counts, c.share,
					   w->in_granted[a], after, says);
		}
	}
}

/* Each row's provenance, and the grant length. */
static void sources(FILE *f, const struct wf_set *s, bool md)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct wf_row *w = &s->row[i];
		char head[448], buf[512];
		doc_row_source(&w->d, head, sizeof(head));
		snprintf(buf, sizeof(buf), "%s, slice_ext_ns %.0f", head, w->slice_ext_ns);
		if (md)
			md_printf(f, "- %s\n", buf);
		else
			text_para(f, "  ", buf, 2);
	}
}

void write_wakefault_txt(FILE *f, const struct results *r)
{
	struct wf_set s[2];
	if (load(r, s)) {
		text_heading(f, "A wakeup inside a fault");
		char para[2048];
		snprintf(para, sizeof(para), "%s%s", intro, s[1].n ? intro_fair : "");
		text_para(f, "", para, 0);
		txt_printf(f, "\n%-18s %-9s %-16s %8s %9s %-15s %7s %7s  %s\n", "kernel", "model", "arm",
			   "fault us", "in fault", "off CPU (95%)", "granted", "after", "says");
		for (int k = 0; k < 2; k++)
			write_rows(f, &s[k], false);
		txt_printf(f, "\n");
		for (int k = 0; k < 2; k++)
			sources(f, &s[k], false);
		txt_printf(f, "\n");
	}
	free(s[0].row);
	free(s[1].row);
}

void write_wakefault_md(FILE *f, const struct results *r)
{
	struct wf_set s[2];
	if (load(r, s)) {
		md_printf(f, "\n## A wakeup inside a fault\n\n%s%s\n\n", intro, s[1].n ? intro_fair : "");
		md_printf(f, "| kernel | model | arm | fault us | off CPU / in fault | share (95%%) | granted | "
			     "after: off CPU | says |\n|---|---|---|---|---|---|---|---|---|\n");
		for (int k = 0; k < 2; k++)
			write_rows(f, &s[k], true);
		md_printf(f, "\n");
		for (int k = 0; k < 2; k++)
			sources(f, &s[k], true);
	}
	free(s[0].row);
	free(s[1].row);
}

bool wakefault_sentence(const struct results *r, char *buf, size_t len)
{
	struct wf_set s[2];
	load(r, s);
	size_t o = 0;
	buf[0] = '\0';
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < s[k].n && o < len; i++) {
			const struct wf_row *w = &s[k].row[i];
			for (int a = 0; a < WF_ARMS && o < len; a++) {
				if (!w->ran[a] || !w->in_n[a])
					continue;
				o += (size_t)snprintf(buf + o, len - o, "%s%s %s, %s: %s (%ld of %ld)",
						      o ? "; " : "A wakeup timed inside a holder's fault "
								 "(costbench --wake-in-fault): ",
						      w->d.kernel, w->d.model, arm_text[k][a],
						      verdict(w->in_off[a], w->in_n[a]), w->in_off[a], w->in_n[a]);
			}
		}
	if (o && o < len)
		snprintf(buf + o, len - o, ".");
	free(s[0].row);
	free(s[1].row);
	return o > 0;
}
