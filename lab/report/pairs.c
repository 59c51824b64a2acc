/*
 * Pair selection.  A cell alone in its variant group is matched with the
 * cells of its own kernel/model that differ from it in exactly one of page
 * size or lock; a cell with another variant beside it gets only its
 * variant comparison, so a guest matrix reads as before.
 */
#include "pairs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "metrics.h"

static int same_except_pages_lock(const struct cell *a, const struct cell *b)
{
	return !strcmp(a->tool, b->tool) && !strcmp(a->kernel_label, b->kernel_label) &&
	       !strcmp(a->kernel_release, b->kernel_release) && !strcmp(a->model, b->model) &&
	       !strcmp(a->strategy, b->strategy) && !strcmp(a->workload, b->workload) &&
	       !strcmp(a->mitigation, b->mitigation) && a->clients == b->clients;
}

/* No other variant measured the same group. */
static int alone(const struct results *r, const struct cell *c)
{
	for (size_t k = 0; k < r->ncells; k++)
		if (&r->cells[k] != c && !strcmp(r->cells[k].group, c->group))
			return 0;
	return 1;
}

/* Smallest page size with c's lock and everything else equal. */
static const struct cell *pages_base(const struct results *r, const struct cell *c)
{
	const struct cell *best = NULL;
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *x = &r->cells[k];
		if (!same_except_pages_lock(x, c) || strcmp(x->lock, c->lock))
			continue;
		if (!best || x->page_kb < best->page_kb)
			best = x;
	}
	return best;
}

/* The tas cell (else the first lock in order) at c's page size. */
static const struct cell *lock_base(const struct results *r, const struct cell *c)
{
	const struct cell *first = NULL;
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *x = &r->cells[k];
		if (!same_except_pages_lock(x, c) || x->page_kb != c->page_kb)
			continue;
		if (!strcmp(x->lock, "tas"))
			return x;
		if (!first)
			first = x;
	}
	return first;
}

size_t pairs_for(const struct results *r, const char *tool, const char *want,
		 struct pair **out)
{
	struct pair *p = calloc(2 * r->ncells + 1, sizeof(*p));
	size_t n = 0;
	if (!p)
		exit(1);
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		if (strcmp(c->tool, tool))
			continue;
		if (!alone(r, c)) {
			const struct cell *b = baseline_of(r, c, want);
			if (b != c)
				p[n++] = (struct pair){ b, c, AX_VARIANT };
			continue;
		}
		const struct cell *b = pages_base(r, c);
		if (b && b != c)
			p[n++] = (struct pair){ b, c, AX_PAGES };
		b = lock_base(r, c);
		if (b && b != c)
			p[n++] = (struct pair){ b, c, AX_LOCK };
	}
	*out = p;
	return n;
}

int cell_unpaired(const struct cell *c, const struct pair *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i].base == c || p[i].cell == c)
			return 0;
	return 1;
}

void write_cell_tables(FILE *f, const struct results *r, const char *baseline,
		       pair_block_fn block, cell_absolute_fn absolute)
{
	const char *tools[] = { "bufbench", "pgbench" };
	for (int t = 0; t < 2; t++) {
		struct metric *ms;
		struct pair *p;
		size_t nm = metrics_for(r, tools[t], &ms);
		size_t np = pairs_for(r, tools[t], baseline, &p);
		for (size_t k = 0; k < r->ncells; k++) {
			const struct cell *c = &r->cells[k];
			if (strcmp(c->tool, tools[t]))
				continue;
			for (size_t i = 0; i < np; i++)
				if (p[i].cell == c)
					block(f, &p[i], ms, nm);
			if (cell_unpaired(c, p, np))
				absolute(f, c, ms, nm);
		}
		free(p);
		free(ms);
	}
}

const char *side_name(enum axis a, const struct cell *c, char *buf, size_t len)
{
	if (a == AX_PAGES)
		return page_name(c->page_kb, buf, len);
	snprintf(buf, len, "%s", a == AX_LOCK ? c->lock : c->variant);
	return buf;
}

void pair_constant(const struct pair *p, char *buf, size_t len)
{
	const struct cell *c = p->cell;
	char pg[32];
	if (p->axis == AX_VARIANT)
		snprintf(buf, len, "%s", c->group);
	else if (p->axis == AX_PAGES && !strcmp(c->tool, "pgbench"))
		/* PostgreSQL's lock and strategy are its own: nothing to name. */
		snprintf(buf, len, "%s %s, %ld clients, %s", c->tool, c->workload, c->clients,
			 c->variant);
	else if (p->axis == AX_PAGES)
		snprintf(buf, len, "%s %s, %ld clients, %s, lock %s, strategy %s", c->tool,
			 c->workload, c->clients, c->variant, c->lock, c->strategy);
	else
		snprintf(buf, len, "%s %s, %ld clients, %s, %s pages, strategy %s", c->tool,
			 c->workload, c->clients, c->variant,
			 page_name(c->page_kb, pg, sizeof(pg)), c->strategy);
}

const char *axis_name(enum axis a)
{
	return a == AX_PAGES ? "page size" : a == AX_LOCK ? "lock" : "kernel/model";
}
