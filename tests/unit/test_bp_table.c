/*
 * The mapping table under concurrent misses from many processes: every
 * page read matches its block (no buffer mapped to the wrong block), no
 * block is mapped twice, no mapping is lost, and every pin is returned.
 * And the table's capacity: every resident block can hash to one
 * partition, and every partition can hold one insert in flight.
 */
#include <string.h>
#include <sys/wait.h>

#include "bp_fixture.h"
#include "check.h"

/* The shape of one stress run. */
struct shape {
	int nbuf;
	uint32_t nblocks;
	int procs;
	int reads;
};

#define MAX_BLOCKS 32768

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	return x ^ (x >> 33);
}

static void client(struct pool *p, const struct shape *sh, uint32_t me, uint64_t *wrong,
		   int update)
{
	struct backend b;
	backend_attach(&b, p, me, true);
	for (uint64_t i = 0; i < (uint64_t)sh->reads; i++) {
		uint32_t block = (uint32_t)(mix(i * (uint64_t)sh->procs + me + 1) % sh->nblocks);
		bool hit;
		int32_t id = read_buffer(&b, block, &hit);
		if (id < 0)
			_exit(3);
		uint32_t *stamp = (uint32_t *)pool_page(p, id);
		if (stamp[0] != block)
			__atomic_fetch_add(wrong, 1, __ATOMIC_RELAXED);
		if (update) {
			/* Dirty the page: eviction must write it back intact. */
			buffer_lock_content(&b, id);
			stamp[1]++;
			mark_buffer_dirty(&b, id);
			buffer_unlock_content(&b, id);
		}
		release_buffer(&b, id);
	}
	_exit(0);
}

static void run(const struct shape *sh, int update)
{
	struct shmem_seg seg;
	struct pool *p = fixture_pool((uint32_t)sh->nbuf, sh->nblocks, STRATEGY_PG, 1, (uint32_t)sh->procs, &seg);
	const char *mode = update ? "with writes" : "read-only";
	uint64_t *wrong = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	/* Stamp every block with its number, as a data file would hold. */
	char page[BLCKSZ];
	memset(page, 0, sizeof(page));
	for (uint32_t blk = 0; blk < sh->nblocks; blk++) {
		memcpy(page, &blk, sizeof(blk));
		if (pwrite(p->ctl->relation_fd, page, BLCKSZ, (off_t)blk * BLCKSZ) != BLCKSZ)
			exit(1);
	}
	*wrong = 0;
	int clean = 1;
	for (uint32_t i = 0; i < (uint32_t)sh->procs; i++)
		if (fork() == 0)
			client(p, sh, i, wrong, update);
	for (int i = 0; i < sh->procs; i++) {
		int st;
		wait(&st);
		clean &= WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	CHECK(clean, "%s: %d clients finished %d reads each", mode, sh->procs, sh->reads);
	CHECK(*wrong == 0, "%s: every page read held its own block (%llu wrong)", mode,
	      (unsigned long long)*wrong);

	int mapped = 0, lost = 0, dup = 0, pinned = 0;
	static int owner[MAX_BLOCKS];
	memset(owner, -1, sizeof(owner));
	for (int i = 0; i < sh->nbuf; i++) {
		struct buf_desc *d = &p->descs[i];
		pinned += BUF_REFCOUNT(d->state) != 0;
		if (!(d->state & BM_TAG_VALID))
			continue;
		mapped++;
		if (owner[d->tag] >= 0)
			dup++;
		owner[d->tag] = i;
		uint32_t h = buf_table_hash(d->tag);
		if (buf_table_lookup(p->table, h, d->tag) != i)
			lost++;
	}
	uint32_t entries = 0;
	for (int i = 0; i < MAPPING_PARTITIONS; i++)
		entries += p->table->part[i].used;
	CHECK(mapped == sh->nbuf, "%s: all %d buffers hold a block (%d)", mode, sh->nbuf, mapped);
	CHECK(dup == 0, "%s: no block is in two buffers (%d)", mode, dup);
	CHECK(lost == 0 && entries == (uint32_t)mapped,
	      "%s: every buffer is found through the table, %u entries for %d buffers", mode,
	      entries, mapped);
	CHECK(pinned == 0, "%s: every pin was released (%d pinned)", mode, pinned);

	uint64_t evictions = 0, misses = 0;
	for (int i = 0; i < sh->procs; i++) {
		evictions += p->stats[i].evictions;
		misses += p->stats[i].misses;
	}
	CHECK(misses >= evictions && evictions > 0,
	      "%s: %llu misses caused %llu evictions", mode, (unsigned long long)misses,
	      (unsigned long long)evictions);

	if (update) {
		/* Sum of write counts on disk + in dirty buffers == updates done. */
		uint64_t total = 0;
		for (uint32_t blk = 0; blk < sh->nblocks; blk++) {
			int32_t id = owner[blk];
			const uint32_t *w;
			if (id >= 0 && (p->descs[id].state & BM_DIRTY)) {
				w = (const uint32_t *)pool_page(p, id);
			} else {
				if (pread(p->ctl->relation_fd, page, BLCKSZ, (off_t)blk * BLCKSZ) != BLCKSZ)
					exit(1);
				w = (const uint32_t *)page;
			}
			total += w[1];
		}
		CHECK(total == (uint64_t)sh->procs * (uint64_t)sh->reads,
		      "no update lost through eviction: %llu of %d", (unsigned long long)total,
		      sh->procs * sh->reads);
	}
	shmem_destroy(&seg);
}

/* Tags that hash to partition part, in increasing order from *from. */
static uint32_t next_tag_in(uint32_t part, uint32_t *from)
{
	while (buf_table_partition(buf_table_hash(*from)) != part)
		(*from)++;
	return (*from)++;
}

static void capacity(void)
{
	enum { N = 256 };
	size_t sz = buf_table_size(N);
	struct buf_table *t = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				   -1, 0);
	buf_table_init(t, N);

	/* A fixed share per partition (2 x mean + 32 = 36 here) failed at 37. */
	uint32_t from = 0, inserted = 0;
	for (int i = 0; i < N; i++) {
		uint32_t tag = next_tag_in(0, &from);
		inserted += buf_table_insert(t, buf_table_hash(tag), tag, i) == -1;
	}
	CHECK(inserted == N && t->part[0].used == N,
	      "all %d mapped blocks in one partition fit (%u inserted)", N, inserted);

	/* One insert-before-delete in flight in each partition at once. */
	uint32_t extra = 0;
	for (uint32_t part = 0; part < MAPPING_PARTITIONS; part++) {
		uint32_t f = 1u << 20, tag = next_tag_in(part, &f);
		extra += buf_table_insert(t, buf_table_hash(tag), tag, 0) == -1;
	}
	CHECK(extra == MAPPING_PARTITIONS && buf_table_entries_used(t) == N + MAPPING_PARTITIONS,
	      "then one more in each of the %d partitions (%u), %u entries in use",
	      MAPPING_PARTITIONS, extra, buf_table_entries_used(t));
	uint32_t f = 1u << 24, tag = next_tag_in(5, &f);
	CHECK(buf_table_insert(t, buf_table_hash(tag), tag, 0) == -2,
	      "the pool holds exactly nbuffers + partitions entries: one more is refused");

	/* Deletes give entries back to whichever partition asks next. */
	from = 0;
	for (int i = 0; i < N; i++) {
		uint32_t old = next_tag_in(0, &from);
		buf_table_delete(t, buf_table_hash(old), old);
	}
	uint32_t again = 0;
	f = 1u << 26;
	for (int i = 0; i < N; i++) {
		tag = next_tag_in(77, &f);
		again += buf_table_insert(t, buf_table_hash(tag), tag, i) == -1;
	}
	CHECK(again == N && t->part[0].used == 1 && t->part[77].used == N + 1,
	      "entries freed in partition 0 serve partition 77 (%u inserted)", again);
	munmap(t, sz);
}

int main(void)
{
	static const struct shape few = { 64, 1024, 8, 20000 };
	/*
	 * Many processes on a small pool: under this contention the resident
	 * blocks gather in the partition lock_two takes first (36 of 256 in
	 * partition 0, all pinned by waiting evictors; reversing the lock
	 * order moves the pile to partition 127: buffer_pool/README), which
	 * overflowed a fixed share of 2 x mean + 32 = 36 in 4 of 7 runs of
	 * this shape with 3,000 reads each.
	 */
	static const struct shape many = { 256, MAX_BLOCKS, 96, 1500 };
	capacity();
	run(&few, 0);
	run(&few, 1);
	run(&many, 1);
	return CHECK_DONE();
}
