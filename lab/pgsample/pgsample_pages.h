/*
 * Which page size PostgreSQL's main shared memory segment really got.
 * huge_pages=try falls back to 4 KB pages without a word, so the lab
 * reads it from the postmaster's mappings instead of trusting the setting.
 */
#ifndef PREEMPTLAB_PGSAMPLE_PAGES_H
#define PREEMPTLAB_PGSAMPLE_PAGES_H

#include <stdio.h>
#include <sys/types.h>

struct shm_mapping {
	unsigned long long size_kb;   /* Size: of the largest shared mapping */
	long kernel_page_kb;          /* its KernelPageSize: */
	unsigned long long pmd_kb;    /* ShmemPmdMapped: (shmem THP), 0 if none */
	char name[128];               /* e.g. "/dev/zero (deleted)", "/anon_hugepage (deleted)" */
};

/*
 * Parse /proc/PID/smaps text and describe the largest shared ("s" in the
 * permissions) mapping: PostgreSQL's main segment.  Returns 0 when one
 * was found.
 */
int pages_parse_smaps(FILE *f, struct shm_mapping *out);

/*
 * Parse /proc/meminfo: huge pages in use or reserved (Total - Free + Rsvd)
 * and the default huge page size.  Returns 0 when the fields were found.
 */
int pages_parse_meminfo(FILE *f, long *hp_used, long *hp_size_kb);

/*
 * The page size of the postmaster's segment: smaps when readable, else
 * the hugetlb counters (which can only tell that some huge pages are
 * taken, hence the source string says so).  Writes a description of how
 * it was found to source.  Returns the size in KiB, or -1.
 */
long pages_detect(pid_t postmaster, char *source, size_t srclen);

/* First line of PGDATA/postmaster.pid, or -1. */
pid_t pages_postmaster_pid(const char *pgdata);

#endif
