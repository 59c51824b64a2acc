/* A small pool in a shared segment, for the buffer pool tests. */
#ifndef PREEMPTLAB_BP_FIXTURE_H
#define PREEMPTLAB_BP_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bufmgr.h"
#include "shmem.h"

static inline struct pool *fixture_pool(uint32_t nbuffers, uint32_t relation_blocks,
					enum strategy_kind kind, uint32_t parts,
					uint32_t backends, struct shmem_seg *seg)
{
	char err[256];
	static struct pool p;
	struct pool_config cfg = { nbuffers, relation_blocks, backends, kind, parts, LOCK_TAS, 0, 1, 0, 0 };
	int fd = memfd_create("test-relation", 0);
	if (fd < 0 || ftruncate(fd, (off_t)relation_blocks * BLCKSZ) != 0 ||
	    shmem_create(seg, pool_segment_size(&cfg), PAGES_4K, "none", err, sizeof(err)) != 0) {
		fprintf(stderr, "fixture: %s\n", err);
		exit(1);
	}
	pool_init(&p, seg->base, &cfg, fd);
	return &p;
}

#endif
