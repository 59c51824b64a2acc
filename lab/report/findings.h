/*
 * The sentences a reader sees first: the largest significant throughput
 * change per tool, the same comparison on the largest page size (does
 * huge_pages make it go away?), caveats of the environment, and where a good
 * and a bad kernel are known, a suggested regzbot line.  A run of a single
 * kernel/model gets its page-size (against 4 KB) and lock (against tas)
 * comparisons instead, with the fault and spin numbers that explain them.
 */
#ifndef PREEMPTLAB_FINDINGS_H
#define PREEMPTLAB_FINDINGS_H

#include "compare.h"
#include "results.h"

struct findings {
	char preamble[1024];   /* what the run's page sizes mean, read first; may be "" */
	char headline[4096];   /* one to three sentences per tool */
	char caveats[2048];    /* emulation, spread and the like; may be "" */
	char regzbot[64];      /* e.g. "7dadeaa6e851" or "v6.12..v7.0"; "" */
	char regzbot_why[2048]; /* names the comparison in Results it rests on */
	/* The comparison behind the first headline, for the differential
	 * flame graph; NULL when there is nothing to compare. */
	const struct cell *base, *worst;
};

void find_headline(const struct results *r, const char *baseline,
		   struct findings *fd);

#endif
