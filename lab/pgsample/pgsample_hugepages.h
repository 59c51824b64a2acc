/*
 * Whether PostgreSQL's huge_pages=on|try can have the huge pages its
 * shared memory needs on this machine, and if not, why and what fixes it.
 *
 * scripts/pg-run.sh asks before it starts the server: a server that
 * cannot get them fails to start under "on" with a message that names
 * none of this, and under "try" falls back to 4 KB pages silently.  The
 * policy is here so that it is one function with tests; the shell only
 * reserves (scripts/hugepages.sh, which gives the pages back on exit).
 */
#ifndef PREEMPTLAB_PGSAMPLE_HUGEPAGES_H
#define PREEMPTLAB_PGSAMPLE_HUGEPAGES_H

#include <stdbool.h>
#include <stddef.h>

/* What the machine has, as /proc/meminfo and the pool's sysfs files say. */
struct hp_state {
	long hpkb;      /* Hugepagesize, 0 when the kernel has no hugetlb */
	long free;      /* free_hugepages of that pool */
	long nr;        /* nr_hugepages of that pool */
	long avail_kb;  /* MemAvailable */
	bool root;      /* only root can reserve */
};

enum hp_action {
	HP_HAVE,     /* enough are free already */
	HP_RESERVE,  /* reserve `need` (by difference) and retry nothing */
	HP_REFUSE,   /* they cannot be had: why, fix */
};

struct hp_verdict {
	enum hp_action action;
	long want;           /* nr_hugepages that would hold them */
	char text[320];      /* HAVE and RESERVE: the note to print; REFUSE: why */
	char fix[320];       /* REFUSE: what makes them available */
};

/*
 * need: shared_memory_size_in_huge_pages as the server computed it (-1 or
 * 0 where it has no huge page size); sb_kb: shared_buffers, for the text.
 */
void hp_decide(const struct hp_state *s, long need, long sb_kb, struct hp_verdict *v);

/* The reservation hp_decide asked for failed; s is read after it. */
void hp_reserve_failed(const struct hp_state *s, long need, long want, struct hp_verdict *v);

const char *hp_action_name(enum hp_action a);

/* Read meminfo and the pool of its default size; 0 or -1 (errno). */
int hp_state_read(struct hp_state *s);

/* pgsample huge-pages check NEED SB_KB | failed NEED WANT (see pg-run.sh). */
int hugepages_main(int argc, char **argv);

#endif
