/*
 * What each mitigation is, beyond its name (buffer_pool/vocab.c lists the
 * names): how PostgreSQL's pgbench cell gets it, what the report counts
 * as its cost, and whether its point is to take the first-touch fault out
 * of the lock.  One row a mitigation; the planner (which servers a run
 * needs), the report (cost column, faulting-share sentence), pgsample and
 * pg-run.sh (which names a PostgreSQL run may carry) read the row instead
 * of comparing names (issue 39).
 */
#ifndef PREEMPTLAB_MITIGATION_ROWS_H
#define PREEMPTLAB_MITIGATION_ROWS_H

#include <stdbool.h>
#include <stddef.h>

/* How PostgreSQL's cell of the mitigation runs. */
enum pg_way {
	PGW_BASELINE,	/* the comparison's own server (PG_VERSION's, or the lab's
			 * unpatched build beside patched ones) */
	PGW_PATCH,	/* the lab's build with pg/patches/MAJOR/NAME.patch */
	PGW_HUGE_PAGES,	/* the baseline server with huge_pages=on */
	PGW_MAJOR,	/* another major's server (pg_major) */
	PGW_ABSENT,	/* PostgreSQL has no such thing (pg_absent says what) */
};

/* The report's cost column for bufbench's cell. */
enum mit_cost {
	COST_NOTHING,		/* the baseline */
	COST_PREFAULT,		/* results.prefault: ms and page-table bytes a backend */
	COST_RSEQ_GRANTS,	/* locks.strategy.rseq_grants a run */
	COST_SEGMENT,		/* config.segment_bytes reserved */
	COST_TEXT,		/* cost_text, a fixed description */
	COST_LOCKS,		/* its parameter's count of locks, in code */
};

struct mitigation_row {
	const char *name;	/* as MITIGATIONS spells it, without ":N" */
	enum pg_way pg;
	const char *pg_major;	/* PGW_MAJOR */
	const char *pg_absent;	/* PGW_ABSENT: the thing PostgreSQL lacks */
	enum mit_cost cost;
	const char *cost_text;	/* COST_TEXT */
	bool moves_fault;	/* takes the first-touch fault out of the lock */
	const char *not_with_strategy;	/* a STRATEGY it cannot run on, or NULL */
	const char *not_with_why;	/* ... and why, as the planner's refusal says it */
};

/* The row of a MITIGATIONS item ("rseq:20" is rseq's), or NULL. */
const struct mitigation_row *mitigation_row(const char *item);
/* The row at i, or NULL past the last. */
const struct mitigation_row *mitigation_row_at(size_t i);
/* A PostgreSQL run may carry ITEM: a row that is not PGW_ABSENT. */
bool mitigation_in_pg(const char *item);
/* "none, prefault, ..." : the names a PostgreSQL run may carry. */
void mitigation_pg_names(char *buf, size_t len);

#endif
