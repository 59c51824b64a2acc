/*
 * perf profiles that belong to cells: RUN/perf/<run name>.folded, written
 * by scripts/profile.sh next to runs/<run name>.json, merged over a cell's
 * repetitions.
 */
#ifndef PREEMPTLAB_PROFILES_H
#define PREEMPTLAB_PROFILES_H

#include "fold.h"
#include "results.h"

struct profile {
	const struct cell *cell;
	struct folded f;
	size_t files;
	char svg[320];      /* flame graph file name relative to RUN, or "" */
};

struct profiles {
	struct profile *p;
	size_t n;
};

void profiles_load(struct profiles *ps, const struct results *r);
void profiles_free(struct profiles *ps);
const struct profile *profile_of(const struct profiles *ps, const struct cell *c);

/* "C3-7.0-lazy-4k-tas-c4": a file-name-safe label of a cell. */
void cell_slug(const struct cell *c, char *buf, size_t len);

#endif
