/*
 * Where the result document goes.  It is opened before the run, so that a
 * path that cannot be written fails in a second rather than after the whole
 * duration, and it appears only when complete: a regular file is written
 * beside its target and renamed over it, so that an interrupted write never
 * leaves half a document where a complete one is expected, and a killed
 * run leaves no temporary file either (out_file.c).  Devices and
 * FIFOs (/dev/stdout, a pipe) are written directly.
 */
#ifndef PREEMPTLAB_OUT_FILE_H
#define PREEMPTLAB_OUT_FILE_H

#include <stdio.h>

struct out_file {
	FILE *f;
	const char *target;	/* "stdout" when none was named */
	char tmp[4096];		/* "" when written directly */
	int unnamed;		/* written through O_TMPFILE: tmp is named at commit */
};

/* path NULL: stdout.  Returns -1 with errno set. */
int out_open(struct out_file *o, const char *path);
/* Flush, check every write, and put the document in place; -1 with errno. */
int out_commit(struct out_file *o);
/* Nothing will be written: remove the temporary file. */
void out_abandon(struct out_file *o);

#endif
