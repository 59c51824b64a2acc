/*
 * The manifest tools' readers of files (build/jget, build/attach-manifest),
 * capped as the report's and predict's (lab/common/json_read.c): a
 * document is a regular file of at most 64 MiB, refused with a message
 * before anything of it is read, so that a 100 MB or endless input is not
 * read whole.
 */
#ifndef PREEMPTLAB_CAPPED_H
#define PREEMPTLAB_CAPPED_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#define CAPPED_MAX_FILE (64u << 20)	/* JR_MAX_FILE's */

/* PATH's JSON (jansson FLAGS), or NULL with why in ERR ("PATH: ..."). */
json_t *capped_load(const char *path, size_t flags, char *err, size_t errlen);
/* PATH open for reading once it is a regular file within the cap, or NULL
 * with why in ERR. */
FILE *capped_open(const char *path, char *err, size_t errlen);

#endif
