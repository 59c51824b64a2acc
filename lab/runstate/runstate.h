/*
 * A run's state on disk, for when it is killed outright (build/runstate,
 * which scripts/run-state.sh calls).
 *
 * SIGKILL of make bench's process group left the cell runner (started with
 * setsid, so in a group of its own) and its bufbench running under init,
 * the huge pages it had reserved reserved, its /tmp work directory and any
 * tracefs instance of a bufbench --trace-holds (issue 28, D8 and D9); the
 * next run neither undid nor mentioned them.  Now each run keeps a state
 * file of what it holds, and the next run finds the file of a run that is
 * gone, says what it left and undoes it:
 *   pid PID START      the run (scripts/run-plan.sh) and its start time
 *   started TIME       when it started (UTC), for the message
 *   work DIR           its work directory
 *   rundir DIR         its results directory (no manifest when killed)
 *   unit PID START host|guest the cell runner's process group, or QEMU
 *   hugepages KB N     huge pages of KB it has added so far (the last wins;
 *                      scripts/hugepages.sh appends these itself)
 * START is field 22 of /proc/PID/stat: a pid reused since is not the run's.
 * The files live in PREEMPTLAB_STATE_DIR (default /run/preemptlab: like a
 * reservation, it does not outlive a reboot).
 *
 * A state file is not trusted blindly (issue 35, N1): a forged or stale one
 * had the next run remove any directory, kill any process with "qemu" or
 * "runner.sh" in its command line and write through a symlink.  Now the
 * directory and the file must be this user's and writable by no one else
 * (checked on what was opened, never following a link); the work directory
 * must be a tmp.* right in $TMPDIR; a process is stopped only when it
 * started when recorded and runs in that work directory; the mark is
 * written as a new file in real directories of this user's; and no more
 * huge pages are given back than the pool holds.
 *
 * Every function that says something writes "preemptlab: " lines to SAY,
 * as the scripts' note() does.
 */
#ifndef PREEMPTLAB_RUNSTATE_H
#define PREEMPTLAB_RUNSTATE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

/* --- parse.c: a state file's lines, as awk's fields saw them ------------ */

struct rs_unit {
	char *pid, *start, *kind; /* "" where the line has no such field */
};

struct rs_pages {
	char *kb, *n; /* the last "hugepages KB N" line of each KB */
};

struct rs_state {
	/* The first line of each key; NULL when there is none.  work and
	 * rundir are the rest of their line, blanks kept. */
	char *pid, *pid_start, *started, *work, *rundir;
	struct rs_unit *units;
	size_t n_units;
	struct rs_pages *pages;
	size_t n_pages;
};

/* Parse TEXT (LEN bytes; lines holding a NUL byte are skipped); 0, or -1
 * when out of memory.  Free with rs_state_free. */
int rs_parse(const char *text, size_t len, struct rs_state *s);
void rs_state_free(struct rs_state *s);

/* S is a non-empty string of decimal digits, of at most MAX of them (0:
 * any number). */
bool rs_digits(const char *s, size_t max);

/* S's digits as a pid to look up: -1 when S is no digits or larger than
 * any pid (no process has it). */
long rs_pid(const char *s);

/* --- proc.c: which process a pid is now --------------------------------- */

/* PID's start time (field 22 of /proc/PID/stat, clock ticks since boot)
 * into BUF; "" when PID is gone. */
void rs_start(long pid, char *buf, size_t len);

/* PID runs and started at START (so it is the process recorded, not
 * another that reused its pid).  A zombie does not run. */
bool rs_same(long pid, const char *start);

/* rs_same, and one of PID's arguments is WORK or a path in it. */
bool rs_is(long pid, const char *start, const char *work);

/* PID's command line (its arguments joined) holds TEXT. */
bool rs_cmdline_has(long pid, const char *text);

/* --- trust.c: what may be believed -------------------------------------- */

void rs_say(FILE *say, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ST (of SHOWN, named WHAT in the message) is no symbolic link, is this
 * user's and is writable by no one else; otherwise say so and fail (-1). */
int rs_check_private(const struct stat *st, const char *shown, const char *what, FILE *say);

/* NAME under AT opened O_PATH without following it, and rs_check_private:
 * the descriptor, or -1 after saying why. */
int rs_open_private(int at, const char *name, const char *shown, const char *what, FILE *say);

/* The directory mktemp -d makes work directories in ($TMPDIR, else /tmp),
 * without a trailing slash; malloc'd. */
char *rs_tmp(void);

/* A dead run's work directory, once rs_work_check trusts it. */
struct rs_work {
	int tmp_fd; /* the real $TMPDIR, or -1 */
	int fd;     /* O_PATH on the directory; -1 when it no longer exists */
	const char *name; /* its entry in tmp_fd */
};

/* WORK names what mktemp -d makes, a directory tmp.* right in TMP, that is
 * this user's, or that no longer exists; ".." and symbolic links fail.
 * 0 and W filled, or -1 after saying why (and W's descriptors -1). */
int rs_work_check(const char *work, const char *tmp, struct rs_work *w, FILE *say);
void rs_work_close(struct rs_work *w);

/* The state directory: PREEMPTLAB_STATE_DIR (made when missing), else
 * /run/preemptlab when it is this user's, else TMP/preemptlab-state-UID;
 * checked private.  Its path (malloc'd) and *fd (O_PATH), or NULL after
 * saying why and what fixes it. */
char *rs_state_dir(const char *tmp, int *fd, FILE *say);

/* --- undo.c: what a dead run left, undone -------------------------------- */

struct rs_ctx {
	const char *tmp;        /* rs_tmp() */
	const char *hp_root;    /* /sys/kernel/mm/hugepages */
	const char *const *tracefs; /* roots to reap, NULL-terminated; may be NULL */
	long self;              /* the run that undoes (its pid, for the mark) */
	unsigned term_wait_s;   /* between SIGTERM and SIGKILL of a runner's group */
	FILE *say;
};

/* Stop S's units that still run: only processes that started when
 * recorded and whose arguments hold WORK. */
void rs_stop_units(const struct rs_ctx *c, const struct rs_state *s, const char *work);

/* Give back the huge pages S had added, never more than the pool holds. */
void rs_give_back(const struct rs_ctx *c, const struct rs_state *s);

/* RUNDIR, without a manifest, says so in logs/killed-outright.txt. */
void rs_mark(const struct rs_ctx *c, const char *rundir);

/* Remove the trusted work directory W: 0, 1 when it was gone already, or
 * -1 (errno). */
int rs_remove_work(const struct rs_work *w);

/* --- recover.c: the sweep ------------------------------------------------ */

/* Undo what runs killed outright left: their state files in the directory
 * DIR_FD (shown as DIR), then dead bufbenches' tracefs instances. */
void rs_recover(const struct rs_ctx *c, int dir_fd, const char *dir);

#endif
