/*
 * The operations costbench times.  Every fault op counts the faults it
 * took with getrusage (outside the timed window) so that a touch that did
 * not fault, or faulted twice, cannot pass for one fault.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "costbench.h"

#define PAGE_4K 4096L
#define PAGE_2M (2L << 20)
/* fault_around_bytes' default: a read fault maps up to 16 present pages. */
#define AROUND_PAGES 16

struct mark {
	uint64_t ns;
	int64_t instr;
};

static long minflt(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* The counter read sits outside the clock's window on both sides. */
static void mark_begin(struct mark *m, const struct costbench_counter *c)
{
	m->instr = costbench_counter_read(c);
	m->ns = clock_ns();
}

static void mark_end(struct mark *m, const struct costbench_counter *c)
{
	m->ns = clock_ns();
	m->instr = costbench_counter_read(c);
}

static void batch_done(struct costbench_op *op, const struct costbench_counter *c, const struct mark *b,
		       const struct mark *e, long n)
{
	int i = op->nbatches++;
	double ns = (double)(e->ns - b->ns);
	op->ns[i] = ns / (double)n;
	if (c->source == CB_INSTR_PERF && b->instr >= 0 && e->instr >= 0)
		op->instr[i] = (double)(e->instr - b->instr) / (double)n;
	else if (c->source == CB_INSTR_ICOUNT)
		op->instr[i] = ns / (double)(1L << c->icount_shift) / (double)n;
	else
		op->instr[i] = -1;
}

static void op_start(struct costbench_op *op, const char *name, long per_batch)
{
	memset(op, 0, sizeof(*op));
	op->name = name;
	op->per_batch = per_batch;
	op->available = true;
	op->each_faulted = true;
}

static void unavailable(struct costbench_op *op, const char *what)
{
	op->available = false;
	op->nbatches = 0;
	snprintf(op->why, sizeof(op->why), "%s: %s", what, strerror(errno));
}

/*
 * touch_all: one access per stride bytes; a write allocates (shared
 * mappings take no fault-around on writes), a read maps what is there.
 */
static void touch_all(volatile char *p, long n, long stride, bool write)
{
	for (long i = 0; i < n; i++) {
		if (write)
			p[i * stride] = 1;
		else
			(void)p[i * stride];
	}
}

/*
 * fault_batches: batch 0 warms the path up and is not kept.  remap()
 * readies the next batch outside the timed window; faults are counted
 * across the whole window and must be exactly one per touch.
 */
static void fault_batches(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c,
			  char *base, long stride, bool write, int (*reset)(char *, long, long))
{
	long total_flt = 0;
	for (int b = 0; b <= cfg->batches; b++) {
		if (reset(base, op->per_batch, stride) != 0) {
			unavailable(op, "readying the pages (munmap/mmap/madvise)");
			return;
		}
		long f0 = minflt();
		struct mark m0, m1;
		mark_begin(&m0, c);
		touch_all(base, op->per_batch, stride, write);
		mark_end(&m1, c);
		long f = minflt() - f0;
		if (b == 0)
			continue;
		total_flt += f;
		if (f != op->per_batch)
			op->each_faulted = false;
		batch_done(op, c, &m0, &m1, op->per_batch);
	}
	op->minflt_per_op = (double)total_flt / (double)(op->per_batch * cfg->batches);
}

/* Drop the process's page table entries; the shared pages stay. */
static int zap(char *base, long n, long stride)
{
	return madvise(base, (size_t)(n * stride), MADV_DONTNEED);
}

/* A fresh object each batch: its first touch allocates and zeroes. */
static int hp_flags;
static int fresh(char *base, long n, long stride)
{
	size_t len = (size_t)(n * stride);
	munmap(base, len);
	void *p = mmap(base, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED | hp_flags, -1, 0);
	return p == MAP_FAILED ? -1 : 0;
}

static void fault_op(struct costbench_op *op, const char *name, const struct costbench_config *cfg,
		     const struct costbench_counter *c, bool huge, bool alloc)
{
	long per = huge ? cfg->hp_pages : cfg->fault_pages;
	/* Read faults map a fault-around window: one touch per window. */
	long stride = huge ? PAGE_2M : alloc ? PAGE_4K : PAGE_4K * AROUND_PAGES;
	op_start(op, name, per);
	hp_flags = huge ? MAP_HUGETLB : 0;
	size_t len = (size_t)(per * stride);
	char *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | hp_flags,
			  -1, 0);
	if (base == MAP_FAILED) {
		unavailable(op, huge ? "mmap MAP_HUGETLB (free 2 MB pages in nr_hugepages?)" : "mmap");
		return;
	}
	if (alloc) {
		fault_batches(op, cfg, c, base, stride, true, fresh);
	} else {
		/* Every page present in the shared object, as a pool the
		 * postmaster initialised before forking is. */
		memset(base, 1, len);
		if (zap(base, per, stride) != 0)
			unavailable(op, "madvise MADV_DONTNEED");
		else
			fault_batches(op, cfg, c, base, stride, false, zap);
	}
	munmap(base, len);
}

void costbench_fault_4k_alloc(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c)
{
	fault_op(op, "fault_4k_alloc", cfg, c, false, true);
}

void costbench_fault_4k_map(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c)
{
	fault_op(op, "fault_4k_map", cfg, c, false, false);
}

void costbench_fault_2m_alloc(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c)
{
	fault_op(op, "fault_2m_alloc", cfg, c, true, true);
}

void costbench_fault_2m_map(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c)
{
	fault_op(op, "fault_2m_map", cfg, c, true, false);
}

/* syscall_batches: the loop is the same for each call; call() is inlined per op. */
#define SYSCALL_BATCHES(op, cfg, c, call)                        \
	do {                                                         \
		for (int b = 0; b <= (cfg)->batches; b++) {              \
			struct mark m0, m1;                                  \
			mark_begin(&m0, c);                                  \
			for (long i = 0; i < (op)->per_batch; i++)           \
				call;                                            \
			mark_end(&m1, c);                                    \
			if (b > 0)                                           \
				batch_done(op, c, &m0, &m1, (op)->per_batch);    \
		}                                                        \
		(op)->each_faulted = false;                              \
	} while (0)

void costbench_getppid(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c)
{
	op_start(op, "getppid", cfg->syscalls);
	SYSCALL_BATCHES(op, cfg, c, (void)getppid());
}

void costbench_sched_yield(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c)
{
	op_start(op, "sched_yield", cfg->syscalls);
	SYSCALL_BATCHES(op, cfg, c, (void)sched_yield());
}

/* A 4 KB read that the page cache serves: shmem (memfd), no I/O. */
void costbench_pread_4k(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c)
{
	static char buf[PAGE_4K];
	op_start(op, "pread_4k", cfg->syscalls);
	int fd = memfd_create("costbench", 0);
	memset(buf, 7, sizeof(buf));
	if (fd < 0 || pwrite(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf)) {
		unavailable(op, "memfd_create/pwrite");
		if (fd >= 0)
			close(fd);
		return;
	}
	long bad = 0;
	SYSCALL_BATCHES(op, cfg, c, bad += pread(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf));
	close(fd);
	if (bad) {
		errno = EIO;
		unavailable(op, "pread returned short");
	}
}
