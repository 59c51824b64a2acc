/*
 * One client process: a backend that runs transactions until told to stop.
 *
 * It counts into a private scratch area during warm-up and into its shared
 * stats slots once the parent declares the measured interval, so that the
 * parent never has to reset counters that another process is writing.
 * It has two slots: one for the fill phase and one for after it.  The
 * switch happens between transactions, when the backend first sees the
 * pool filled; the parent knows the exact moment from the strategy.
 */
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bufbench.h"
#include "bufmgr.h"
#include "clock.h"
#include "rseq_slice.h"

/*
 * --reentrant-signal: SIGPROF interrupts the backend wherever it is, also
 * inside its own strategy-lock hold, and takes the lock from the handler,
 * as a perf NMI handler may take a lock the interrupted kernel code holds.
 */
static struct backend *reentrant_backend;
static struct lab_lock *reentrant_lock;
static struct lock_ctx reentrant_ctx = { .name = "strategy lock (signal handler)" };

static void on_sigprof(int sig)
{
	(void)sig;
	struct reentry_stats *rs = &reentrant_backend->st->reentry;
	uint64_t stall;
	enum reentry r = lab_lock_reentrant(reentrant_lock, &reentrant_ctx, &stall);
	rs->attempts++;
	rs->stall_ns += stall;
	if (stall > rs->max_stall_ns)
		rs->max_stall_ns = stall;
	switch (r) {
	case REENTRY_ACQUIRED: rs->acquired++; break;
	case REENTRY_AA: rs->aa++; break;
	case REENTRY_TIMEOUT: rs->timeouts++; break;
	default:
		/* tas would wait for itself forever: end here, said so by the exit code. */
		rs->deadlocks++;
		_exit(EXIT_SELF_DEADLOCK);
	}
}

static void start_reentrant_signal(struct backend *b, struct pool *p, long hz)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigprof;
	sa.sa_flags = SA_RESTART;
	reentrant_backend = b;
	reentrant_lock = &p->ctl->strategy.part[0].lock;
	reentrant_ctx.mcs_nodes = p->mcs;
	reentrant_ctx.backend = b->id;
	sigaction(SIGPROF, &sa, NULL);
	long us = 1000000L / hz;
	struct itimerval it = { { us / 1000000L, us % 1000000L }, { us / 1000000L, us % 1000000L } };
	setitimer(ITIMER_PROF, &it, NULL);
}

static uint64_t rng;

static uint64_t next_random(void)
{
	/* splitmix64: fast, and independent streams per seed. */
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static _Noreturn void fail(const char *what, int32_t rc)
{
	fprintf(stderr, "bufbench: client pid %d: %s\n", (int)getpid(),
		rc == -1 ? "no unpinned buffers available" :
		rc == -2 ? "buffer mapping partition full" : what);
	_exit(EXIT_RUN_FAILED);
}

/* Where a block's "tuple" lives: a few words somewhere in the page. */
static uint64_t *tuple(struct backend *b, int32_t id, uint32_t block)
{
	return (uint64_t *)(pool_page(b->pool, id) + (block * 40u) % (BLCKSZ - 64));
}

static int32_t pin_block(struct backend *b, uint32_t block)
{
	bool hit;
	int32_t id = read_buffer(b, block, &hit);
	if (id < 0)
		fail("read_buffer", id);
	return id;
}

/* SELECT abalance ...: read the tuple of one block, as an index probe would. */
static uint64_t select_block(struct backend *b, uint32_t block)
{
	int32_t id = pin_block(b, block);
	const uint64_t *w = tuple(b, id, block);
	uint64_t sum = 0;
	for (int i = 0; i < 8; i++)
		sum += w[i];
	release_buffer(b, id);
	return sum;
}

static uint64_t txn_select_only(struct backend *b, uint32_t nblocks)
{
	return select_block(b, (uint32_t)(next_random() % nblocks));
}

/* UPDATE accounts ...; SELECT abalance ...: modify a block, then read it back. */
static uint64_t txn_simple_update(struct backend *b, uint32_t nblocks)
{
	uint32_t block = (uint32_t)(next_random() % nblocks);
	int32_t id = pin_block(b, block);
	buffer_lock_content(b, id);
	(*tuple(b, id, block))++;
	mark_buffer_dirty(b, id);
	buffer_unlock_content(b, id);
	release_buffer(b, id);
	return select_block(b, block);
}

static void point_stats(struct backend *b, struct backend_stats *st, bool instrument)
{
	b->st = st;
	b->strategy_lock.stats = instrument ? &st->strategy : NULL;
	b->mapping_stats = instrument ? &st->mapping : NULL;
}

static double tv_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/* What the kernel counted for this process between r0 and r1, into st. */
static void add_rusage(struct backend_stats *st, const struct rusage *r0, const struct rusage *r1)
{
	st->minflt += r1->ru_minflt - r0->ru_minflt;
	st->majflt += r1->ru_majflt - r0->ru_majflt;
	st->nvcsw += r1->ru_nvcsw - r0->ru_nvcsw;
	st->nivcsw += r1->ru_nivcsw - r0->ru_nivcsw;
	st->utime_s += tv_s(r1->ru_utime) - tv_s(r0->ru_utime);
	st->stime_s += tv_s(r1->ru_stime) - tv_s(r0->ru_stime);
}

static void prefault_descriptors(struct pool *p, struct backend_stats *st)
{
	struct prefault_cost c;
	mitigation_prefault(p->descs, (size_t)p->ctl->cfg.nbuffers * sizeof(struct buf_desc), &c);
	if (c.err) {
		fprintf(stderr, "bufbench: client pid %d: --mitigation prefault: "
			"madvise(MADV_POPULATE_READ): %s (Linux 5.14 or later)\n", (int)getpid(),
			strerror(c.err));
		_exit(EXIT_MITIGATION);
	}
	st->prefault_calls++;
	st->prefault_ns += c.ns;
	if (c.ns > st->prefault_max_ns)
		st->prefault_max_ns = c.ns;
	st->prefault_cpu_ns += c.cpu_ns;
	st->prefault_pages += c.pages;
	st->prefault_pte_kb += c.pte_kb > 0 ? c.pte_kb : 0;
}

/* Map every page of [p, p + n) writable in this process, values kept. */
static void touch_for_write(void *p, size_t n)
{
	char *c = p;
	for (size_t off = 0; off < n; off += 4096)
		__atomic_fetch_add(&c[off], 0, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c[n - 1], 0, __ATOMIC_RELAXED);
}

_Noreturn void bench_client(struct pool *p, const struct bench_opts *o, uint32_t slot,
			    uint32_t incarnation)
{
	struct backend b;
	struct backend_stats scratch;
	struct backend_stats *shared = &p->stats[slot];
	struct backend_stats *steady = &p->stats_steady[slot];
	uint32_t *timeline = p->timeline + (size_t)slot * TIMELINE_MAX;
	struct rusage r0, r1;
	bool measuring = false, filled = false;
	uint64_t start = 0, step = 1;
	pid_t parent = getppid();
	long done = 0;
	volatile uint64_t sink = 0;
	uint32_t nblocks = p->ctl->cfg.relation_blocks;

	/*
	 * --mitigation prefault: first thing after fork, as a PostgreSQL
	 * backend would at its start, before it can take any lock.  Only the
	 * descriptors: they are what the strategy lock's holds touch.
	 */
	if (o->mitigation.kind == MIT_PREFAULT)
		prefault_descriptors(p, shared);
	/*
	 * The lock's counters are written inside the hold, into this slot's
	 * fill and steady stats, which the client switches to mid-run.  A
	 * first write to one of their pages would be a first-touch fault
	 * inside a hold that the instrument made, not the buffer manager:
	 * take those faults now, before any lock.
	 */
	touch_for_write(shared, sizeof(*shared));
	touch_for_write(steady, sizeof(*steady));
	memset(&scratch, 0, sizeof(scratch));
	memset(&r0, 0, sizeof(r0));
	rng = o->seed * 0x100000001b3ull + slot * 7919u + incarnation * 104729u;
	backend_attach(&b, p, slot, o->instrument);
	point_stats(&b, &scratch, o->instrument);
	struct hold_events ev;
	if (o->hold_events) {
		char err[256];
		if (hold_events_open(&ev, o->hold_events, err, sizeof(err)) != 0) {
			fprintf(stderr, "bufbench: --hold-events: %s\n", err);
			_exit(EXIT_HOLD_EVENTS);
		}
		b.strategy_lock.events = &ev;
	}
	if (o->trace_holds) {
		b.strategy_lock.trace = hold_ring_at(o->hold_rings, o->trace_holds, slot);
		b.strategy_lock.trace->cur.pid = (int32_t)getpid();
	}
	spin_backend_start(&p->ctl->spin, (uint32_t)next_random() | 1u);
	if (o->lock == LOCK_RSEQ) {
		char err[256];
		if (rseq_slice_enable(err, sizeof(err)) != 0) {
			fprintf(stderr, "bufbench: --lock rseq: %s\n", err);
			_exit(EXIT_RSEQ);
		}
	}

	if (o->reentrant_hz)
		start_reentrant_signal(&b, p, o->reentrant_hz);
	/* Sleep until every client exists (pool.h, PHASE_FORKING). */
	while (__atomic_load_n(&p->ctl->phase, __ATOMIC_ACQUIRE) == PHASE_FORKING)
		syscall(SYS_futex, &p->ctl->phase, FUTEX_WAIT, PHASE_FORKING, NULL, NULL, 0);

	for (;;) {
		int phase = __atomic_load_n(&p->ctl->phase, __ATOMIC_ACQUIRE);
		if (phase == PHASE_STOP)
			break;
		if (phase == PHASE_MEASURE && !measuring) {
			getrusage(RUSAGE_SELF, &r0);
			start = p->ctl->measure_start_ns;
			step = p->ctl->timeline_step_ns;
			filled = strategy_fill_ns(&p->ctl->strategy) != 0;
			point_stats(&b, filled ? steady : shared, o->instrument);
			measuring = true;
		}
		if (measuring && !filled && strategy_fill_ns(&p->ctl->strategy) != 0) {
			getrusage(RUSAGE_SELF, &r1);
			add_rusage(shared, &r0, &r1);
			r0 = r1;
			point_stats(&b, steady, o->instrument);
			filled = true;
		}
		/* PR_SET_PDEATHSIG covers a dead parent; this covers the race at fork. */
		if ((done & 1023) == 0 && getppid() != parent)
			_exit(EXIT_RUN_FAILED);
		uint64_t t0 = clock_ns();
		sink += o->workload == WL_SIMPLE_UPDATE ? txn_simple_update(&b, nblocks) :
							  txn_select_only(&b, nblocks);
		uint64_t t1 = clock_ns(), lat = t1 - t0;
		if (measuring && (t1 - start) / step < TIMELINE_MAX)
			timeline[(t1 - start) / step]++;
		b.st->transactions++;
		b.st->lat_sum_ns += lat;
		b.st->lat_hist[lat_bucket(lat)]++;
		if (lat > b.st->lat_max_ns)
			b.st->lat_max_ns = lat;
		if (++done >= o->reconnect && o->reconnect)
			break;
	}

	getrusage(RUSAGE_SELF, &r1);
	if (measuring)
		add_rusage(filled ? steady : shared, &r0, &r1);
	shared->minflt_total += r1.ru_minflt;
	shared->processes++;
	if (o->pages == PAGES_THP) {
		long kb = smaps_pmd_mapped_kb(p->ctl);
		if (kb > shared->pmd_mapped_kb)
			shared->pmd_mapped_kb = kb;
	}
	spin_backend_exit(&p->ctl->spin);
	_exit(__atomic_load_n(&p->ctl->phase, __ATOMIC_ACQUIRE) == PHASE_STOP ? 0 : EXIT_RECONNECT);
}
