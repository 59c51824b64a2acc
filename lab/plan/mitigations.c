/*
 * MITIGATIONS: the mitigations as one dimension of the matrix (issue 26,
 * docs/mitigations.md).  Each is measured against none on the same kernel,
 * model, workload and client count, so a cell varies its mitigation and
 * whatever the mitigation is made of (its page size, lock or strategy),
 * from one base: the one PAGES, LOCKS and STRATEGY value given (4k, tas,
 * pg by default).  Which of them a mitigation changes, and to what, is its
 * row's (lab/common/mitigation_rows.c): hugepages is 2 MB, and 1 GB where
 * it can be had.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mitigation.h"
#include "mitigation_rows.h"
#include "plan.h"
#include "scenario.h"
#include "vocab.h"

static void add(struct list *l, const char *item)
{
	if (!list_has(l, item) && l->n < PLAN_MAX_LIST)
		snprintf(l->item[l->n++], PLAN_NAME, "%s", item);
}

/* The plan's list of the dimension a row sets (not SETS_NOTHING). */
#define SETS_LIST(p, s) ((s) == SETS_LOCK ? &(p)->locks : (s) == SETS_PAGES ? &(p)->pages : &(p)->strategies)

static void variant_set(struct mit_variant *v, enum mit_sets s, const char *value)
{
	if (s == SETS_LOCK)
		snprintf(v->lock, sizeof(v->lock), "%s", value);
	else if (s == SETS_PAGES)
		snprintf(v->pages, sizeof(v->pages), "%s", value);
	else
		snprintf(v->strategy, sizeof(v->strategy), "%s", value);
}

bool kernel_built(const char *top, const char *series)
{
	char pat[4096];
	const char *cache = getenv("PREEMPTLAB_CACHE");
	glob_t g;
	if (cache && *cache)
		snprintf(pat, sizeof(pat), "%s/build/%s/*/bzImage", cache, series);
	else
		snprintf(pat, sizeof(pat), "%s/kernels/cache/build/%s/*/bzImage", top, series);
	bool found = glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0;
	globfree(&g);
	return found;
}

void mitigation_settings(struct plan *p, const char *value)
{
	char choices[512];
	p->mitigations.n = 0;
	if (!value || !value[strspn(value, " \t")])
		return;
	list_split(&p->mitigations, "MITIGATIONS", value);
	for (int i = 0; i < p->mitigations.n; i++)
		if (!vocab_find(&vocab_mitigations, p->mitigations.item[i], NULL))
			plan_die("MITIGATIONS: '%s' is not a mitigation; use %s", p->mitigations.item[i],
				 vocab_choices(&vocab_mitigations, choices, sizeof(choices)));
	list_canonical(&p->mitigations, &vocab_mitigations, "MITIGATIONS");
	for (int i = 0; i < p->mitigations.n; i++) {
		struct mitigation m;
		const char *it = p->mitigations.item[i];
		mitigation_parse(it, &m);
		/* The architecture table says which guests lack the extension. */
		if (m.kind == MIT_RSEQ && p->garch->no_rseq_slice &&
		    strcmp(p->kernel.source, "host") != 0)
			plan_die("MITIGATIONS: %s: no %s guest kernel has the rseq slice extension "
				 "(%s); leave rseq out on ARCH=%s", it, p->arch,
				 p->garch->no_rseq_slice, p->arch);
	}
	if (!list_has(&p->mitigations, "none"))
		plan_die("MITIGATIONS=%s: every mitigation is measured against none; add none", value);
	/* hugepages is the page-size fix: the base is 4 KB unless a page size was asked. */
	if (!p->pages_given && !var_get("HUGEPAGES")) {
		p->pages.n = 1;
		snprintf(p->pages.item[0], PLAN_NAME, "4k");
	}
	if (p->pages.n != 1 || p->locks.n != 1 || p->strategies.n != 1)
		plan_die("MITIGATIONS varies the page size, lock and strategy itself, from one base: "
			 "give one PAGES (or HUGEPAGES=off), one LOCKS and one STRATEGY value");
	for (int i = 0; i < p->mitigations.n; i++) {
		const struct mitigation_row *row = mitigation_row(p->mitigations.item[i]);
		if (row && row->not_with_strategy && !strcmp(p->strategies.item[0], row->not_with_strategy))
			plan_die("MITIGATIONS: %s %s", row->name, row->not_with_why);
	}
	if (p->slice_ext_us)
		plan_note("SLICE_EXT_US=%ld: each rseq:N cell sets its own grant length", p->slice_ext_us);
	snprintf(p->mit_pages, sizeof(p->mit_pages), "%.15s", p->pages.item[0]);
	snprintf(p->mit_lock, sizeof(p->mit_lock), "%.15s", p->locks.item[0]);
	snprintf(p->mit_strategy, sizeof(p->mit_strategy), "%.31s", p->strategies.item[0]);
	/*
	 * The lists then hold every value a cell will run with: sizing
	 * reserves huge pages and sizes the segment from them, and drops 1g
	 * where the guest cannot have it (mitigation_variants follows).
	 */
	for (int i = 0; i < p->mitigations.n; i++) {
		const char *it = p->mitigations.item[i];
		const struct mitigation_row *row = mitigation_row(it);
		if (!row || row->sets == SETS_NOTHING)
			continue;
		add(SETS_LIST(p, row->sets), mitigation_sets_to(row, it));
		if (row->sets_also)
			add(SETS_LIST(p, row->sets), row->sets_also);
	}
}

bool mitigation_sets_pages(const struct plan *p)
{
	for (int i = 0; i < p->mitigations.n; i++) {
		const struct mitigation_row *row = mitigation_row(p->mitigations.item[i]);
		if (row && row->sets == SETS_PAGES)
			return true;
	}
	return false;
}

int mitigation_variants(const struct plan *p, const struct unit *u, const char *name,
			struct mit_variant v[2])
{
	const struct mitigation_row *row = mitigation_row(name);
	memset(v, 0, 2 * sizeof(*v));
	snprintf(v[0].pages, sizeof(v[0].pages), "%s", p->mit_pages);
	snprintf(v[0].lock, sizeof(v[0].lock), "%s", p->mit_lock);
	snprintf(v[0].strategy, sizeof(v[0].strategy), "%s", p->mit_strategy);
	if (!row || row->sets == SETS_NOTHING)
		return 1;
	variant_set(&v[0], row->sets, mitigation_sets_to(row, name));
	/* A host may have no huge pages to give; a guest reserves its own. */
	v[0].optional = row->sets == SETS_PAGES && strcmp(u->kind, "host") == 0;
	/* sizing dropped the second value where it cannot be had. */
	if (!row->sets_also || !list_has(SETS_LIST(p, row->sets), row->sets_also))
		return 1;
	v[1] = v[0];
	variant_set(&v[1], row->sets, row->sets_also);
	v[1].optional = true;
	return 2;
}
