/*
 * Every file build/report writes (report.txt, summary.txt, report.md, the
 * charts and flame graphs) is written to a new temporary file in the same
 * directory and renamed over its name.  fopen(name, "w") followed a
 * symlink planted at report.txt and overwrote its target; rename()
 * replaces the link itself, and a reader never sees half a report.
 */
#ifndef PREEMPTLAB_OUTFILE_H
#define PREEMPTLAB_OUTFILE_H

#include <stdio.h>

struct outfile {
	FILE *f;
	char path[4096];   /* DIR/NAME, what it becomes */
	char tmp[4096];    /* DIR/.NAME.XXXXXX while it is written */
};

/* Opens a temporary file for DIR/NAME; NULL, with a message on stderr,
 * when it cannot. */
FILE *out_open(struct outfile *o, const char *dir, const char *name);

/* Flushes, closes and renames it over DIR/NAME: 0, or -1 with a message
 * (a write error included), the temporary file removed and DIR/NAME as
 * it was. */
int out_commit(struct outfile *o);

#endif
