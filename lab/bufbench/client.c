/*
 * One client process: a backend that runs transactions until told to stop.
 *
 * It counts into a private scratch area during warm-up and into its shared
 * stats slot once the parent declares the measured interval, so that the
 * parent never has to reset counters that another process is writing.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bufbench.h"
#include "bufmgr.h"
#include "clock.h"
#include "rseq_slice.h"

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

_Noreturn void bench_client(struct pool *p, const struct bench_opts *o, uint32_t slot,
			    uint32_t incarnation)
{
	struct backend b;
	struct backend_stats scratch;
	struct backend_stats *shared = &p->stats[slot];
	struct rusage r0, r1;
	bool measuring = false;
	long done = 0;
	volatile uint64_t sink = 0;
	uint32_t nblocks = p->ctl->cfg.relation_blocks;

	memset(&scratch, 0, sizeof(scratch));
	memset(&r0, 0, sizeof(r0));
	rng = o->seed * 0x100000001b3ull + slot * 7919u + incarnation * 104729u;
	backend_attach(&b, p, slot, o->instrument);
	point_stats(&b, &scratch, o->instrument);
	struct hold_events ev;
	if (o->hold_events) {
		char err[256];
		if (hold_events_open(&ev, err, sizeof(err)) != 0) {
			fprintf(stderr, "bufbench: --hold-events: %s\n", err);
			_exit(EXIT_HOLD_EVENTS);
		}
		b.strategy_lock.events = &ev;
	}
	spin_backend_start(&p->ctl->spin, (uint32_t)next_random() | 1u);
	if (o->lock == LOCK_RSEQ) {
		char err[256];
		if (rseq_slice_enable(err, sizeof(err)) != 0) {
			fprintf(stderr, "bufbench: --lock rseq: %s\n", err);
			_exit(EXIT_RSEQ);
		}
	}

	for (;;) {
		int phase = __atomic_load_n(&p->ctl->phase, __ATOMIC_ACQUIRE);
		if (phase == PHASE_STOP)
			break;
		if (phase == PHASE_MEASURE && !measuring) {
			getrusage(RUSAGE_SELF, &r0);
			point_stats(&b, shared, o->instrument);
			measuring = true;
		}
		uint64_t t0 = clock_ns();
		sink += o->workload == WL_SIMPLE_UPDATE ? txn_simple_update(&b, nblocks) :
							  txn_select_only(&b, nblocks);
		uint64_t lat = clock_ns() - t0;
		b.st->transactions++;
		b.st->lat_sum_ns += lat;
		b.st->lat_hist[lat_bucket(lat)]++;
		if (lat > b.st->lat_max_ns)
			b.st->lat_max_ns = lat;
		if (o->reconnect && ++done >= o->reconnect)
			break;
	}

	getrusage(RUSAGE_SELF, &r1);
	if (measuring) {
		shared->minflt += r1.ru_minflt - r0.ru_minflt;
		shared->majflt += r1.ru_majflt - r0.ru_majflt;
		shared->nvcsw += r1.ru_nvcsw - r0.ru_nvcsw;
		shared->nivcsw += r1.ru_nivcsw - r0.ru_nivcsw;
		shared->utime_s += tv_s(r1.ru_utime) - tv_s(r0.ru_utime);
		shared->stime_s += tv_s(r1.ru_stime) - tv_s(r0.ru_stime);
	}
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
