/* The pieces of build/report, shared by its writers. */
#ifndef PREEMPTLAB_REPORT_H
#define PREEMPTLAB_REPORT_H

#include <stdio.h>

#include "findings.h"
#include "micro.h"
#include "overhead.h"
#include "profiles.h"
#include "results.h"

#define REPORT_MAX_CHARTS 12

struct report {
	const struct results *r;
	const char *baseline;        /* --baseline KERNEL/MODEL or NULL */
	struct findings fd;
	struct profiles prof;
	char charts[REPORT_MAX_CHARTS][128];  /* SVG charts written, relative to RUN */
	char chart_titles[REPORT_MAX_CHARTS][160];
	int ncharts;
	char diff_svg[320];          /* differential flame graph, or "" */
	struct micro micro[8];       /* logs/bufmicro*.json */
	size_t nmicro;
	struct overhead *ovh;        /* the instruments' paired cost; NULL: not computed */
};

void write_txt(FILE *f, const struct report *rp);
/* summary.txt: the per-cell table `make bench` prints (summary.c). */
void write_summary(FILE *f, const struct report *rp);
void write_md(FILE *f, const struct report *rp);
/* report.html: self-contained, charts inline, no script (report_html.c). */
void write_html(FILE *f, const struct report *rp);

/* Common values of a provenance field over all runs, joined with ", ". */
void distinct_values(const struct results *r, const char *path, char *buf, size_t len);
/* Distinct per-document texts made by fn, joined with ", ". */
typedef void (*doc_fmt)(const struct json_read_val *doc, char *buf, size_t len);
void distinct_fmt(const struct results *r, doc_fmt fn, char *buf, size_t len);
/* Per-document provenance texts for the environment block. */
void fmt_kernel(const struct json_read_val *d, char *buf, size_t len);  /* label = release version */
void fmt_model(const struct json_read_val *d, char *buf, size_t len);   /* label/model (from source) */
void fmt_tick(const struct json_read_val *d, char *buf, size_t len);    /* label: HZ N, NO_HZ_* (from) */
void fmt_hz(const struct json_read_val *d, char *buf, size_t len);      /* "HZ N", "HZ unknown", "HZ not recorded" */
/* Whether the runs differ in fn's text: then each cell says its own. */
int docs_vary(const struct results *r, doc_fmt fn);
void fmt_pages(const struct json_read_val *d, char *buf, size_t len);   /* asked -> obtained (how) */
void fmt_lock(const struct json_read_val *d, char *buf, size_t len);    /* tool lock/strategy */
void fmt_cpus(const struct json_read_val *d, char *buf, size_t len);    /* N x model (arch) */
void fmt_virt(const struct json_read_val *d, char *buf, size_t len);    /* virt, emulated or not */

/*
 * The environment block's rows, declared once for report.txt, report.md
 * and report.html (env.c), in the order all three print them.  report.md
 * prints every row, report.html those marked html; report.txt prints a
 * row as its kind says.  Rows with a path print only when some run has it
 * (in report.md and .html; report.txt says "not recorded").
 */
enum env_txt {
	ENV_TXT_LINE,     /* "Kernel: ..." */
	ENV_TXT_COST,     /* a measured cost: median (range) over the runs; bufmicro's after the last */
	ENV_TXT_VERSION,  /* joined into one "Versions: " line, named by txt */
	ENV_TXT_IF_SET,   /* only when recorded */
};
struct env_row {
	const char *txt;    /* report.txt's lead ("Kernel: "), or a version's name */
	const char *label;  /* report.md's and report.html's */
	doc_fmt fn;         /* the per-document text, or NULL and */
	const char *path;   /* the field's path */
	enum env_txt how;
	int html;
};
extern const struct env_row env_rows[];
extern const size_t env_nrows;
/* A row's distinct values over the runs, ", "-joined ("" when none). */
void env_value(const struct results *r, const struct env_row *e, char *buf, size_t len);

/* The make command that reproduces the matrix (manifest's, or derived),
 * every value quoted for sh; malloc'd (repro.c). */
char *repro_command(const struct results *r);
/* s as one sh word: as is when plain, else in single quotes. */
void sh_quote(FILE *out, const char *s);
/* Each blank-separated word of line quoted with sh_quote; malloc'd. */
char *shell_words(const char *line);

/* make compare: the runs compared and what differs between them (sources.c). */
void write_sources_txt(FILE *f, const struct results *r);
void write_sources_md(FILE *f, const struct results *r);

/* Charts (charts.c): writes the SVGs into RUN and records them in rp. */
void write_charts(struct report *rp);
/* Each cell against its baseline, per metric (comparison.c); first. */
void write_comparison_charts(struct report *rp);
/* tps over time per cell, the fill marked (timeline.c). */
void write_timeline_charts(struct report *rp);
/* Flame graphs of profiled cells and the headline differential. */
void write_flamegraphs(struct report *rp);

#endif
