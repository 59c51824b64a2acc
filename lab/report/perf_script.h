/*
 * Parse the text of `perf script` (perf record -g) into folded stacks:
 * process name as the root frame, then the call chain from the outermost
 * caller to the sampled function, one count per sample.  Kernel frames get
 * the "_[k]" suffix of stackcollapse-perf.pl --kernel, so flame graphs can
 * colour them apart.
 */
#ifndef PREEMPTLAB_PERF_SCRIPT_H
#define PREEMPTLAB_PERF_SCRIPT_H

#include <stdio.h>

#include "fold.h"

struct fold_stats {
	long samples;
	long frames;
	long unknown;    /* frames perf could not symbolize */
};

/* Returns 0, or -1 with a message in err if the input is not perf script
 * output. */
int perf_script_fold(FILE *in, const char *name, struct folded *out, struct fold_stats *st,
		     char *err, size_t errlen);

#endif
