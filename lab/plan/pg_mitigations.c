/*
 * MITIGATIONS for real PostgreSQL: which server and huge_pages setting the
 * pgbench cell of each mitigation runs (docs/mitigations.md).
 *
 *   none               PG_VERSION's server; the lab's unpatched build of
 *                      Debian's source when a patched cell is planned too,
 *                      so that the patch is all that differs between them
 *   prefault           the lab's build with pg/patches/MAJOR/prefault.patch
 *   touch-before-lock  the same with touch-before-lock.patch
 *   hugepages          none's server with huge_pages=on
 *   pg19               Debian's PostgreSQL 19 (experimental), no freelist
 *   rseq:N, partitioned:N   no pgbench cell: neither exists in PostgreSQL
 *
 * A mitigation that cannot run here is left out with a note naming why
 * (a source the archive does not serve, a major missing from pg/majors).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mitigation_rows.h"
#include "plan.h"

static void add(struct plan *p, const char *name, const char *major, const char *build,
		const char *hp)
{
	struct pg_mit *m = &p->pg_mits[p->npg_mits++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->major, sizeof(m->major), "%s", major);
	snprintf(m->build, sizeof(m->build), "%s", build);
	snprintf(m->huge_pages, sizeof(m->huge_pages), "%s", hp);
}

/* pg/patches/MAJOR/NAME.patch exists. */
static bool has_patch(const char *top, const char *major, const char *name)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/pg/patches/%s/%s.patch", top, major, name);
	return access(path, R_OK) == 0;
}

/* pg/majors has MAJOR (the fetched binaries' catalog). */
static bool in_majors(const char *top, const char *major)
{
	char path[4200], line[256], m[8];
	snprintf(path, sizeof(path), "%s/pg/majors", top);
	FILE *f = fopen(path, "r");
	bool found = false;
	while (f && !found && fgets(line, sizeof(line), f))
		found = line[0] != '#' && sscanf(line, "%7s", m) == 1 && !strcmp(m, major);
	if (f)
		fclose(f);
	return found;
}

/* An item before the i-th of the list has the same row (rseq:5 and rseq:20). */
static bool row_seen(const struct list *l, int i, const struct mitigation_row *row)
{
	for (int j = 0; j < i; j++)
		if (mitigation_row(l->item[j]) == row)
			return true;
	return false;
}

void pg_mitigation_settings(struct plan *p, const char *top)
{
	p->npg_mits = 0;
	if (!p->pgbench || !p->mitigations.n)
		return;
	const char *src = pg_source_major(p);
	char why[512], names[256];
	bool patched = *mitigations_patched(&p->mitigations, names, sizeof(names));
	bool buildable = pg_source_ok(top, src, why, sizeof(why));
	if (patched && !buildable)
		plan_note("MITIGATIONS: no pgbench cell for %s: %s (pg/sources); PG_VERSION=18 or 15 "
			  "builds them", names, why);
	/* none and hugepages run the unpatched build beside patched ones. */
	const char *base = patched && buildable ? "none" : "debian";
	if (!strcmp(base, "none"))
		plan_note("MITIGATIONS: pgbench's none and hugepages run the lab's unpatched build of "
			  "PostgreSQL %s, beside its prefault and touch-before-lock builds: same source, "
			  "compiler and flags, so the patch is the only difference", src);
	for (int i = 0; i < p->mitigations.n; i++) {
		const char *it = p->mitigations.item[i];
		const struct mitigation_row *row = mitigation_row(it);
		if (!row)
			continue;	/* the vocabulary refused it before */
		switch (row->pg) {
		case PGW_BASELINE:
			add(p, it, p->pg_version, base, "off");
			break;
		case PGW_HUGE_PAGES:
			add(p, it, p->pg_version, base, "on");
			break;
		case PGW_MAJOR:
			if (!strcmp(p->pg_version, row->pg_major))
				plan_note("MITIGATIONS: %s's pgbench cell is none's (PG_VERSION=%s)", it,
					  row->pg_major);
			else if (!in_majors(top, row->pg_major))
				plan_note("MITIGATIONS: no pgbench cell for %s: PostgreSQL %s is not in "
					  "pg/majors (Debian's experimental)", it, row->pg_major);
			else
				add(p, it, row->pg_major, "debian", "off");
			break;
		case PGW_ABSENT:
			/* Said once for the row, not once per N. */
			if (!row_seen(&p->mitigations, i, row))
				plan_note("MITIGATIONS: %s has no pgbench cell: it is bufbench's, there is "
					  "no such %s in PostgreSQL", it, row->pg_absent);
			break;
		case PGW_PATCH:
			if (buildable && has_patch(top, src, it))
				add(p, it, p->pg_version, it, "off");
			else if (buildable)
				plan_note("MITIGATIONS: no pgbench cell for %s: the lab has no "
					  "pg/patches/%s/%s.patch for PostgreSQL %s", it, src, it, src);
			break;
		}
	}
}
