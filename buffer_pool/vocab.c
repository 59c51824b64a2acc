#include "vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "freelist.h"
#include "lab_lock.h"
#include "mitigation.h"
#include "shmem.h"

#define ITEMS(a) a, sizeof(a) / sizeof((a)[0])

static const struct vocab_item pages[] = {
	{ "4k", PAGES_4K, "4 KB base pages: each backend faults on each page it first touches" },
	{ "thp", PAGES_THP, "transparent huge pages on shared memory (shmem_enabled decides)" },
	{ "2m", PAGES_2M, "2 MB hugetlb pages (MAP_HUGE_2MB); fails when none are reserved" },
	{ "1g", PAGES_1G, "1 GB hugetlb pages (MAP_HUGE_1GB); fails when none are reserved" },
	{ "try-2m", PAGES_TRY_2M, "2 MB pages, falling back to 4 KB (PostgreSQL's huge_pages=try)" },
	{ "try-1g", PAGES_TRY_1G, "1 GB pages, falling back to 4 KB" },
	{ "64k", PAGES_64K, "64 KB hugetlb pages (arm64's contiguous PTEs, hugepages-64kB); fails where the kernel has none or none are reserved" },
};
const struct vocab vocab_pages = {
	"pages", "PAGES", "--pages", "page policy of the shared segment", ITEMS(pages)
};

/* HUGEPAGES is shorthand for a PAGES list; the planner expands it. */
static const struct vocab_item hugepages[] = {
	{ "off", 0, "4k" },
	{ "on", 1, "2m (the run fails when they cannot be reserved)" },
	{ "try", 2, "try-2m" },
	{ "compare", 3, "4k, 2m and 1g, each where it can be reserved" },
};
const struct vocab vocab_hugepages = {
	"hugepages", "HUGEPAGES", NULL, "page sizes for bufbench, unless PAGES is given",
	ITEMS(hugepages)
};

/* Least preemptible first: the report orders models this way. */
static const struct vocab_item models[] = {
	{ "none", MODEL_NONE, "no preemption in the kernel: switches at return to user and cond_resched" },
	{ "voluntary", MODEL_VOLUNTARY, "none plus the might_sleep() preemption points" },
	{ "full", MODEL_FULL, "preemption anywhere preemption is enabled, IRQ return included" },
	{ "lazy", MODEL_LAZY, "fair-class wakeups preempt at return to user or the next tick" },
	{ "current", MODEL_CURRENT, "whatever the kernel runs (its default, or the host's)" },
};
const struct vocab vocab_models = {
	"models", "MODELS", NULL, "preemption model (PREEMPT_DYNAMIC, preempt= or debugfs)",
	ITEMS(models)
};

static const struct vocab_item locks[] = {
	{ "tas", LOCK_TAS, "PostgreSQL's s_lock: TAS_SPIN, PAUSE, adaptive spins, sleeping backoff" },
	{ "rseq", LOCK_RSEQ, "tas inside an rseq time-slice extension request (Linux 7.0+)" },
	{ "futex", LOCK_FUTEX, "a futex mutex: waiters sleep instead of spinning (control)" },
	{ "mcs", LOCK_MCS, "an MCS queue lock: FIFO handoff, each waiter spins locally (control)" },
	{ "resilient", LOCK_RESILIENT, "tas that detects a deadlock on itself and times out (rqspinlock's lesson)" },
	{ "resilient-late", LOCK_RESILIENT_LATE, "resilient recording its hold after the exchange (negative control)" },
};
const struct vocab vocab_locks = {
	"locks", "LOCKS", "--lock", "the strategy lock", ITEMS(locks)
};

static const struct vocab_item strategies[] = {
	{ "pg", STRATEGY_PG, "PostgreSQL 15-18: freelist pop under the lock, lock-free clock sweep" },
	{ "pg19", STRATEGY_PG19, "PostgreSQL 19: no freelist, clock sweep from the start, lock only on wrap" },
	{ "global", STRATEGY_GLOBAL, "the whole victim search under the lock (worst case)" },
	{ "partitioned:N", STRATEGY_PARTITIONED, "N freelists, hands and locks over disjoint buffers" },
};
const struct vocab vocab_strategies = {
	"strategies", "STRATEGY", "--strategy", "StrategyGetBuffer's victim search",
	ITEMS(strategies)
};

/*
 * Fixes for the fill phase's faults under the strategy lock, each measured
 * against none on the same kernel and model (docs/mitigations.md).  Those
 * that are another page size, lock or strategy set that value themselves.
 */
static const struct vocab_item mitigations[] = {
	{ "none", MIT_NONE, "no mitigation: the baseline every other one is compared with" },
	{ "prefault", MIT_PREFAULT, "each backend populates the descriptor array's page tables right after fork (MADV_POPULATE_READ); its time and page-table memory are recorded" },
	{ "touch-before-lock", MIT_TOUCH, "read the freelist head's descriptor before taking the strategy lock, so its first-touch fault is taken outside" },
	{ "rseq:N", MIT_RSEQ, "--lock rseq with the slice extension's grant set to N us (5..50; x86 only: it needs GENERIC_ENTRY, which arm64 does not select)" },
	{ "hugepages", MIT_HUGEPAGES, "2 MB pages (--pages 1g for 1 GB; the planner adds 1 GB where it can be had)" },
	{ "pg19", MIT_PG19, "PostgreSQL 19's strategy: no freelist, the lock only on the hand's wrap" },
	{ "partitioned:N", MIT_PARTITIONED, "N freelists, hands and locks (--strategy partitioned:N)" },
};
const struct vocab vocab_mitigations = {
	"mitigations", "MITIGATIONS", "--mitigation", "a fix for faults under the strategy lock",
	ITEMS(mitigations)
};

static const struct vocab_item workloads[] = {
	{ "select-only", WL_SELECT_ONLY, "pgbench -S: one random block read per transaction" },
	{ "simple-update", WL_SIMPLE_UPDATE, "pgbench -N: one block modified, then read back" },
};
const struct vocab vocab_workloads = {
	"workloads", "WORKLOAD", "--workload", "what a bufbench transaction does", ITEMS(workloads)
};

/* "partitioned:N" matches "partitioned:8"; the N must be a positive integer. */
static int match(const char *pattern, const char *s, long *param)
{
	size_t n = strlen(pattern);
	if (n >= 2 && strcmp(pattern + n - 2, ":N") == 0) {
		if (strncmp(s, pattern, n - 1) != 0)
			return 0;
		const char *num = s + n - 1;
		char *end;
		if (*num < '0' || *num > '9')
			return 0;
		/* 0 and any size match: the range (vocab_range_error) says why not. */
		long v = strtol(num, &end, 10);
		if (*end)
			return 0;
		if (param)
			*param = v;
		return 1;
	}
	if (strcmp(pattern, s) != 0)
		return 0;
	if (param)
		*param = 1;
	return 1;
}

const struct vocab_item *vocab_find(const struct vocab *v, const char *s, long *param)
{
	for (size_t i = 0; s && i < v->n; i++)
		if (match(v->items[i].name, s, param))
			return &v->items[i];
	return NULL;
}

int vocab_rank(const struct vocab *v, const char *s)
{
	const struct vocab_item *it = vocab_find(v, s, NULL);
	return it ? (int)(it - v->items) : -1;
}

/* The ranges of the items with an N, one table so that every refusal reads alike. */
static const struct {
	const struct vocab *v;
	int code;
	long min, max;
	const char *why;
} ranges[] = {
	/* rseq_slice_ext_write() in kernel/rseq.c takes 5..50 us. */
	{ &vocab_mitigations, MIT_RSEQ, 5, 50, "rseq:N takes 5..50 us (the kernel's bounds)" },
	{ &vocab_mitigations, MIT_PARTITIONED, 1, MAX_STRATEGY_PARTS, "partitioned:N takes 1..64 parts" },
	{ &vocab_strategies, STRATEGY_PARTITIONED, 1, MAX_STRATEGY_PARTS, "partitioned:N takes 1..64 parts" },
};
_Static_assert(MAX_STRATEGY_PARTS == 64, "the partitioned:N messages say 64");

const char *vocab_range_error(const struct vocab *v, const char *s)
{
	long n = 1;
	const struct vocab_item *it = vocab_find(v, s, &n);
	for (size_t i = 0; it && i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (ranges[i].v == v && ranges[i].code == it->code && (n < ranges[i].min || n > ranges[i].max))
			return ranges[i].why;
	return NULL;
}

int vocab_canonical(const struct vocab *v, const char *s, char *out, size_t len)
{
	long n = 1;
	const struct vocab_item *it = vocab_find(v, s, &n);
	if (!it)
		return -1;
	const char *colon = strchr(it->name, ':');
	size_t l = strlen(it->name);
	if (l >= 2 && !strcmp(it->name + l - 2, ":N"))
		snprintf(out, len, "%.*s%ld", (int)(colon - it->name + 1), it->name, n);
	else
		snprintf(out, len, "%s", it->name);
	return 0;
}

const char *vocab_name(const struct vocab *v, int code)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->items[i].code == code)
			return v->items[i].name;
	return "?";
}

const char *vocab_choices(const struct vocab *v, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < v->n && off < len; i++) {
		const char *sep = i == 0 ? "" : i + 1 == v->n ? " or " : ", ";
		int k = snprintf(buf + off, len - off, "%s%s", sep, v->items[i].name);
		if (k < 0)
			break;
		off += (size_t)k;
	}
	return buf;
}

void vocab_write_md(FILE *f, const struct vocab *v)
{
	fprintf(f, "### %s\n\n%s", v->key, v->desc);
	if (v->make_var)
		fprintf(f, "; make `%s=`", v->make_var);
	if (v->option)
		fprintf(f, "; bufbench `%s`", v->option);
	fprintf(f, ".\n\n| value | meaning |\n|---|---|\n");
	for (size_t i = 0; i < v->n; i++)
		fprintf(f, "| `%s` | %s |\n", v->items[i].name, v->items[i].desc);
	fprintf(f, "\n");
}

void vocab_write_help(FILE *f, const struct vocab *v, int indent)
{
	for (size_t i = 0; i < v->n; i++)
		fprintf(f, "%*s%-14s %s\n", indent, "", v->items[i].name, v->items[i].desc);
}
