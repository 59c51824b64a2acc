/*
 * Page policy: the page size obtained matches the request, or the
 * documented error (naming the sysctl) appears; try-* falls back to 4 KB
 * and says so.  As root the test makes and then returns the reservations
 * it needs; the pools are restored to what they were.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "shmem.h"
#include "provenance.h"

#define MB (1ul << 20)

static const char *pool_file(long kb)
{
	return kb == 2048 ? "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages" :
			    "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages";
}

static long read_long(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int write_long(const char *path, long v)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int rc = fprintf(f, "%ld\n", v) < 0;
	return fclose(f) | rc;
}

static void test_4k(void)
{
	struct shmem_seg s;
	char err[512];
	int rc = shmem_create(&s, 8 * MB, PAGES_4K, "none", err, sizeof(err));
	CHECK(rc == 0 && s.page_size_kb == 4, "4k: obtained %ld kB pages", rc ? -1 : s.page_size_kb);
	if (rc == 0)
		shmem_destroy(&s);
}

/* With no free huge pages of this size: the error, and try's fallback. */
static void test_unreserved(long kb, enum page_policy strict, enum page_policy try)
{
	struct shmem_seg s;
	char err[512] = "";
	const char *name = page_policy_name(strict);
	size_t size = kb == 2048 ? 8 * MB : 1024 * MB;

	int rc = shmem_create(&s, size, strict, "none", err, sizeof(err));
	if (rc == 0) {
		shmem_destroy(&s);
		CHECK(0, "%s: mapping succeeded although no pages were free", name);
		return;
	}
	/* No page is free: the pool must grow by the whole segment. */
	char hint[96];
	long total = read_long(pool_file(kb));
	if (kb == 2048)
		snprintf(hint, sizeof(hint), "sysctl vm.nr_hugepages=%ld", total + 4);
	else
		snprintf(hint, sizeof(hint), "echo %ld > /sys/kernel/mm/hugepages/hugepages-1048576kB",
			 total + 1);
	CHECK(strstr(err, hint) != NULL, "%s without a reservation names the fix: %s", name, err);

	rc = shmem_create(&s, size, try, "none", err, sizeof(err));
	CHECK(rc == 0 && s.page_size_kb == 4 && strstr(s.note, "fell back to 4 KB"),
	      "%s: falls back to 4 KB and says so (%s)", page_policy_name(try), rc ? err : s.note);
	if (rc == 0)
		shmem_destroy(&s);
}

static void test_policy(long kb, enum page_policy strict, enum page_policy try, size_t size)
{
	const char *f = pool_file(kb);
	long saved = read_long(f);
	long need = (long)(size / ((size_t)kb * 1024));
	/* qemu-user places guest mappings itself and cannot align MAP_HUGETLB:
	 * with the pages reserved, the run must map them or say that qemu-user
	 * is why it cannot (not ask for a reservation that is there). */
	if (prov_under_qemu_user()) {
		if (saved < 0 || write_long(f, saved + need) != 0 || hugetlb_free_pages(kb) < need) {
			if (saved >= 0)
				write_long(f, saved);
			SKIP("%s: huge page mappings under qemu-user are qemu's, not the kernel's, and "
			     "no %ld kB pages could be reserved to show it", page_policy_name(strict), kb);
			return;
		}
		struct shmem_seg q;
		char qerr[512];
		int qrc = shmem_create(&q, size, strict, "none", qerr, sizeof(qerr));
		CHECK((qrc == 0 && q.page_size_kb == kb) || (qrc != 0 && strstr(qerr, "under qemu-user")),
		      "%s under qemu-user: mapped, or the error names qemu-user: %s",
		      page_policy_name(strict), qrc ? qerr : "mapped");
		if (qrc == 0)
			shmem_destroy(&q);
		write_long(f, saved);
		return;
	}

	if (saved < 0) {
		SKIP("%s: this kernel has no %ld kB hugetlb pool", page_policy_name(strict), kb);
		return;
	}
	if (hugetlb_free_pages(kb) == 0)
		test_unreserved(kb, strict, try);

	if (write_long(f, saved + need) != 0 || hugetlb_free_pages(kb) < need) {
		write_long(f, saved);
		SKIP("%s: cannot reserve %ld pages of %ld kB here (not root, or memory too fragmented)",
		     page_policy_name(strict), need, kb);
		return;
	}
	struct shmem_seg s;
	char err[512];
	int rc = shmem_create(&s, size, strict, "none", err, sizeof(err));
	CHECK(rc == 0 && s.page_size_kb == kb, "%s: obtained %ld kB pages (smaps KernelPageSize)%s%s",
	      page_policy_name(strict), rc ? -1 : s.page_size_kb, rc ? ": " : "", rc ? err : "");
	if (rc == 0)
		shmem_destroy(&s);
	write_long(f, saved);
	CHECK(read_long(f) == saved, "%s: pool restored to %ld pages", page_policy_name(strict), saved);
}

int main(void)
{
	test_4k();
	test_policy(2048, PAGES_2M, PAGES_TRY_2M, 8 * MB);
	test_policy(1048576, PAGES_1G, PAGES_TRY_1G, 1024 * MB);

	struct shmem_seg s;
	char err[512];
	/* 64k (arm64's contiguous PTEs): where the kernel has no such size
	 * (any x86 one) the run fails saying so; where it has the size and
	 * pages are free, the segment is on 64 KB pages, or the error names
	 * the reservation to make. */
	int rc;
	if (read_long("/sys/kernel/mm/hugepages/hugepages-64kB/nr_hugepages") < 0) {
		rc = shmem_create(&s, 8 * MB, PAGES_64K, NULL, err, sizeof(err));
		CHECK(rc != 0 && strstr(err, "offers none") && strstr(err, "hugepages-64kB"),
		      "64k without hugepages-64kB fails naming it: %s", rc ? err : "(mapped)");
		if (rc == 0)
			shmem_destroy(&s);
	} else {
		rc = shmem_create(&s, 8 * MB, PAGES_64K, NULL, err, sizeof(err));
		CHECK(rc == 0 ? smaps_kernel_page_kb(s.base) == 64 : strstr(err, "hugepages-64kB") != NULL,
		      "64k maps 64 KB pages or names the reservation: %s", rc ? err : "mapped");
		if (rc == 0)
			shmem_destroy(&s);
	}
	rc = shmem_create(&s, 8 * MB, PAGES_4K, "bind:999", err, sizeof(err));
	CHECK(rc != 0 && strstr(err, "bind:999"), "a bad NUMA node is refused: %s", rc ? err : "");
	return CHECK_DONE();
}
