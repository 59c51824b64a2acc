#include "mitigation_rows.h"

#include <stdio.h>
#include <string.h>

/* Designated fields: a column a row does not name is NULL, false or 0. */
static const struct mitigation_row rows[] = {
	{ .name = "none", .pg = PGW_BASELINE, .cost = COST_NOTHING },
	/* pg/patches/MAJOR/prefault.patch: MADV_POPULATE_READ after fork. */
	{ .name = "prefault", .pg = PGW_PATCH, .cost = COST_PREFAULT, .moves_fault = true },
	{ .name = "touch-before-lock", .pg = PGW_PATCH, .cost = COST_TEXT, .cost_text = "1 read per pop",
	  .moves_fault = true, .not_with_strategy = "pg19",
	  .not_with_why = "touches the freelist, and STRATEGY=pg19 has none" },
	{ .name = "rseq", .sets = SETS_LOCK, .sets_to = "rseq",
	  .pg = PGW_ABSENT, .pg_absent = "rseq-guarded s_lock", .cost = COST_RSEQ_GRANTS },
	{ .name = "hugepages", .sets = SETS_PAGES, .sets_to = "2m", .sets_also = "1g",
	  .pg = PGW_HUGE_PAGES, .cost = COST_SEGMENT },
	/* PostgreSQL 19 has no freelist: the lock only on the hand's wrap. */
	{ .name = "pg19", .sets = SETS_STRATEGY,
	  .pg = PGW_MAJOR, .pg_major = "19", .cost = COST_TEXT, .cost_text = "PG 19's code" },
	{ .name = "partitioned", .sets = SETS_STRATEGY,
	  .pg = PGW_ABSENT, .pg_absent = "partitioned strategy lock", .cost = COST_LOCKS },
};

const struct mitigation_row *mitigation_row_at(size_t i)
{
	return i < sizeof(rows) / sizeof(rows[0]) ? &rows[i] : NULL;
}

const char *mitigation_sets_to(const struct mitigation_row *row, const char *item)
{
	return row->sets_to ? row->sets_to : item;
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
