#include "lockstats.h"

void lockstats_add(struct lockstats *sum, const struct lockstats *s)
{
	sum->acquisitions += s->acquisitions;
	sum->contended += s->contended;
	sum->spins += s->spins;
	sum->sleeps += s->sleeps;
	sum->sleep_ns += s->sleep_ns;
	sum->wait_ns += s->wait_ns;
	sum->hold_ns += s->hold_ns;
	sum->rseq_grants += s->rseq_grants;
	sum->rseq_yields += s->rseq_yields;
	sum->rseq_revoked += s->rseq_revoked;
	sum->aa_detected += s->aa_detected;
	sum->timeouts += s->timeouts;
	sum->holds_with_fault += s->holds_with_fault;
	sum->holds_with_switch += s->holds_with_switch;
	sum->fault_hold_ns += s->fault_hold_ns;
	sum->switch_hold_ns += s->switch_hold_ns;
	if (s->max_wait_ns > sum->max_wait_ns)
		sum->max_wait_ns = s->max_wait_ns;
	if (s->max_hold_ns > sum->max_hold_ns)
		sum->max_hold_ns = s->max_hold_ns;
	for (int i = 0; i < LOCKSTATS_BUCKETS; i++) {
		sum->hold_hist[i] += s->hold_hist[i];
		sum->wait_hist[i] += s->wait_hist[i];
		sum->switch_hold_hist[i] += s->switch_hold_hist[i];
	}
}
