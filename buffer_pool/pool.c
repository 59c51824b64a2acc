#include "pool.h"

#include <string.h>

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

/* Everything before the blocks; the blocks start on a page boundary. */
static void layout(const struct pool_config *cfg, struct pool_ctl *out)
{
	size_t off = align_up(sizeof(struct pool_ctl), 64);
	out->descs_off = off;
	off += (size_t)cfg->nbuffers * sizeof(struct buf_desc);
	out->table_off = off = align_up(off, 64);
	off += buf_table_size(cfg->nbuffers);
	out->stats_off = off = align_up(off, 64);
	off += 2 * (size_t)cfg->max_backends * sizeof(struct backend_stats);
	out->mcs_off = off = align_up(off, 64);
	off += (size_t)cfg->max_backends * sizeof(struct mcs_node);
	out->timeline_off = off = align_up(off, 64);
	off += (size_t)cfg->max_backends * TIMELINE_MAX * sizeof(uint32_t);
	out->blocks_off = align_up(off, 4096);
}

size_t pool_segment_size(const struct pool_config *cfg)
{
	struct pool_ctl l;
	layout(cfg, &l);
	return l.blocks_off + (size_t)cfg->nbuffers * BLCKSZ;
}

static void attach(struct pool *p, void *base)
{
	char *b = base;
	p->ctl = base;
	p->descs = (struct buf_desc *)(b + p->ctl->descs_off);
	p->table = (struct buf_table *)(b + p->ctl->table_off);
	p->stats = (struct backend_stats *)(b + p->ctl->stats_off);
	p->stats_steady = p->stats + p->ctl->cfg.max_backends;
	p->mcs = (struct mcs_node *)(b + p->ctl->mcs_off);
	p->timeline = (uint32_t *)(b + p->ctl->timeline_off);
	p->blocks = b + p->ctl->blocks_off;
}

void pool_init(struct pool *p, void *base, const struct pool_config *cfg, int relation_fd)
{
	struct pool_ctl *ctl = base;
	memset(ctl, 0, sizeof(*ctl));
	ctl->cfg = *cfg;
	ctl->relation_fd = relation_fd;
	layout(cfg, ctl);
	spin_shared_init(&ctl->spin, cfg->stuck_limit);
	spin_shared_fix(&ctl->spin, cfg->fixed_spins_per_delay);
	attach(p, base);
	for (uint32_t i = 0; i < cfg->nbuffers; i++) {
		struct buf_desc *d = &p->descs[i];
		memset(d, 0, sizeof(*d));
		d->tag = BLOCK_INVALID;
		d->buf_id = (int32_t)i;
	}
	buf_table_init(p->table, cfg->nbuffers);
	strategy_init(&ctl->strategy, cfg->strategy, cfg->strategy_parts, cfg->freelist_stride,
		      cfg->lock, p->descs, cfg->nbuffers);
	ctl->strategy.touch_before_lock = cfg->touch_before_lock;
	/* Blocks are left untouched: backends fault them in themselves. */
}
