/*
 * What each mitigation is, beyond its name (buffer_pool/vocab.c lists the
 * names): which other dimension it is a value of, how PostgreSQL's pgbench
 * cell gets it, what the report counts as its cost, and whether its point
 * is to take the first-touch fault out of the lock.  One row a mitigation;
 * the planner (what its cells vary, which servers a run needs), bufbench
 * (what --mitigation sets, what it contradicts), the report (cost column,
 * faulting-share sentence), pgsample and pg-run.sh (which names a
 * PostgreSQL run may carry) read the row instead of comparing names
 * (issue 39).
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

/*
 * The dimension a mitigation is a value of: its cell is the base cell with
 * that one value changed, and bufbench refuses a --lock, --pages or
 * --strategy that says otherwise.  SETS_NOTHING: new code of its own
 * (prefault, touch-before-lock).
 */
enum mit_sets { SETS_NOTHING, SETS_LOCK, SETS_PAGES, SETS_STRATEGY };

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
	enum mit_sets sets;
	const char *sets_to;	/* the value it sets; NULL: the item itself
				 * ("partitioned:8" is --strategy partitioned:8) */
	const char *sets_also;	/* a second value the planner tries where it can
				 * be had (hugepages: 1g), an optional cell */
	enum pg_way pg;
	const char *pg_major;	/* PGW_MAJOR */
	const char *pg_absent;	/* PGW_ABSENT: the thing PostgreSQL lacks */
	enum mit_cost cost;
	const char *cost_text;	/* COST_TEXT */
	bool moves_fault;	/* takes the first-touch fault out of the lock */
	const char *not_with_strategy;	/* a STRATEGY it cannot run on, or NULL */
	const char *not_with_why;	/* ... and why, as the planner's refusal says it */
};

/* The value ITEM sets (its row's sets_to, else ITEM itself). */
const char *mitigation_sets_to(const struct mitigation_row *row, const char *item);
/* The row of a MITIGATIONS item ("rseq:20" is rseq's), or NULL. */
const struct mitigation_row *mitigation_row(const char *item);
/* The row at i, or NULL past the last. */
const struct mitigation_row *mitigation_row_at(size_t i);
/* A PostgreSQL run may carry ITEM: a row that is not PGW_ABSENT. */
bool mitigation_in_pg(const char *item);
/* "none, prefault, ..." : the names a PostgreSQL run may carry. */
void mitigation_pg_names(char *buf, size_t len);

#endif
