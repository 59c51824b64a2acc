#include "mitigation.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "vocab.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

int mitigation_parse(const char *s, struct mitigation *m)
{
	long n = 1;
	const struct vocab_item *it = vocab_find(&vocab_mitigations, s, &n);
	/* The ranges are vocab.c's (rseq: the kernel's 5..50 us). */
	if (!it || vocab_range_error(&vocab_mitigations, s))
		return -1;
	m->kind = (enum mitigation_kind)it->code;
	m->param = n;
	return 0;
}

void mitigation_name(const struct mitigation *m, char *out, size_t len)
{
	const char *base = vocab_name(&vocab_mitigations, (int)m->kind);
	if (m->kind == MIT_RSEQ || m->kind == MIT_PARTITIONED)
		snprintf(out, len, "%.*s%ld", (int)(strchr(base, ':') - base + 1), base, m->param);
	else
		snprintf(out, len, "%s", base);
}

long vm_pte_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPTE: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

void mitigation_prefault(void *addr, size_t len, struct prefault_cost *c)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)addr & ~(uintptr_t)(page - 1);
	uintptr_t hi = ((uintptr_t)addr + len + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1);
	memset(c, 0, sizeof(*c));
	c->pages = (hi - lo) / (uint64_t)page;
	long before = vm_pte_kb();
	struct timespec c0, c1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	uint64_t t0 = clock_ns();
	if (madvise((void *)lo, hi - lo, MADV_POPULATE_READ) != 0)
		c->err = errno;
	c->ns = clock_ns() - t0;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	c->cpu_ns = (uint64_t)((c1.tv_sec - c0.tv_sec) * 1000000000LL + (c1.tv_nsec - c0.tv_nsec));
	long after = vm_pte_kb();
	c->pte_kb = before >= 0 && after >= 0 ? after - before : -1;
}
