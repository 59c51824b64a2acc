/*
 * make compare: which runs were compared, and what differs between them
 * besides the kernel and model (the machine, its CPU count, the lab's
 * revision, the virtualization), so a reader does not take a difference
 * of machines for one of kernels.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "report.h"
#include "textfmt.h"

struct facts {
	char machine[256], cpus[64], cpu_model[256], releases[512], virt[128], revision[256];
	size_t nruns;
};

static void add(char *buf, size_t len, const char *v)
{
	if (!v || !*v || strstr(buf, v))
		return;
	size_t l = strlen(buf);
	snprintf(buf + l, len - l, "%s%s", l ? ", " : "", v);
}

static void facts_of(const struct results *r, const struct source *s, struct facts *x)
{
	char prefix[4200];
	memset(x, 0, sizeof(*x));
	snprintf(prefix, sizeof(prefix), "%s/runs/", s->dir);
	const char *mh = s->manifest ? json_read_str(s->manifest, "host.hostname", NULL) : NULL;
	add(x->machine, sizeof(x->machine), mh);
	double mc;
	if (s->manifest && json_read_num(s->manifest, "host.cpus", &mc))
		snprintf(x->cpus, sizeof(x->cpus), "%g", mc);
	add(x->revision, sizeof(x->revision),
	    s->manifest ? json_read_str(s->manifest, "lab_revision", NULL) : NULL);
	for (size_t i = 0; i < r->nruns; i++) {
		const struct json_read_val *d = r->runs[i].doc;
		if (strncmp(r->runs[i].path, prefix, strlen(prefix)))
			continue;
		x->nruns++;
		if (!mh)
			add(x->machine, sizeof(x->machine), json_read_str(d, "provenance.hostname", NULL));
		double c;
		char cb[32];
		if (json_read_num(d, "provenance.cpus", &c)) {
			snprintf(cb, sizeof(cb), "%g", c);
			add(x->cpus, sizeof(x->cpus), cb);
		}
		add(x->cpu_model, sizeof(x->cpu_model), json_read_str(d, "provenance.cpu_model", NULL));
		add(x->releases, sizeof(x->releases), json_read_str(d, "provenance.kernel_release", NULL));
		add(x->virt, sizeof(x->virt), json_read_str(d, "provenance.virtualization", NULL));
		add(x->revision, sizeof(x->revision), json_read_str(d, "provenance.lab_revision", NULL));
	}
}

/* "Machines differ: a (run A), b (run B)." when field differs between runs. */
static void difference(const struct results *r, const struct facts *x, size_t off,
		       const char *what, char *buf, size_t len)
{
	const char *first = (const char *)x + off;
	bool differs = false;
	for (size_t i = 1; i < r->nsources; i++)
		differs |= strcmp((const char *)&x[i] + off, first) != 0;
	if (!differs)
		return;
	size_t l = strlen(buf);
	l += (size_t)snprintf(buf + l, len - l, "%s%s differ between the runs: ", l ? " " : "", what);
	for (size_t i = 0; i < r->nsources && l < len; i++) {
		const char *v = (const char *)&x[i] + off;
		l += (size_t)snprintf(buf + l, len - l, "%s%s (%s)", i ? "; " : "", *v ? v : "not recorded",
				      r->sources[i].label);
	}
	if (l < len)
		snprintf(buf + l, len - l, ".");
}

/* The sentence of differences, or one saying there are none. */
static void differences(const struct results *r, const struct facts *x, char *buf, size_t len)
{
	buf[0] = 0;
	difference(r, x, offsetof(struct facts, machine), "Machines", buf, len);
	difference(r, x, offsetof(struct facts, cpus), "CPU counts", buf, len);
	difference(r, x, offsetof(struct facts, cpu_model), "CPU models", buf, len);
	difference(r, x, offsetof(struct facts, virt), "Virtualization modes", buf, len);
	difference(r, x, offsetof(struct facts, revision), "Lab revisions", buf, len);
	if (!buf[0])
		snprintf(buf, len, "The runs share machine, CPU count, CPU model, virtualization "
				   "and lab revision: only what names their columns differs.");
	else {
		size_t l = strlen(buf);
		snprintf(buf + l, len - l, " A change between such columns may be the machine's or "
					   "the lab's, not the kernel's or the model's.");
	}
}

#define MAX_SOURCES 64

void write_sources_txt(FILE *f, const struct results *r)
{
	static struct facts x[MAX_SOURCES];
	char buf[8192];
	size_t n = r->nsources < MAX_SOURCES ? r->nsources : MAX_SOURCES;
	text_heading(f, "Runs compared");
	text_para(f, "", "Columns are named kernel/model/host: host is the machine a run was made "
		       "on (its directory added when one machine ran the same kernel twice).", 0);
	for (size_t i = 0; i < n; i++) {
		facts_of(r, &r->sources[i], &x[i]);
		snprintf(buf, sizeof(buf), "%.3000s: %zu runs; machine %.255s, %.63s CPUs (%.255s), kernel %.511s, %.127s, lab %.255s",
			 r->sources[i].dir, x[i].nruns, x[i].machine[0] ? x[i].machine : "?",
			 x[i].cpus[0] ? x[i].cpus : "?", x[i].cpu_model[0] ? x[i].cpu_model : "?",
			 x[i].releases, x[i].virt[0] ? x[i].virt : "?",
			 x[i].revision[0] ? x[i].revision : "?");
		char lead[300];
		snprintf(lead, sizeof(lead), "  %s  ", r->sources[i].label);
		text_para(f, lead, buf, 4);
	}
	fputc('\n', f);
	differences(r, x, buf, sizeof(buf));
	text_para(f, "", buf, 0);
}

void write_sources_md(FILE *f, const struct results *r)
{
	static struct facts x[MAX_SOURCES];
	char buf[8192];
	size_t n = r->nsources < MAX_SOURCES ? r->nsources : MAX_SOURCES;
	md_printf(f, "\n## Runs compared\n\nColumns are named kernel/model/host: host is the "
		     "machine a run was made on.\n\n| host | run | runs | machine | CPUs | CPU model "
		     "| kernel | virtualization | lab revision |\n|---|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		facts_of(r, &r->sources[i], &x[i]);
		md_printf(f, "| %s | %s | %zu | %s | %s | %s | %s | %s | %s |\n", r->sources[i].label,
			  r->sources[i].dir, x[i].nruns, x[i].machine, x[i].cpus, x[i].cpu_model,
			  x[i].releases, x[i].virt, x[i].revision);
	}
	differences(r, x, buf, sizeof(buf));
	md_printf(f, "\n%s\n", buf);
}
