/*
 * Folded stacks ("root;caller;leaf count" per line, Brendan Gregg's format,
 * also what inferno and speedscope read): the exchange format between the
 * stack folder, the flame graph renderer and the report's top-symbols
 * table.
 */
#ifndef PREEMPTLAB_FOLD_H
#define PREEMPTLAB_FOLD_H

#include <stddef.h>
#include <stdio.h>

struct fold_entry {
	char *stack;
	double count;
};

struct folded {
	struct fold_entry *e;
	size_t n, cap;
	size_t *slot;    /* open-addressing hash: index + 1, 0 = empty */
	size_t nslot;
	double total;
};

void fold_init(struct folded *f);
void fold_free(struct folded *f);
/* Add count to stack (equal stacks merge). */
void fold_add(struct folded *f, const char *stack, double count);
/* Read folded lines; -1 with "name:line: what" in err on a bad line. */
int fold_read(struct folded *f, FILE *in, const char *name, char *err, size_t errlen);
int fold_read_file(struct folded *f, const char *path, char *err, size_t errlen);
/* Sort entries by stack so output and layout are deterministic. */
void fold_sort(struct folded *f);
void fold_write(const struct folded *f, FILE *out);

struct symstat {
	char *name;
	double self;    /* samples with this frame as leaf */
	double total;   /* samples with this frame anywhere on the stack */
};

/* Per-symbol counts, sorted: spin-loop symbols first, then by self. */
size_t fold_symbols(const struct folded *f, struct symstat **out);
void fold_symbols_free(struct symstat *s, size_t n);

/* Is this frame the user-space lock's spin loop (s_lock, the lab's loops)? */
int sym_is_spin(const char *name);

#endif
