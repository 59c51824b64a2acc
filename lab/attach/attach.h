/*
 * build/attach: what make attach decides (scripts/attach.sh, which copies,
 * archives and packs; docs/attach.md, docs/report.md).  An attachment goes
 * to a public list, so only the run's own files go in (own.c), kernel
 * configs only from the lab's kernel cache or this host's /boot for the
 * run's own release (configs.c); reproduce.sh is text made here from
 * checked values (reproduce.c); and when the archive is over ATTACH_MAX_KB,
 * optional files go, largest first (fit.c).  Messages go to stderr as the
 * scripts' are ("preemptlab: ..."), each naming what to do.
 */
#ifndef PREEMPTLAB_ATTACH_H
#define PREEMPTLAB_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ATTACH_MAX_KB and ATTACH_FILE_MAX_KB: the number and its text as given. */
struct attach_limit {
	const char *name;	/* "ATTACH_MAX_KB" */
	const char *text;	/* as given, for messages */
	unsigned long long kb;
};

/* NAME from the environment (DEFLT when unset or empty) into L: false
 * when it is not a number of KiB (digits only), having said so. */
bool attach_limit(const char *name, const char *deflt, struct attach_limit *l);

/* "preemptlab: ..." on stderr. */
void attach_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* S for a message: each byte outside printable ASCII a '?' (a file name
 * may carry escape sequences or a newline); static storage, two in turn. */
const char *attach_shown(const char *s);
/* The last component of PATH (no trailing '/' in a file's path). */
const char *attach_base(const char *path);
/* realpath(1)'s answer for PATH: all but its last component must exist;
 * NULL when even that fails.  Malloc'd. */
char *attach_realpath(const char *path);

/* PATH is a regular file (not a link, FIFO or device, which hung or never
 * ended) of one link whose real path is inside UNDER (no link out of the
 * run), of at most FILE_MAX (a larger one would not fit anyway; a sparse
 * or endless one must not be read), and whose name has no control
 * character; otherwise false, having said why it is left out (silently
 * when PATH does not exist). */
bool attach_own_file(const char *path, const char *under, const struct attach_limit *file_max);

/* The names in DIR matching the shell PATTERN (no leading '.'), as DIR/NAME,
 * in the shell's order (bytes); *N of them.  Free with attach_free_list. */
char **attach_glob(const char *dir, const char *pattern, size_t *n);
void attach_free_list(char **list, size_t n);

/* Kernel configs (configs.c). */
/* LINE (without its newline) belongs in an excerpt. */
bool attach_excerpt_line(const char *line);
/* PATH's excerpt to OUT: 0, or -1 when PATH cannot be read. */
int attach_write_excerpt(const char *path, const char *out);
/* A config's name in the attachment: its directory's name, '-', its own
 * (.../build/7.0/config: 7.0-config).  Malloc'd. */
char *attach_config_base(const char *path);
/* A document's kernel release that names a file of /boot: a plain name. */
bool attach_release_ok(const char *rel);

/* reproduce.sh and the source (reproduce.c). */
/* REV is a git revision's spelling: [A-Za-z0-9._+-], and not empty. */
bool attach_revision_ok(const char *rev);
/* The run's name for a comment line, in place: other bytes '_'. */
void attach_run_name(char *name);
struct attach_source {
	bool dirty;		/* REV ends in -dirty */
	const char *patch;	/* "source-dirty.patch" or "" */
	char note[1024];	/* what the source lacks, or "" */
};
/* What goes in beside source.tar.xz for REV (COMMIT: the commit it names
 * in TOP, "" when none): PATCH, the run's record of its uncommitted
 * changes, when it is the run's own (inside UNDER) and not empty. */
void attach_source(const char *rev, const char *commit, const char *top, const char *patch,
		   const char *under, const struct attach_limit *file_max, struct attach_source *s);
/* reproduce.sh to OUT. */
void attach_reproduce(FILE *out, const char *run_name, const char *rev, const char *src_sha,
		      const char *patch, const char *cmd);

/* What of RUNDIR goes into STAGE (stage.c): each file to copy on OUT as
 * "SOURCE TAB NAME-IN-STAGE" (its directory made), the kernel configs'
 * excerpts written; CACHE is the lab's kernel cache.  -1 when no run
 * document is the run's own, having said so. */
int attach_stage(const char *rundir, const char *stage, const char *cache,
		 const struct attach_limit *file_max, bool full_config, FILE *out);
/* The run's revision from its documents DOCS[N]: "unknown" when they name
 * none or one that is not a revision's spelling (said).  Malloc'd. */
char *attach_doc_revision(char **docs, int n);

/* Fitting ATTACH_MAX_KB (fit.c). */
/* The optional file of STAGE to drop next, relative to it (malloc'd), or
 * NULL when none is left; *BYTES its size. */
char *attach_victim(const char *stage, long long *bytes);
/* Marks each line's first NAME in the file REPORT: "(dropped from the
 * attachment) NAME".  0, or -1 with errno. */
int attach_mark_dropped(const char *report, const char *name);
/* The five largest files of STAGE, "NAME (N KiB), ...", into BUF. */
void attach_largest(const char *stage, char *buf, size_t len);

#endif
