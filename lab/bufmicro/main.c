/*
 * bufmicro: what the lab's own machinery costs, uncontended, in one
 * process: a buffer hit (lookup, pin, unpin), and one acquire/release of
 * each strategy lock kind with and without instrumentation.  These are
 * the floors under every bufbench number, printed as one JSON document.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bufmgr.h"
#include "clock.h"
#include "json.h"
#include "provenance.h"
#include "shmem.h"

#define ITERS 2000000

/* Instrumentation is mostly clock reads: their cost explains its cost. */
static double clock_read_ns(void)
{
	volatile uint64_t sink = 0;
	uint64_t t0 = clock_ns();
	for (int i = 0; i < ITERS; i++)
		sink += clock_ns();
	(void)sink;
	return (double)(clock_ns() - t0) / ITERS;
}

static double hit_ns(struct pool *p, bool instrument)
{
	struct backend b;
	bool hit;
	backend_attach(&b, p, 0, instrument);
	int32_t id = read_buffer(&b, 7, &hit);	/* bring it in once */
	release_buffer(&b, id);
	uint64_t t0 = clock_ns();
	for (int i = 0; i < ITERS; i++) {
		id = read_buffer(&b, 7, &hit);
		release_buffer(&b, id);
	}
	return (double)(clock_ns() - t0) / ITERS;
}

static double lock_ns(enum lab_lock_kind kind, struct mcs_node *nodes, bool instrument)
{
	static struct lab_lock l;
	struct lockstats s;
	memset(&s, 0, sizeof(s));
	struct lock_ctx c = { instrument ? &s : NULL, nodes, 0, 0, "micro", NULL, NULL, 0 };
	lab_lock_init(&l, kind);
	uint64_t t0 = clock_ns();
	for (int i = 0; i < ITERS; i++) {
		lab_lock_acquire(&l, &c);
		lab_lock_release(&l, &c);
	}
	return (double)(clock_ns() - t0) / ITERS;
}

int main(int argc, char **argv)
{
	struct shmem_seg seg;
	struct provenance prov;
	struct pool p;
	char err[256];
	struct pool_config cfg = { 1024, 4096, 1, STRATEGY_PG, 1, LOCK_TAS, 0, 1, 0, 0 };
	int fd = memfd_create("bufmicro", 0);

	if (fd < 0 || ftruncate(fd, (off_t)cfg.relation_blocks * BLCKSZ) != 0 ||
	    shmem_create(&seg, pool_segment_size(&cfg), PAGES_4K, "none", err, sizeof(err)) != 0) {
		fprintf(stderr, "bufmicro: %s\n", err);
		return 1;
	}
	pool_init(&p, seg.base, &cfg, fd);
	prov_collect(&prov, argc, argv);
	snprintf(prov.page_policy, sizeof(prov.page_policy), "4k");
	prov.page_size_kb = seg.page_size_kb;
	snprintf(prov.page_size_source, sizeof(prov.page_size_source), "%s", seg.page_size_source);
	snprintf(prov.lock, sizeof(prov.lock), "all");
	snprintf(prov.strategy, sizeof(prov.strategy), "pg");

	struct json j;
	json_init(&j, stdout);
	json_begin_object(&j, NULL);
	json_str(&j, "tool", "bufmicro");
	json_str(&j, "schema", "preemptlab.bufmicro/1");
	prov_write(&j, &prov);
	json_begin_object(&j, "results");
	json_int(&j, "iterations", ITERS);
	json_double(&j, "clock_read_ns", clock_read_ns());
	json_double(&j, "buffer_hit_ns", hit_ns(&p, false));
	json_double(&j, "buffer_hit_instrumented_ns", hit_ns(&p, true));
	json_begin_object(&j, "lock_acquire_release_ns");
	for (int k = LOCK_TAS; k <= LOCK_MCS; k++) {
		if (k == LOCK_RSEQ)
			continue;	/* needs a kernel with the extension: see bufbench --lock rseq */
		char key[32];
		snprintf(key, sizeof(key), "%s", lab_lock_kind_name((enum lab_lock_kind)k));
		json_double(&j, key, lock_ns((enum lab_lock_kind)k, p.mcs, false));
		snprintf(key, sizeof(key), "%s_instrumented", lab_lock_kind_name((enum lab_lock_kind)k));
		json_double(&j, key, lock_ns((enum lab_lock_kind)k, p.mcs, true));
	}
	json_end_object(&j);
	json_end_object(&j);
	json_end_object(&j);
	json_finish(&j);
	shmem_destroy(&seg);
	return 0;
}
