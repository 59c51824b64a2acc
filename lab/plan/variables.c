/*
 * The variable table (variables.h): lab/common/variables.def's rows, and
 * what the planner does with every row alike: take the user's value, the
 * scenario's or the default, check it by its kind and store it in its
 * field; and docs/variables.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scenario.h"
#include "variables.h"
#include "lab_vocab.h"

#define VAR(n, ...) { .name = #n, __VA_ARGS__ },
const struct variable variables[] = {
#include "variables.def"
	{ .name = NULL },
};
#undef VAR

_Static_assert(sizeof(variables) / sizeof(variables[0]) <= PLAN_VARS_MAX,
	       "struct plan's knob_value[] has a slot for every row");

long knob_value(const struct plan *p, const struct variable *r)
{
	return r->len ? *(const long *)((const char *)p + r->off) : p->knob_value[r - variables];
}

const char *var_or(const char *name, const char *def)
{
	const char *v = var_get(name);
	if (!v)
		v = scenario_default(name);
	return v ? v : def;
}

long var_count(const char *name, const char *def)
{
	const struct variable *r = variables;
	while (r->name && strcmp(r->name, name))
		r++;
	const char *v = var_get(name);
	return parse_count(name, v ? v : def, r->min, r->max);
}

/* Every item of l must be a value of vocabulary v. */
void check_list(const struct list *l, const struct vocab *v, const char *var)
{
	char choices[512];
	for (int i = 0; i < l->n; i++)
		if (!vocab_find(v, l->item[i], NULL))
			plan_die("%s: '%s' is not a %s value; use %s", var, l->item[i], v->key,
				 vocab_choices(v, choices, sizeof(choices)));
}

void check_one(const char *val, const struct vocab *v, const char *var)
{
	char choices[512];
	if (!vocab_find(v, val, NULL))
		plan_die("%s=%s: use %s", var, val, vocab_choices(v, choices, sizeof(choices)));
}

bool on_off_value(const char *var, const char *v)
{
	if (!strcmp(v, "on") || !strcmp(v, "1") || !strcmp(v, "yes"))
		return true;
	if (!strcmp(v, "off") || !strcmp(v, "0") || !strcmp(v, "no") || !*v)
		return false;
	plan_die("%s=%s: use on or off", var, v);
}

/* Value V of row R into its field, checked by its kind. */
static void store(struct plan *p, const struct variable *r, const char *v)
{
	char *field = (char *)p + r->off;
	struct list *l = (struct list *)field;
	switch (r->kind) {
	case V_COUNT:
		if (!r->len && r->knob) {
			/* A knob with no field of its own. */
			p->knob_value[r - variables] = parse_count(r->name, v, r->min, r->max);
		} else if (r->flags & V_KEEP_TEXT) {
			snprintf(field, r->len, "%s", v);
			parse_count(r->name, field, r->min, r->max);
		} else {
			*(long *)field = parse_count(r->name, v, r->min, r->max);
		}
		break;
	case V_SIZE:
		/* Checked as stored: a value past the field is refused as cut. */
		snprintf(field, r->len, "%s", v);
		uint64_t bytes = parse_size(r->name, field);
		if (r->bytes)
			*(uint64_t *)((char *)p + r->bytes) = bytes;
		break;
	case V_ON_OFF:
		*(bool *)field = on_off_value(r->name, v);
		break;
	case V_WORD:
	case V_TEXT:
		snprintf(field, r->len, "%s", v);
		if (r->vocab)
			check_one(field, r->vocab, r->name);
		break;
	case V_LIST:
		list_split(l, r->name, v);
		if (r->flags & V_CANONICAL)
			list_canonical(l, r->vocab, r->name);
		else if (r->vocab)
			check_list(l, r->vocab, r->name);
		else
			for (int i = 0; i < l->n; i++)
				parse_count(r->name, l->item[i], r->min, r->max);
		break;
	}
}

static void take(struct plan *p, const struct variable *r, const char *top)
{
	bool host = strcmp(p->kernel.source, "host") == 0;
	char buf[64];
	const char *asked = var_or(r->name, NULL);
	if (r->scope == V_GUEST_KNOB && host && asked && *asked)
		plan_die("%s=%s: set in a guest only (KERNEL=6.12, 7.0, 7.2-lab, ...); the host's kernel "
			 "is shared with whoever else runs here", r->name, asked);
	if (r->parse) {
		r->parse(p, top);
	} else if (r->len || r->knob) {
		const char *def = host ? r->host_def : r->guest_def;
		if (r->def) {
			r->def(p, buf, sizeof(buf));
			def = buf;
		}
		const char *v = var_or(r->name, def);
		if (v && (*v || !(r->flags & V_EMPTY_OK)))
			store(p, r, v);
	}
	if (r->after)
		r->after(p);
}

void vars_stage(struct plan *p, enum var_stage stage, const char *top)
{
	for (const struct variable *r = variables; r->name; r++)
		if (r->stage == stage)
			take(p, r, top);
}

static const char *const kind_name[] = {
	[V_COUNT] = "count", [V_SIZE] = "size", [V_LIST] = "list",
	[V_ON_OFF] = "on/off", [V_WORD] = "word", [V_TEXT] = "text",
};
static const char *const scope_name[] = {
	[V_ANYWHERE] = "host, guest", [V_GUEST_ONLY] = "guest (the host ignores it)",
	[V_GUEST_QUIET] = "guest", [V_GUEST_KNOB] = "guest (refused on the host)",
};

static void md_default(FILE *f, const struct variable *r)
{
	const char *h = r->host_def, *g = r->guest_def;
	if (r->def_doc)
		fputs(r->def_doc, f);
	else if (h && g && strcmp(h, g))
		fprintf(f, "host: `%s`; guest: `%s`", h, g);
	else if ((h || g) && *(h ? h : g))
		fprintf(f, "`%s`", h ? h : g);
	else if (h || g)
		fputs("empty", f);
	else
		fputs("unset", f);
}

static void md_values(FILE *f, const struct variable *r)
{
	if (r->vocab)
		fprintf(f, "%s of [%s](vocabulary.md#%s)", r->kind == V_LIST ? "items" : "one",
			r->vocab->key, r->vocab->key);
	else if (r->values)
		fputs(r->values, f);
	else if (r->kind == V_COUNT || (r->kind == V_LIST && r->max))
		fprintf(f, "%s%ld..%ld", r->kind == V_LIST ? "items " : "", r->min, r->max);
	else if (r->kind == V_SIZE)
		fputs("a size: 128M, 2G", f);
	else if (r->kind == V_ON_OFF)
		fputs("on, off", f);
	if (r->flags & V_EMPTY_OK)
		fputs("; empty: unset", f);
}

void variables_write_md(FILE *f)
{
	fputs("# Variables\n\nEvery variable `make bench` takes, as the planner reads it. "
	      "Generated by\n`build/plan --variables-md` from `lab/common/variables.def`;\n"
	      "`tests/e2e/plan.sh` fails when this file differs. The values of a\n"
	      "vocabulary are in [vocabulary.md](vocabulary.md). A user's value wins over\n"
	      "the scenario's ([scenarios.md](scenarios.md)), which wins over the default.\n\n"
	      "| variable | kind | default | values | scope | meaning | read by | docs |\n"
	      "|---|---|---|---|---|---|---|---|\n", f);
	for (const struct variable *r = variables; r->name; r++) {
		fprintf(f, "| `%s` | %s | ", r->name, kind_name[r->kind]);
		md_default(f, r);
		fputs(" | ", f);
		md_values(f, r);
		fprintf(f, " | %s | %s | %s | [%s](%s) |\n", scope_name[r->scope], r->help,
			r->stage == V_CODE || r->parse ? r->where ? r->where : "settings.c" : "the table (variables.c)",
			r->doc + strlen("docs/"), r->doc + strlen("docs/"));
	}
}
