/*
 * The environment block and the reproduction command: values that are the
 * same in every run are printed once, values that differ are listed, so a
 * mixed directory (two kernels, a guest and the host) is visible at once.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

static void add_distinct(char *buf, size_t len, const char *v)
{
	if (!*v)
		return;
	/* Look for v as a whole item of the ", "-separated list. */
	size_t vl = strlen(v);
	for (const char *s = buf; (s = strstr(s, v)); s += vl) {
		int starts = s == buf || (s >= buf + 2 && s[-2] == ',' && s[-1] == ' ');
		int ends = s[vl] == 0 || (s[vl] == ',' && s[vl + 1] == ' ');
		if (starts && ends)
			return;
	}
	size_t l = strlen(buf);
	snprintf(buf + l, len - l, "%s%s", l ? ", " : "", v);
}

static void value_text(const struct jr_val *v, char *buf, size_t len)
{
	buf[0] = 0;
	if (!v)
		return;
	if (v->type == JR_STR)
		snprintf(buf, len, "%s", v->str);
	else if (v->type == JR_NUM)
		snprintf(buf, len, "%g", v->num);
	else if (v->type == JR_BOOL)
		snprintf(buf, len, "%s", v->b ? "true" : "false");
}

void distinct_values(const struct results *r, const char *path, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < r->nruns; i++) {
		char v[512];
		value_text(jr_path(r->runs[i].doc, path), v, sizeof(v));
		add_distinct(buf, len, v);
	}
}

/* Distinct values of a path over one tool's runs, joined with ",". */
static void list_of(const struct results *r, const char *tool, const char *path,
		    char *buf, size_t len)
{
	char tmp[1024] = "";
	for (size_t i = 0; i < r->nruns; i++) {
		if (tool && strcmp(jr_str(r->runs[i].doc, "tool", ""), tool))
			continue;
		char v[256];
		value_text(jr_path(r->runs[i].doc, path), v, sizeof(v));
		add_distinct(tmp, sizeof(tmp), v);
	}
	/* "a, b" -> "a,b" for make's command line */
	size_t o = 0;
	for (size_t i = 0; tmp[i] && o + 1 < len; i++)
		if (tmp[i] != ' ')
			buf[o++] = tmp[i];
	buf[o] = 0;
}

void repro_command(const struct results *r, char *buf, size_t len)
{
	const char *m = r->manifest ? jr_str(r->manifest, "command", NULL) : NULL;
	if (m && *m) {
		snprintf(buf, len, "%s", m);
		return;
	}
	/* scripts/bench-kernel.sh records the make variables it was given. */
	const struct jr_val *asked = r->manifest ? jr_path(r->manifest, "guest_bench.asked") : NULL;
	if (asked && asked->type == JR_OBJ && asked->n) {
		size_t n = (size_t)snprintf(buf, len, "make bench");
		for (size_t i = 0; i < asked->n && n < len; i++) {
			const struct jr_val *v = asked->items[i];
			char val[512] = "";
			if (v->type == JR_ARR) {
				for (size_t k = 0; k < v->n; k++) {
					char one[128];
					value_text(v->items[k], one, sizeof(one));
					size_t l = strlen(val);
					snprintf(val + l, sizeof(val) - l, "%s%s", k ? "," : "", one);
				}
			} else {
				value_text(v, val, sizeof(val));
			}
			if (val[0] && !strchr(val, ' '))
				n += (size_t)snprintf(buf + n, len - n, " %s=%s", asked->keys[i], val);
		}
		return;
	}
	char k[256], mo[128], pg[128], cl[128], lk[128], du[64];
	list_of(r, NULL, "provenance.kernel_label", k, sizeof(k));
	list_of(r, NULL, "provenance.preempt_model", mo, sizeof(mo));
	list_of(r, "bufbench", "config.pages", pg, sizeof(pg));
	list_of(r, NULL, "config.clients", cl, sizeof(cl));
	list_of(r, "bufbench", "config.lock", lk, sizeof(lk));
	list_of(r, NULL, "config.duration_s", du, sizeof(du));
	size_t rep = 1;
	int pgb = 0;
	for (size_t c = 0; c < r->ncells; c++) {
		if (r->cells[c].nruns > rep)
			rep = r->cells[c].nruns;
		if (!strcmp(r->cells[c].tool, "pgbench"))
			pgb = 1;
	}
	int n = snprintf(buf, len, "make bench KERNEL=%s MODELS=%s", k, mo);
	if (*pg)
		n += snprintf(buf + n, len - (size_t)n, " PAGES=%s", pg);
	if (*lk)
		n += snprintf(buf + n, len - (size_t)n, " LOCKS=%s", lk);
	snprintf(buf + n, len - (size_t)n, " CLIENTS=%s DURATION=%s REPEAT=%zu PGBENCH=%s",
		 cl, du, rep, pgb ? "on" : "off");
}
