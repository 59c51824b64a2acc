/*
 * PG_VERSION: which PostgreSQL the pgbench cells run.  A major is one of
 * pg/majors (the suites of Debian's archive that offer it; the runner
 * fetches it with scripts/pg-fetch.sh into a private root, never into the
 * host's), or `system`, the host's own Debian 12 PostgreSQL 15 in
 * /usr/lib/postgresql/15.  Read here from the catalog file only: the
 * planner fetches nothing.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mitigation_rows.h"
#include "plan.h"

/* The catalog's "major suite" lines (pg_catalog_read); returns how many. */
static int read_majors(const char *top, char major[][8], char suite[][32], int max)
{
	char path[4200];
	struct pg_row r[16];
	snprintf(path, sizeof(path), "%s/pg/majors", top);
	int n = pg_catalog_read(path, r, max < 16 ? max : 16);
	for (int i = 0; i < n; i++) {
		memcpy(major[i], r[i].major, sizeof(r[i].major));
		memcpy(suite[i], r[i].suite, sizeof(r[i].suite));
	}
	return n;
}

static void available(char major[][8], char suite[][32], int n, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s (%s)", i ? ", " : "", major[i],
					suite[i]);
}

void pg_version_settings(struct plan *p, const char *top, const char *asked)
{
	char major[16][8], suite[16][32], known[512];
	int n = read_majors(top, major, suite, 16);
	available(major, suite, n, known, sizeof(known));
	bool host = strcmp(p->kernel.source, "host") == 0;
	/* The report ran 17: the host takes it where the catalog has it.  A
	 * guest keeps the host's 15 unless asked (docs/postgres-versions.md:
	 * its initramfs would carry a second libc and 50 MB more, read by
	 * every boot under emulation, and the guest results so far are 15's). */
	const char *def = "system";
	if (host && p->garch->host_userland)
		for (int i = 0; i < n; i++)
			if (!strcmp(major[i], "17"))
				def = "17";
	/*
	 * The mitigations' patched servers are built from Debian's source: where
	 * 17's cannot be had, the freelist's last major whose can (18, then 15)
	 * runs instead, and the plan says why.
	 */
	char why[512], names[256];
	bool patched = *mitigations_patched(&p->mitigations, names, sizeof(names));
	if (!asked && host && patched && !strcmp(def, "17") && !pg_source_ok(top, "17", why, sizeof(why))) {
		for (int i = n - 1; i >= 0; i--) {
			char w2[512];
			if (atoi(major[i]) <= 18 && pg_source_ok(top, major[i], w2, sizeof(w2))) {
				def = major[i];
				plan_note("PG_VERSION=%s: the patched PostgreSQL of MITIGATIONS is built from "
					  "Debian's source, and %s; PG_VERSION=17 runs 17 without the patched cells",
					  major[i], why);
				break;
			}
		}
	}
	const char *v = asked ? asked : def;
	if (!strcmp(v, "system")) {
		snprintf(p->pg_version, sizeof(p->pg_version), "system");
		snprintf(p->pg_suite, sizeof(p->pg_suite), "host");
		return;
	}
	int found = -1;
	for (int i = 0; i < n; i++)
		if (!strcmp(major[i], v))
			found = i;
	if (found < 0)
		plan_die("PG_VERSION=%s: PostgreSQL %s is not in Debian's archive (pg/majors, "
			 "surveyed over bookworm, trixie, sid, experimental and their backports); "
			 "available: %s, or system (the host's /usr/lib/postgresql/15)", v, v,
			 n ? known : "none (no pg/majors)");
	/* The fetched roots are the host userland architecture's packages
	 * (scripts/pg-fetch.sh); another one runs Debian 12's 15 of its own
	 * (pg-guest-root.sh). */
	if (!p->garch->host_userland)
		plan_die("PG_VERSION=%s: ARCH=%s runs Debian 12's %s PostgreSQL 15 only; "
			 "PG_VERSION=system there", v, p->arch, p->arch);
	snprintf(p->pg_version, sizeof(p->pg_version), "%s", major[found]);
	snprintf(p->pg_suite, sizeof(p->pg_suite), "%s", suite[found]);
}

/*
 * pg/sources: "major suite status" (status ok, or why this archive cannot
 * give Debian's source package).  True when MAJOR's source can be built;
 * otherwise why names the reason.
 */
bool pg_source_ok(const char *top, const char *major, char *why, size_t len)
{
	char path[4200];
	struct pg_row r[32];
	snprintf(path, sizeof(path), "%s/pg/sources", top);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(why, len, "no pg/sources");
		return false;
	}
	fclose(f);
	int n = pg_catalog_read(path, r, 32);
	for (int i = 0; i < n; i++) {
		if (strcmp(r[i].major, major) || !r[i].status[0])
			continue;
		if (!strcmp(r[i].status, "ok"))
			return true;
		snprintf(why, len, "Debian's source of PostgreSQL %s (%s) cannot be fetched here: %s",
			 major, r[i].suite, r[i].status);
		return false;
	}
	snprintf(why, len, "PostgreSQL %s has no line in pg/sources", major);
	return false;
}

/* The server the source builds are of: a major, or system's 15. */
const char *pg_source_major(const struct plan *p)
{
	return strcmp(p->pg_version, "system") == 0 ? "15" : p->pg_version;
}

/* The list's mitigations built from a pg/patches patch (their rows' PGW_PATCH),
 * as "prefault or touch-before-lock"; "" when none is. */
const char *mitigations_patched(const struct list *l, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < l->n && used < len; i++) {
		const struct mitigation_row *row = mitigation_row(l->item[i]);
		if (row && row->pg == PGW_PATCH)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " or " : "",
						 l->item[i]);
	}
	return buf;
}
