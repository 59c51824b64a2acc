/*
 * The lab's vocabulary: every value a dimension of the experiment can take,
 * with a one-line description, defined once.  bufbench parses its options
 * with it, the planner validates make variables with it, the report orders
 * and names cells with it, and docs/vocabulary.md is generated from it
 * (a test keeps the two equal).  Adding a value here is the whole of
 * teaching the lab a new page size, lock or model; the code that gives the
 * value its meaning is the only other change.
 */
#ifndef PREEMPTLAB_VOCAB_H
#define PREEMPTLAB_VOCAB_H

#include <stddef.h>
#include <stdio.h>

/* Dimensions the library does not implement itself keep their codes here
 * (the lab's own vocabularies are lab/common/lab_vocab.h's). */
enum workload { WL_SELECT_ONLY, WL_SIMPLE_UPDATE };
enum preempt_model { MODEL_NONE, MODEL_VOLUNTARY, MODEL_FULL, MODEL_LAZY, MODEL_CURRENT };

struct vocab_item {
	const char *name;	/* as typed: "2m", "partitioned:N" */
	int code;		/* the enum value in the code that implements it */
	const char *desc;	/* one line, for --help and docs */
};

struct vocab {
	const char *key;	/* "pages" */
	const char *make_var;	/* "PAGES", or NULL when make does not take it */
	const char *option;	/* "--pages", or NULL when bufbench does not */
	const char *desc;
	const struct vocab_item *items;
	size_t n;
};

extern const struct vocab vocab_pages, vocab_hugepages, vocab_models, vocab_locks,
	vocab_strategies, vocab_mitigations, vocab_workloads;

/*
 * The item named s, or NULL.  An item whose name ends in ":N" takes a
 * positive integer there; *param receives it (1 when there is none).
 */
const struct vocab_item *vocab_find(const struct vocab *v, const char *s, long *param);
/* Index of the item named s (its sort rank), or -1. */
int vocab_rank(const struct vocab *v, const char *s);
/* NULL when S's N (rseq:N, partitioned:N) is within its range, or S has
 * none; else why not, worded alike for every such item ("rseq:N takes
 * 5..50 us (the kernel's bounds)"). */
const char *vocab_range_error(const struct vocab *v, const char *s);
/* S's canonical spelling into OUT (rseq:05 is rseq:5, so that both name
 * one cell); -1 when S is no item of V. */
int vocab_canonical(const struct vocab *v, const char *s, char *out, size_t len);
/* The name of the item with this code, or "?". */
const char *vocab_name(const struct vocab *v, int code);
/* "4k, thp, 2m, 1g, try-2m or try-1g" into buf. */
const char *vocab_choices(const struct vocab *v, char *buf, size_t len);
/* The vocabulary as a markdown table (docs/vocabulary.md). */
void vocab_write_md(FILE *f, const struct vocab *v);
/* --help lines: "  NAME  description" for each item, indented by indent. */
void vocab_write_help(FILE *f, const struct vocab *v, int indent);

#endif
