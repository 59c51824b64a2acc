/*
 * The shared libraries (and the program interpreter) that ELF files need,
 * transitively, as ld.so would find them inside ROOT, an unpacked sysroot
 * of another architecture (closure.c; build/elfclosure prints them).
 */
#ifndef PREEMPTLAB_ELFCLOSURE_CLOSURE_H
#define PREEMPTLAB_ELFCLOSURE_CLOSURE_H

#include "elfread.h"

struct closure {
	struct strlist out;	/* guest paths, sorted, unique */
	struct strlist missing;	/* "LIB (needed by FILE)", sorted, unique */
	char *error;		/* why nothing could be resolved, or NULL */
};

/* FILES: guest paths inside ROOT (a physical path: no symbolic link in
 * it), or host:PATH, a host file whose libraries are ROOT's.  -1 with
 * C->error set when the first file is no ELF file of a machine the
 * architecture table knows (its directories are the default ones). */
int closure_run(const char *root, char *const *files, size_t nfiles, struct closure *c);
void closure_free(struct closure *c);

/* dirname(1)'s answer for PATH (GNU's: "//x" -> "/", "x" -> "."). */
char *closure_dirname(const char *path);
/* FILE as a path that ROOT + it reaches: its links followed inside ROOT. */
char *closure_in_root(const char *root, const char *file);

#endif
