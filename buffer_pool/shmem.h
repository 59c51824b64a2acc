/*
 * The shared segment: one mapping created before fork, so every backend
 * sees it at the same address, as PostgreSQL's main shared memory area.
 * Backends never pre-fault it: with 4 KB pages each backend process takes
 * its own first-touch minor fault on every page it uses, because page
 * tables are per process even when the memory is shared.
 */
#ifndef PREEMPTLAB_SHMEM_H
#define PREEMPTLAB_SHMEM_H

#include <stddef.h>

/* PAGES_64K: arm64's contiguous-PTE hugetlb size (4 KB granule); last, so
 * the others keep their numbers. */
enum page_policy { PAGES_4K, PAGES_THP, PAGES_2M, PAGES_1G, PAGES_TRY_2M, PAGES_TRY_1G, PAGES_64K };

struct shmem_seg {
	void *base;
	size_t size;		/* rounded up to the page size */
	enum page_policy asked;
	long page_size_kb;	/* obtained (THP: known only after first touch) */
	char page_size_source[96];
	char note[256];		/* e.g. why try-2m fell back */
};

int page_policy_parse(const char *s, enum page_policy *out);
const char *page_policy_name(enum page_policy p);

/*
 * Create the segment.  numa is "none", "local", "interleave" or "bind:N".
 * Returns 0, or -1 with err naming the fix (e.g. the sysctl that reserves
 * enough huge pages).
 */
int shmem_create(struct shmem_seg *s, size_t size, enum page_policy pol, const char *numa,
		 char *err, size_t errlen);
void shmem_destroy(struct shmem_seg *s);

/* KernelPageSize of the mapping containing addr, from /proc/self/smaps. */
long smaps_kernel_page_kb(const void *addr);

/* ShmemPmdMapped of that mapping: how much THP actually backs it here. */
long smaps_pmd_mapped_kb(const void *addr);

/* Free pages in the hugetlb pool of the given size, or -1. */
long hugetlb_free_pages(long page_kb);

#endif
