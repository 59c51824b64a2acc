#include "hold_trace.h"

size_t hold_ring_bytes(uint32_t cap)
{
	size_t b = sizeof(struct hold_ring) + (size_t)cap * sizeof(struct hold_rec);
	return (b + 63) & ~(size_t)63;
}

struct hold_ring *hold_ring_at(void *base, uint32_t cap, uint32_t slot)
{
	return (struct hold_ring *)((char *)base + hold_ring_bytes(cap) * slot);
}

void hold_ring_push(struct hold_ring *r, const struct hold_rec *h)
{
	if (!__atomic_load_n(&r->recording, __ATOMIC_RELAXED))
		return;
	if (r->n < r->cap)
		r->rec[r->n++] = *h;
	else
		r->dropped++;
}
