/*
 * The make command that reruns a results directory's matrix: printed in
 * report.txt and report.md and written by scripts/attach.sh into
 * reproduce.sh, which readers run as root.  Every value in it comes from
 * run documents (a guest's arrive over its serial channel) or from a
 * manifest.  Quoting for the shell is not enough: make expands $(shell ...)
 * in a command-line variable even inside single quotes.  So the line is
 * built here, never copied: names only from the planner's vocabulary
 * (bench_vars.h), values only of its safe characters (no '$', quote,
 * backslash or control character), anything else left out with a note on
 * stderr.  A manifest command that is not the planner's own "make bench
 * VAR=value ..." is not used at all.  The command is built in a memory
 * stream: a long matrix is never cut.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_vars.h"
#include "report.h"

/* Characters sh never interprets inside a word (the planner's own set). */
static int plain_char(int c)
{
	return c && (isalnum(c) || strchr(",.-_:/+=@", c));
}

void sh_quote(FILE *out, const char *s)
{
	int plain = *s != 0;
	for (const char *c = s; *c; c++)
		plain &= plain_char((unsigned char)*c);
	if (plain) {
		fputs(s, out);
		return;
	}
	/* Inside '...' nothing is special but the closing quote. */
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

char *shell_words(const char *line)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		exit(1);
	int first = 1;
	for (const char *s = line; *s;) {
		size_t n = strcspn(s, " ");
		if (n) {
			char *w = strndup(s, n);
			if (!w)
				exit(1);
			if (!first)
				fputc(' ', out);
			sh_quote(out, w);
			free(w);
			first = 0;
		}
		s += n;
		s += strspn(s, " ");
	}
	fclose(out);
	return buf;
}

/* A make variable's name: what the planner writes (KERNEL, PG_SCALE). */
static int is_name(const char *s, size_t n)
{
	if (!n || !(isupper((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!isupper((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

struct words {
	char **w;
	size_t n;
};

static void words_free(struct words *ws)
{
	for (size_t i = 0; i < ws->n; i++)
		free(ws->w[i]);
	free(ws->w);
	ws->w = NULL;
	ws->n = 0;
}

/*
 * The words of a command in the form lab/plan/vars.c writes: plain
 * characters, '...' and \x.  Anything else ($, backquotes, ;, double
 * quotes, an unclosed quote) means the text did not come from the planner:
 * -1, and nothing of it is used.
 */
static int parse_words(const char *s, struct words *ws)
{
	ws->w = NULL;
	ws->n = 0;
	for (;;) {
		s += strspn(s, " ");
		if (!*s)
			return 0;
		char *w = malloc(strlen(s) + 1);
		char **grown = realloc(ws->w, (ws->n + 1) * sizeof(*grown));
		if (!w || !grown)
			exit(1);
		ws->w = grown;
		ws->w[ws->n++] = w;
		size_t o = 0;
		while (*s && *s != ' ') {
			if (*s == '\'') {
				const char *end = strchr(s + 1, '\'');
				if (!end)
					goto bad;
				memcpy(w + o, s + 1, (size_t)(end - s - 1));
				o += (size_t)(end - s - 1);
				s = end + 1;
			} else if (*s == '\\' && isgraph((unsigned char)s[1])) {
				w[o++] = s[1];
				s += 2;
			} else if (plain_char((unsigned char)*s)) {
				w[o++] = *s++;
			} else {
				goto bad;
			}
		}
		w[o] = 0;
	}
bad:
	words_free(ws);
	return -1;
}

/* A scalar as make takes it; "" for anything else. */
static void put_scalar(FILE *out, const struct json_read_val *v)
{
	if (!v)
		return;
	if (v->type == JR_STR)
		fputs(v->str, out);
	else if (v->type == JR_NUM)
		fprintf(out, "%g", v->num);
	else if (v->type == JR_BOOL)
		fputs(v->b ? "true" : "false", out);
}

/* A value as make takes it: array items joined with ",", and with split a
 * string of blank- or comma-separated items (" 4k 2m") the same way. */
static char *list_value(const struct json_read_val *v, int split)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		exit(1);
	if (v && v->type == JR_ARR) {
		for (size_t k = 0; k < v->n; k++) {
			if (k)
				fputc(',', out);
			put_scalar(out, v->items[k]);
		}
	} else if (split && v && v->type == JR_STR) {
		int first = 1;
		for (const char *s = v->str; *s;) {
			size_t n = strcspn(s, " ,");
			if (n) {
				fprintf(out, "%s%.*s", first ? "" : ",", (int)n, s);
				first = 0;
			}
			s += n;
			s += strspn(s, " ,");
		}
	} else {
		put_scalar(out, v);
	}
	fclose(out);
	return buf;
}

/*
 * " NAME=value", the value quoted; nothing for an empty value, a name
 * outside the vocabulary or a value make or sh could take for code, nor
 * for FORCE: a reader rerunning a plan past the planner's limits (a
 * manifest from before the planner left FORCE out) is told so and decides.
 */
static void put_var(FILE *out, const char *name, const char *value)
{
	if (!*value || !strcmp(name, "FORCE"))
		return;
	if (!bench_var_known(name)) {
		fprintf(stderr, "report: '%.40s' is no make bench variable: left out of the "
				"reproduce command\n", name);
		return;
	}
	if (!bench_value_safe(value)) {
		/* The value itself is not echoed: it may hold terminal escapes. */
		fprintf(stderr, "report: %s's value has characters outside [A-Za-z0-9 ,._:/+=@-] "
				"(make would expand a '$' even in quotes): left out of the "
				"reproduce command\n", name);
		return;
	}
	fprintf(out, " %s=", name);
	sh_quote(out, value);
}

/* The command gives name a value the line may carry (the last one, as make
 * takes it); otherwise the matrix's stands in. */
static int names_var(const struct words *ws, const char *name)
{
	size_t l = strlen(name);
	const char *val = NULL;
	for (size_t i = 2; i < ws->n; i++)
		if (!strncmp(ws->w[i], name, l) && ws->w[i][l] == '=')
			val = ws->w[i] + l + 1;
	return val && bench_value_safe(val);
}

static int any_pgbench(const struct results *r)
{
	for (size_t c = 0; c < r->ncells; c++)
		if (!strcmp(r->cells[c].tool, "pgbench"))
			return 1;
	return 0;
}

/*
 * The manifest's command names only what selects the bench (KERNEL=host
 * HUGEPAGES=...); the plan's settings say what ran.  Variables the
 * command does not set are added from the settings, so the line reruns the
 * same cells rather than the defaults of the day.  -1 when the command is
 * not the planner's.
 */
static int manifest_command(const struct results *r, const char *cmd, FILE *out)
{
	static const struct { const char *key, *var; } vars[] = {
		{ "models", "MODELS" }, { "pages", "PAGES" }, { "clients", "CLIENTS" },
		{ "locks", "LOCKS" }, { "strategies", "STRATEGY" }, { "mitigations", "MITIGATIONS" },
		{ "workload", "WORKLOAD" },
		{ "pool", "POOL" }, { "relation", "RELATION" }, { "duration_s", "DURATION" },
		{ "warmup_s", "WARMUP" }, { "repeat", "REPEAT" },
	};
	struct words ws;
	if (parse_words(cmd, &ws))
		return -1;
	int ok = ws.n >= 2 && !strcmp(ws.w[0], "make") && !strcmp(ws.w[1], "bench");
	for (size_t i = 2; ok && i < ws.n; i++) {
		const char *eq = strchr(ws.w[i], '=');
		ok = eq && is_name(ws.w[i], (size_t)(eq - ws.w[i]));
	}
	if (!ok) {
		words_free(&ws);
		return -1;
	}
	/*
	 * Rebuilt, not copied: the vocabulary's names in its order, each with
	 * the last value the command gave it (as make takes it), checked.
	 */
	fputs("make bench", out);
	for (size_t i = 2; i < ws.n; i++) {
		*strchr(ws.w[i], '=') = 0;
		if (!bench_var_known(ws.w[i]))
			fprintf(stderr, "report: '%.40s' is no make bench variable: left out of the "
					"reproduce command\n", ws.w[i]);
	}
	for (size_t k = 0; bench_vars[k]; k++) {
		const char *val = NULL;
		for (size_t i = 2; i < ws.n; i++)
			if (!strcmp(ws.w[i], bench_vars[k]))
				val = ws.w[i] + strlen(ws.w[i]) + 1;
		if (val)
			put_var(out, bench_vars[k], val);
	}
	for (size_t i = 2; i < ws.n; i++)
		ws.w[i][strlen(ws.w[i])] = '=';
	const struct json_read_val *mx = json_read_path(r->manifest, "plan.settings");
	for (size_t i = 0; mx && mx->type == JR_OBJ && i < sizeof(vars) / sizeof(vars[0]); i++) {
		const struct json_read_val *v = json_read_get(mx, vars[i].key);
		/* An empty list (no MITIGATIONS) is the planner's default: not spelt out. */
		if (!v || names_var(&ws, vars[i].var) || (v->type == JR_ARR && !v->n))
			continue;
		char *val = list_value(v, 1);
		put_var(out, vars[i].var, val);
		free(val);
	}
	if (!names_var(&ws, "PGBENCH"))
		fprintf(out, " PGBENCH=%s", any_pgbench(r) ? "on" : "off");
	words_free(&ws);
	return 0;
}

/* Distinct values of a path over one tool's runs (all with tool NULL),
 * joined with ",". */
static char *list_of(const struct results *r, const char *tool, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		exit(1);
	for (size_t i = 0; i < r->nruns; i++) {
		if (tool && strcmp(json_read_str(r->runs[i].doc, "tool", ""), tool))
			continue;
		const struct json_read_val *v = json_read_path(r->runs[i].doc, path);
		char *one = NULL;
		size_t ol = 0;
		FILE *o = open_memstream(&one, &ol);
		if (!o)
			exit(1);
		put_scalar(o, v);
		fclose(o);
		/* Seen before as a whole item of the list? */
		fflush(out);
		int seen = !*one;
		for (const char *s = buf; !seen && s && *s;) {
			size_t n = strcspn(s, ",");
			seen = n == ol && !strncmp(s, one, n);
			s += n;
			s += *s == ',';
		}
		if (!seen)
			fprintf(out, "%s%s", len ? "," : "", one);
		free(one);
	}
	fclose(out);
	return buf;
}

/* No manifest: the matrix as the documents describe it. */
static void derived_command(const struct results *r, FILE *out)
{
	static const struct { const char *var, *tool, *path; } from[] = {
		{ "KERNEL", NULL, "provenance.kernel_label" },
		{ "MODELS", NULL, "provenance.preempt_model" },
		{ "PAGES", "bufbench", "config.pages" },
		{ "LOCKS", "bufbench", "config.lock" },
		{ "CLIENTS", NULL, "config.clients" },
		{ "DURATION", NULL, "config.duration_s" },
	};
	fputs("make bench", out);
	for (size_t i = 0; i < sizeof(from) / sizeof(from[0]); i++) {
		char *v = list_of(r, from[i].tool, from[i].path);
		put_var(out, from[i].var, v);
		free(v);
	}
	size_t rep = 1;
	for (size_t c = 0; c < r->ncells; c++)
		if (r->cells[c].nruns > rep)
			rep = r->cells[c].nruns;
	fprintf(out, " REPEAT=%zu PGBENCH=%s", rep, any_pgbench(r) ? "on" : "off");
}

char *repro_command(const struct results *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		exit(1);
	const char *m = r->manifest ? json_read_str(r->manifest, "command", NULL) : NULL;
	if (m && *m && manifest_command(r, m, out) == 0) {
		/* the planner's command, requoted */
	} else {
		if (m && *m)
			fprintf(stderr, "report: manifest.json's command is not a make bench line "
					"of the planner's; the reproduce command is made from the "
					"documents instead\n");
		derived_command(r, out);
	}
	fclose(out);
	return buf;
}
