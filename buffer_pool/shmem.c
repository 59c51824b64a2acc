#include "shmem.h"
#include "emulation.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "config.h"
#include "vocab.h"
#if HAVE_NUMA
#include <numa.h>
#endif

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#ifndef MAP_HUGE_64KB
#define MAP_HUGE_64KB (16 << MAP_HUGE_SHIFT)
#endif
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif
#ifndef MAP_HUGE_1GB
#define MAP_HUGE_1GB (30 << MAP_HUGE_SHIFT)
#endif

int page_policy_parse(const char *s, enum page_policy *out)
{
	const struct vocab_item *it = vocab_find(&vocab_pages, s, NULL);
	if (!it)
		return -1;
	*out = (enum page_policy)it->code;
	return 0;
}

const char *page_policy_name(enum page_policy p)
{
	return vocab_name(&vocab_pages, (int)p);
}

/* A field of the smaps entry whose range starts at addr, in kB. */
static long smaps_field_kb(const void *addr, const char *field)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0;
	long val = -1;
	size_t flen = strlen(field);

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = lo <= (uintptr_t)addr && (uintptr_t)addr < hi;
			continue;
		}
		if (in && strncmp(line, field, flen) == 0 && line[flen] == ':') {
			val = strtol(line + flen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

long smaps_kernel_page_kb(const void *addr)
{
	return smaps_field_kb(addr, "KernelPageSize");
}

long smaps_pmd_mapped_kb(const void *addr)
{
	return smaps_field_kb(addr, "ShmemPmdMapped");
}

static long hugetlb_counter(long page_kb, const char *name)
{
	char path[128];
	long n = -1;
	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%ldkB/%s", page_kb, name);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

long hugetlb_free_pages(long page_kb)
{
	return hugetlb_counter(page_kb, "free_hugepages");
}

static void *map_hugetlb(size_t *size, long page_kb)
{
	size_t pg = (size_t)page_kb * 1024;
	*size = (*size + pg - 1) / pg * pg;
	int flags = MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB |
		    (page_kb == 2048 ? MAP_HUGE_2MB : page_kb == 64 ? MAP_HUGE_64KB : MAP_HUGE_1GB);
	return mmap(NULL, *size, PROT_READ | PROT_WRITE, flags, -1, 0);
}

static void hugetlb_hint(char *err, size_t errlen, long page_kb, size_t size)
{
	long need = (long)((size + (size_t)page_kb * 1024 - 1) / ((size_t)page_kb * 1024));
	long free_pages = hugetlb_free_pages(page_kb);
	long total = hugetlb_counter(page_kb, "nr_hugepages");
	/* The pool must grow by what is missing, on top of what others use. */
	long want = (total > 0 ? total : 0) + need - (free_pages > 0 ? free_pages : 0);
	/* Reserving more would not help: qemu-user picks unaligned addresses. */
	if (under_qemu_user() && free_pages >= need)
		snprintf(err, errlen,
			 "cannot map %zu MB on %ld KB hugetlb pages under qemu-user (%ld free): "
			 "qemu, not the kernel, places this program's mappings and cannot align "
			 "them; run on a native arm64 machine or in a guest (ARCH=arm64), or "
			 "--pages 4k",
			 size >> 20, page_kb, free_pages);
	else if (page_kb == 64 && total < 0)
		snprintf(err, errlen,
			 "cannot map %zu MB on 64 KB pages: this kernel offers none (no "
			 "/sys/kernel/mm/hugepages/hugepages-64kB: arm64 with 4 KB pages has them)",
			 size >> 20);
	else if (page_kb == 64)
		snprintf(err, errlen,
			 "cannot map %zu MB on 64 KB pages (%ld free, %ld needed): reserve them with "
			 "'echo %ld > /sys/kernel/mm/hugepages/hugepages-64kB/nr_hugepages' (as root)",
			 size >> 20, free_pages < 0 ? 0 : free_pages, need, want);
	else if (page_kb == 2048)
		snprintf(err, errlen,
			 "cannot map %zu MB on 2 MB pages (%ld free, %ld needed): reserve them with "
			 "'sysctl vm.nr_hugepages=%ld' (as root), or use --pages try-2m",
			 size >> 20, free_pages, need, want);
	else
		snprintf(err, errlen,
			 "cannot map %zu MB on 1 GB pages (%ld free, %ld needed): reserve them with "
			 "'echo %ld > /sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages' or "
			 "boot with 'hugepagesz=1G hugepages=%ld', or use --pages try-1g",
			 size >> 20, free_pages < 0 ? 0 : free_pages, need, want, want);
}

/* Shared anonymous memory gets THP only if shmem_enabled allows it. */
static void thp_shmem_note(char *note, size_t len)
{
	const char *path = "/sys/kernel/mm/transparent_hugepage/shmem_enabled";
	char line[128] = "";
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	if (strstr(line, "[never]") || strstr(line, "[deny]"))
		snprintf(note, len,
			 "thp: shared memory THP is off (%s); expect 4 KB pages; "
			 "'echo advise > %s' enables it", strtok(line, "\n"), path);
}

static int apply_numa(void *base, size_t size, const char *numa, char *err, size_t errlen)
{
	if (!numa || strcmp(numa, "none") == 0 || strcmp(numa, "local") == 0)
		return 0;	/* local: the default first-touch policy */
#if HAVE_NUMA
	if (numa_available() < 0) {
		snprintf(err, errlen, "--numa %s: this kernel has no NUMA support", numa);
		return -1;
	}
	if (strcmp(numa, "interleave") == 0) {
		numa_interleave_memory(base, size, numa_all_nodes_ptr);
		return 0;
	}
	if (strncmp(numa, "bind:", 5) == 0) {
		char *end;
		long node = strtol(numa + 5, &end, 10);
		if (*end || node < 0 || node > numa_max_node()) {
			snprintf(err, errlen, "--numa %s: node must be 0..%d", numa, numa_max_node());
			return -1;
		}
		numa_tonode_memory(base, size, (int)node);
		return 0;
	}
	snprintf(err, errlen, "--numa %s: expected none, local, interleave or bind:N", numa);
	return -1;
#else
	(void)base;
	(void)size;
	snprintf(err, errlen, "--numa %s: built without libnuma (apt-get install libnuma-dev; ./configure)",
		 numa);
	return -1;
#endif
}

int shmem_create(struct shmem_seg *s, size_t size, enum page_policy pol, const char *numa,
		 char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->asked = pol;
	s->size = size;
	void *p = MAP_FAILED;

	if (pol == PAGES_2M || pol == PAGES_TRY_2M || pol == PAGES_1G || pol == PAGES_TRY_1G ||
	    pol == PAGES_64K) {
		long kb = (pol == PAGES_2M || pol == PAGES_TRY_2M) ? 2048 : pol == PAGES_64K ? 64 : 1048576;
		size_t want = size;
		p = map_hugetlb(&want, kb);
		if (p != MAP_FAILED) {
			s->size = want;
		} else if (pol == PAGES_2M || pol == PAGES_1G || pol == PAGES_64K) {
			hugetlb_hint(err, errlen, kb, size);
			return -1;
		} else {
			snprintf(s->note, sizeof(s->note),
				 "%s fell back to 4 KB pages: %s (%ld free huge pages)",
				 page_policy_name(pol), strerror(errno), hugetlb_free_pages(kb));
		}
	}
	if (p == MAP_FAILED) {
		size_t pg = 4096;
		s->size = (size + pg - 1) / pg * pg;
		p = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			snprintf(err, errlen, "mmap of %zu MB failed: %s", s->size >> 20, strerror(errno));
			return -1;
		}
		/* Needs shmem_enabled=advise or always for shared memory. */
		if (pol == PAGES_THP && madvise(p, s->size, MADV_HUGEPAGE) != 0)
			snprintf(s->note, sizeof(s->note), "madvise(MADV_HUGEPAGE) failed: %s",
				 strerror(errno));
		else if (pol == PAGES_THP)
			thp_shmem_note(s->note, sizeof(s->note));
	}
	s->base = p;
	if (apply_numa(p, s->size, numa, err, errlen) != 0) {
		shmem_destroy(s);
		return -1;
	}
	s->page_size_kb = smaps_kernel_page_kb(p);
	snprintf(s->page_size_source, sizeof(s->page_size_source), "smaps KernelPageSize");
	if (pol == PAGES_THP)
		snprintf(s->page_size_source, sizeof(s->page_size_source),
			 "smaps ShmemPmdMapped after the run");
	return 0;
}

void shmem_destroy(struct shmem_seg *s)
{
	if (s->base)
		munmap(s->base, s->size);
	s->base = NULL;
}
