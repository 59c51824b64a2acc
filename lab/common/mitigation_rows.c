#include "mitigation_rows.h"

#include <stdio.h>
#include <string.h>

static const struct mitigation_row rows[] = {
	{ "none", PGW_BASELINE, NULL, NULL, COST_NOTHING, NULL, false },
	/* pg/patches/MAJOR/prefault.patch: MADV_POPULATE_READ after fork. */
	{ "prefault", PGW_PATCH, NULL, NULL, COST_PREFAULT, NULL, true },
	{ "touch-before-lock", PGW_PATCH, NULL, NULL, COST_TEXT, "1 read per pop", true },
	{ "rseq", PGW_ABSENT, NULL, "rseq-guarded s_lock", COST_RSEQ_GRANTS, NULL, false },
	{ "hugepages", PGW_HUGE_PAGES, NULL, NULL, COST_SEGMENT, NULL, false },
	/* PostgreSQL 19 has no freelist: the lock only on the hand's wrap. */
	{ "pg19", PGW_MAJOR, "19", NULL, COST_TEXT, "PG 19's code", false },
	{ "partitioned", PGW_ABSENT, NULL, "partitioned strategy lock", COST_LOCKS, NULL, false },
};

const struct mitigation_row *mitigation_row_at(size_t i)
{
	return i < sizeof(rows) / sizeof(rows[0]) ? &rows[i] : NULL;
}

const struct mitigation_row *mitigation_row(const char *item)
{
	size_t n = strcspn(item, ":");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strlen(rows[i].name) == n && !strncmp(rows[i].name, item, n))
			return &rows[i];
	return NULL;
}

bool mitigation_in_pg(const char *item)
{
	const struct mitigation_row *r = mitigation_row(item);
	return r && r->pg != PGW_ABSENT && !strchr(item, ':');
}

void mitigation_pg_names(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]) && used < len; i++)
		if (rows[i].pg != PGW_ABSENT)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 rows[i].name);
}
