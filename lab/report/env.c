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

void distinct_fmt(const struct results *r, doc_fmt fn, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < r->nruns; i++) {
		char v[1024];
		fn(r->runs[i].doc, v, sizeof(v));
		add_distinct(buf, len, v);
	}
}

void fmt_kernel(const struct jr_val *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s = %s %s", jr_str(d, "provenance.kernel_label", "?"),
		 jr_str(d, "provenance.kernel_release", "?"),
		 jr_str(d, "provenance.kernel_version", ""));
}

void fmt_model(const struct jr_val *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s (from %s)", jr_str(d, "provenance.kernel_label", "?"),
		 jr_str(d, "provenance.preempt_model", "unknown"),
		 jr_str(d, "provenance.preempt_model_source", "an unrecorded source"));
}

void fmt_pages(const struct jr_val *d, char *buf, size_t len)
{
	double kb = 0;
	char pg[32];
	jr_num(d, "provenance.page_size_kb", &kb);
	snprintf(buf, len, "%s -> %s (%s)", jr_str(d, "provenance.page_policy", "?"),
		 page_name((long)kb, pg, sizeof(pg)), jr_str(d, "provenance.page_size_source", "?"));
}

void fmt_lock(const struct jr_val *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s/%s", jr_str(d, "tool", "?"), jr_str(d, "provenance.lock", "?"),
		 jr_str(d, "provenance.strategy", "?"));
}

void fmt_cpus(const struct jr_val *d, char *buf, size_t len)
{
	double n = 0;
	jr_num(d, "provenance.cpus", &n);
	snprintf(buf, len, "%.0f x %s", n, jr_str(d, "provenance.cpu_model", "?"));
}

void fmt_virt(const struct jr_val *d, char *buf, size_t len)
{
	const char *v = jr_str(d, "provenance.virtualization", "?");
	const struct jr_val *e = jr_path(d, "provenance.emulated");
	int em = (e && e->type == JR_BOOL && e->b) || !strcmp(v, "tcg");
	snprintf(buf, len, "%s, %s", v,
		 em ? "emulated (TCG): an emulator's times" :
		 e && e->type == JR_BOOL ? "not emulated" : "emulation not recorded");
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

/* A JSON array as make takes a list: its items joined with ",".  val
 * starts empty. */
static void array_text(const struct jr_val *v, char *val, size_t len)
{
	for (size_t k = 0; k < v->n; k++) {
		char one[128];
		value_text(v->items[k], one, sizeof(one));
		size_t l = strlen(val);
		snprintf(val + l, len - l, "%s%s", k ? "," : "", one);
	}
}

/* Whether cmd assigns VAR= as a word ("HUGEPAGES=" does not set PAGES). */
static int sets(const char *cmd, const char *var_eq)
{
	size_t l = strlen(var_eq);
	for (const char *s = cmd; (s = strstr(s, var_eq)); s += l)
		if (s == cmd || s[-1] == ' ')
			return 1;
	return 0;
}

/*
 * The manifest's command names only what selects the bench (KERNEL=host
 * HUGEPAGES=...); the matrix beside it says what ran.  Variables the
 * command does not set are added from the matrix, so the line reruns the
 * same cells rather than the defaults of the day.
 */
static void manifest_command(const struct results *r, const char *cmd, char *buf, size_t len)
{
	static const struct { const char *key, *var; } vars[] = {
		{ "models", "MODELS" }, { "pages", "PAGES" }, { "clients", "CLIENTS" },
		{ "locks", "LOCKS" }, { "strategy", "STRATEGY" }, { "workload", "WORKLOAD" },
		{ "pool", "POOL" }, { "relation", "RELATION" }, { "duration", "DURATION" },
		{ "warmup", "WARMUP" }, { "repeat", "REPEAT" },
	};
	size_t n = (size_t)snprintf(buf, len, "%s", cmd);
	const struct jr_val *mx = jr_get(r->manifest, "matrix");
	for (size_t i = 0; mx && mx->type == JR_OBJ && i < sizeof(vars) / sizeof(vars[0]) && n < len; i++) {
		char set[32], val[512] = "";
		snprintf(set, sizeof(set), "%s=", vars[i].var);
		const struct jr_val *v = jr_get(mx, vars[i].key);
		if (!v || sets(cmd, set))
			continue;
		if (v->type == JR_ARR) {
			array_text(v, val, sizeof(val));
		} else {
			/* " 4k 2m" -> "4k,2m" */
			char raw[512];
			value_text(v, raw, sizeof(raw));
			size_t o = 0;
			for (char *t = strtok(raw, " ,"); t && o < sizeof(val); t = strtok(NULL, " ,"))
				o += (size_t)snprintf(val + o, sizeof(val) - o, "%s%s", o ? "," : "", t);
		}
		if (val[0])
			n += (size_t)snprintf(buf + n, len - n, " %s%s", set, val);
	}
	if (n < len && !sets(cmd, "PGBENCH=")) {
		int pgb = 0;
		for (size_t c = 0; c < r->ncells; c++)
			pgb |= !strcmp(r->cells[c].tool, "pgbench");
		snprintf(buf + n, len - n, " PGBENCH=%s", pgb ? "on" : "off");
	}
}

void repro_command(const struct results *r, char *buf, size_t len)
{
	const char *m = r->manifest ? jr_str(r->manifest, "command", NULL) : NULL;
	if (m && *m) {
		manifest_command(r, m, buf, len);
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
				array_text(v, val, sizeof(val));
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
