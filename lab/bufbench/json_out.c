/* The bufbench result document; its schema is docs/json.md. */
#include "bufbench.h"
#include "evidence_json.h"

static void write_hist(struct json *j, const char *key, const uint64_t *h)
{
	json_begin_array(j, key);
	for (int i = 0; i < LOCKSTATS_BUCKETS; i++)
		json_uint(j, NULL, h[i]);
	json_end_array(j);
}

static void write_lock(struct json *j, const char *key, const struct lockstats *s)
{
	json_begin_object(j, key);
	json_uint(j, "acquisitions", s->acquisitions);
	json_uint(j, "contended", s->contended);
	json_uint(j, "spins", s->spins);
	json_uint(j, "sleeps", s->sleeps);
	json_uint(j, "sleep_ns", s->sleep_ns);
	json_uint(j, "wait_ns", s->wait_ns);
	json_uint(j, "hold_ns", s->hold_ns);
	json_uint(j, "max_hold_ns", s->max_hold_ns);
	json_uint(j, "max_wait_ns", s->max_wait_ns);
	json_uint(j, "rseq_grants", s->rseq_grants);
	json_uint(j, "rseq_yields", s->rseq_yields);
	json_uint(j, "rseq_revoked", s->rseq_revoked);
	json_uint(j, "aa_detected", s->aa_detected);
	json_uint(j, "timeouts", s->timeouts);
	write_hist(j, "hold_hist", s->hold_hist);
	write_hist(j, "wait_hist", s->wait_hist);
	json_uint(j, "holds_with_fault", s->holds_with_fault);
	json_uint(j, "holds_with_switch", s->holds_with_switch);
	json_uint(j, "fault_hold_ns", s->fault_hold_ns);
	json_uint(j, "switch_hold_ns", s->switch_hold_ns);
	write_hist(j, "switch_hold_hist", s->switch_hold_hist);
	json_end_object(j);
}

static double per(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/*
 * The two shares (docs/json.md).  wait_share: the strategy lock's wait,
 * wall clock, over the clients' time; sleeps and run-queue time count, so
 * it is not CPU.  cpu_spin_share: spin iterations times the measured cost
 * of one (provenance.spin_cost_ns) over the clients' CPU time: comparable
 * with a profile's share of s_lock.  Before issue 24 wait_share was named
 * spin_share.
 */
static void write_shares(struct json *j, const struct backend_stats *s, double clients_s,
			 const struct provenance *prov)
{
	json_double(j, "wait_share", per((double)s->strategy.wait_ns / 1e9, clients_s));
	double cpu_s = s->utime_s + s->stime_s;
	if (prov->spin_cost_ns > 0 && cpu_s > 0)
		json_double(j, "cpu_spin_share",
			    (double)s->strategy.spins * prov->spin_cost_ns / 1e9 / cpu_s);
	else
		json_null(j, "cpu_spin_share");
}

/* T_tail of one phase (hold_tail.h); null without hold records. */
static void write_tail(struct json *j, const struct bench_phase *ph)
{
	if (!ph->tail_valid) {
		json_null(j, "t_tail");
		return;
	}
	const struct hold_tail *t = &ph->tail;
	json_begin_object(j, "t_tail");
	json_uint(j, "gaps", t->gaps);
	json_uint(j, "count", t->count);
	json_double(j, "mean_us", t->mean_ns / 1e3);
	json_double(j, "p50_us", t->p50_ns / 1e3);
	json_double(j, "p99_us", t->p99_ns / 1e3);
	json_double(j, "max_us", t->max_ns / 1e3);
	json_double(j, "total_ms", (double)t->total_ns / 1e6);
	json_end_object(j);
}

/*
 * The strategy lock's utilisation rho = X m E[hold] (lock_util.h): E[hold]
 * from the hold records where they were kept, else from lockstats; the
 * source says which.  Null without counted acquisitions (--no-instrument).
 */
static void write_util(struct json *j, const struct bench_phase *ph)
{
	struct lock_util u = ph->util;
	if (u.source == UTIL_NONE)
		lock_util_from_stats(ph->sum.strategy.hold_ns, ph->sum.strategy.acquisitions,
				     ph->duration_s, &u);
	if (u.source == UTIL_NONE) {
		json_null(j, "rho");
		return;
	}
	json_begin_object(j, "rho");
	json_double(j, "value", u.rho);
	json_str(j, "source", lock_util_source_name(u.source));
	json_double(j, "acquisitions_per_s", u.acq_per_s);
	json_double(j, "mean_hold_us", u.mean_hold_ns / 1e3);
	json_uint(j, "holds", u.holds);
	json_end_object(j);
}

/*
 * --mitigation prefault: what it cost each backend (docs/mitigations.md):
 * wall clock (ms_*, ns_per_page) and the thread's CPU time (cpu_*).
 * pte_bytes is the arithmetic (8 bytes of PTE per base page populated);
 * vm_pte_kb_mean what the kernel's VmPTE grew by, in whole 4 KB
 * page-table pages, so 0 or 4 for a range under 2 MB.
 */
static void write_prefault(struct json *j, const struct bench_opts *o, const struct backend_stats *s)
{
	if (o->mitigation.kind != MIT_PREFAULT || !s->prefault_calls) {
		json_null(j, "prefault");
		return;
	}
	double n = (double)s->prefault_calls;
	json_begin_object(j, "prefault");
	json_uint(j, "backends", s->prefault_calls);
	json_double(j, "ms_mean", (double)s->prefault_ns / n / 1e6);
	json_double(j, "ms_max", (double)s->prefault_max_ns / 1e6);
	json_uint(j, "pages", s->prefault_pages / s->prefault_calls);
	json_uint(j, "pte_bytes", s->prefault_pages / s->prefault_calls * 8);
	json_double(j, "vm_pte_kb_mean", (double)s->prefault_pte_kb / n);
	json_double(j, "ns_per_page", per((double)s->prefault_ns, (double)s->prefault_pages));
	/* CPU time: what populating costs, without the waits of a loaded machine. */
	json_double(j, "cpu_ms_mean", (double)s->prefault_cpu_ns / n / 1e6);
	json_double(j, "cpu_ns_per_page", per((double)s->prefault_cpu_ns, (double)s->prefault_pages));
	json_end_object(j);
}

/* One phase of the run (phases.c): the same figures as the whole run's. */
static void write_phase(struct json *j, const char *name, const struct bench_phase *ph,
			const struct bench_opts *o, const struct provenance *prov)
{
	const struct backend_stats *s = &ph->sum;
	double txn = (double)s->transactions;

	json_begin_object(j, NULL);
	json_str(j, "name", name);
	json_double(j, "start_s", ph->start_s);
	json_double(j, "duration_s", ph->duration_s);
	json_uint(j, "transactions", s->transactions);
	json_double(j, "tps", per(txn, ph->duration_s));
	write_shares(j, s, o->clients * ph->duration_s, prov);
	write_util(j, ph);
	write_tail(j, ph);
	json_begin_object(j, "waiter_sleeps");
	json_uint(j, "count", s->strategy.sleeps);
	json_double(j, "total_ms", (double)s->strategy.sleep_ns / 1e6);
	json_end_object(j);
	json_uint(j, "hits", s->hits);
	json_uint(j, "misses", s->misses);
	json_int(j, "minor_faults", s->minflt);
	json_int(j, "ivcsw", s->nivcsw);
	json_double(j, "latency_p99_us", lat_quantile(s->lat_hist, 0.99) / 1e3);
	write_lock(j, "strategy", &s->strategy);
	json_end_object(j);
}

static void write_phases(struct json *j, const struct bench_opts *o, const struct bench_result *r,
			 const struct provenance *prov)
{
	json_str(j, "fill_state", fill_state_name(r->fill));
	if (r->time_to_fill_s >= 0)
		json_double(j, "time_to_fill_s", r->time_to_fill_s);
	else
		json_null(j, "time_to_fill_s");
	json_begin_array(j, "phases");
	if (r->phase[PHASE_FILL].present)
		write_phase(j, "fill", &r->phase[PHASE_FILL], o, prov);
	if (r->phase[PHASE_STEADY].present)
		write_phase(j, "steady", &r->phase[PHASE_STEADY], o, prov);
	json_end_array(j);
	json_begin_object(j, "timeline");
	json_double(j, "step_s", r->timeline_step_s);
	json_begin_array(j, "transactions");
	for (uint32_t i = 0; i < r->timeline_len; i++)
		json_uint(j, NULL, r->timeline[i]);
	json_end_array(j);
	json_end_object(j);
}

/* --trace-holds (docs/evidence.md); null when off. */
static void write_evidence(struct json *j, const struct bench_evidence *ev)
{
	if (!ev || !ev->on) {
		json_null(j, "evidence");
		return;
	}
	json_begin_object(j, "evidence");
	json_str(j, "source", "tracefs");
	json_str(j, "tracefs_instance", ev->tracefs);
	json_str(j, "trace_clock", "mono");
	json_str(j, "fault_event", ev->fault_event ? ev->fault_event : "");
	json_int(j, "timestamp_resolution_ns", evidence_resolution_ns(ev->phase));
	json_double(j, "window_s", ev->window_s);
	json_uint(j, "holds_recorded", ev->holds_recorded);
	json_uint(j, "holds_dropped", ev->holds_dropped);
	json_uint(j, "trace_events", ev->trace_events);
	json_uint(j, "trace_stacks", ev->trace_stacks);
	json_uint(j, "trace_lost", ev->trace_lost);
	json_begin_array(j, "phases");
	if (ev->phase[0].holds)
		evidence_phase_json(j, "fill", &ev->phase[0]);
	if (ev->phase[1].holds)
		evidence_phase_json(j, "steady", &ev->phase[1]);
	json_end_array(j);
	json_end_object(j);
}

void bench_write_json(FILE *out, const struct bench_opts *o, const struct provenance *prov,
		      const struct shmem_seg *seg, const struct pool_config *cfg,
		      const struct bench_result *r, const struct bench_evidence *ev)
{
	struct json j;
	const struct backend_stats *s = &r->sum;
	double txn = (double)s->transactions;

	json_init(&j, out);
	json_begin_object(&j, NULL);
	json_str(&j, "tool", "bufbench");
	json_str(&j, "schema", "preemptlab.bufbench/1");

	json_begin_object(&j, "config");
	json_int(&j, "clients", o->clients);
	json_double(&j, "duration_s", o->duration_s);
	json_double(&j, "warmup_s", o->warmup_s);
	json_str(&j, "workload", workload_name(o->workload));
	json_uint(&j, "relation_pages", cfg->relation_blocks);
	json_uint(&j, "pool_pages", cfg->nbuffers);
	json_int(&j, "block_size", BLCKSZ);
	json_str(&j, "pages", page_policy_name(o->pages));
	json_str(&j, "lock", prov->lock);
	json_str(&j, "strategy", prov->strategy);
	json_str(&j, "mitigation", o->mitigation_name[0] ? o->mitigation_name : "none");
	json_str(&j, "numa", o->numa);
	json_int(&j, "reconnect", o->reconnect);
	json_uint(&j, "seed", o->seed);
	json_bool(&j, "instrument", o->instrument);
	json_bool(&j, "hold_events", o->hold_events != HOLD_EVENTS_OFF);
	json_str(&j, "hold_events_mode", hold_events_mode_name(o->hold_events));
	/*
	 * Instruments that made system calls between acquire and release: the
	 * report refuses to compare the timings of such a run (issue 24).
	 */
	json_begin_array(&j, "in_hold_syscalls");
	if (o->hold_events == HOLD_EVENTS_IN_HOLD)
		json_str(&j, NULL, "hold_events");
	json_end_array(&j);
	json_uint(&j, "trace_holds", o->trace_holds);
	json_bool(&j, "trace_kernel", o->trace_kernel);
	json_bool(&j, "trace_channel", o->trace_channel);
	json_uint(&j, "freeze_fault_ns", o->freeze_fault_ns);
	json_uint(&j, "freelist_stride", o->freelist_stride);
	json_double(&j, "lock_timeout_ms", o->lock_timeout_ms);
	/* "adaptive" (PostgreSQL's) or "fixed:N" (issue 36: the many-CPU regime). */
	char spd[32] = "adaptive";
	if (o->fixed_spins_per_delay > 0)
		snprintf(spd, sizeof(spd), "fixed:%d", o->fixed_spins_per_delay);
	json_str(&j, "spins_per_delay", spd);
	json_int(&j, "reentrant_signal_hz", o->reentrant_hz);
	json_double(&j, "steady_s", o->steady_s);
	json_uint(&j, "segment_bytes", seg->size);
	json_str(&j, "page_note", seg->note);
	json_end_object(&j);

	prov_write(&j, prov);

	json_begin_object(&j, "results");
	json_bool(&j, "interrupted", r->interrupted);
	json_str(&j, "error", r->error);
	json_double(&j, "elapsed_s", r->elapsed_s);
	json_uint(&j, "transactions", s->transactions);
	json_double(&j, "tps", per(txn, r->elapsed_s));
	json_begin_object(&j, "latency_us");
	json_double(&j, "mean", per((double)s->lat_sum_ns, txn) / 1e3);
	json_double(&j, "p50", lat_quantile(s->lat_hist, 0.50) / 1e3);
	json_double(&j, "p90", lat_quantile(s->lat_hist, 0.90) / 1e3);
	json_double(&j, "p99", lat_quantile(s->lat_hist, 0.99) / 1e3);
	json_double(&j, "p999", lat_quantile(s->lat_hist, 0.999) / 1e3);
	json_double(&j, "max", (double)s->lat_max_ns / 1e3);
	json_end_object(&j);
	json_uint(&j, "hits", s->hits);
	json_uint(&j, "misses", s->misses);
	json_uint(&j, "evictions", s->evictions);
	json_uint(&j, "writes", s->writes);
	json_int(&j, "minor_faults", s->minflt);
	json_int(&j, "major_faults", s->majflt);
	json_double(&j, "minor_faults_per_txn", per((double)s->minflt, txn));
	json_int(&j, "minor_faults_total", s->minflt_total);
	json_int(&j, "vcsw", s->nvcsw);
	json_int(&j, "ivcsw", s->nivcsw);
	json_double(&j, "vcsw_per_txn", per((double)s->nvcsw, txn));
	json_double(&j, "ivcsw_per_txn", per((double)s->nivcsw, txn));
	json_double(&j, "cpu_user_s", s->utime_s);
	json_double(&j, "cpu_sys_s", s->stime_s);
	write_shares(&j, s, o->clients * r->elapsed_s, prov);
	json_uint(&j, "processes", s->processes);
	json_uint(&j, "complete_passes", r->complete_passes);
	write_phases(&j, o, r, prov);
	/* The kernel's count over the measured interval, machine-wide. */
	if (r->kernel_rseq.valid) {
		json_begin_object(&j, "kernel_rseq");
		json_uint(&j, "granted", r->kernel_rseq.granted);
		json_uint(&j, "expired", r->kernel_rseq.expired);
		json_uint(&j, "revoked", r->kernel_rseq.revoked);
		json_uint(&j, "yielded", r->kernel_rseq.yielded);
		json_uint(&j, "aborted", r->kernel_rseq.aborted);
		json_end_object(&j);
	} else {
		json_null(&j, "kernel_rseq");
	}
	write_prefault(&j, o, s);
	json_begin_object(&j, "reentrant");
	json_uint(&j, "attempts", s->reentry.attempts);
	json_uint(&j, "acquired", s->reentry.acquired);
	json_uint(&j, "aa_detected", s->reentry.aa);
	json_uint(&j, "timeouts", s->reentry.timeouts);
	json_uint(&j, "deadlocks", s->reentry.deadlocks);
	json_double(&j, "mean_stall_us", per((double)s->reentry.stall_ns / 1e3,
					     (double)s->reentry.attempts));
	json_double(&j, "max_stall_us", (double)s->reentry.max_stall_ns / 1e3);
	json_end_object(&j);
	json_end_object(&j);
	write_evidence(&j, ev);

	json_begin_object(&j, "locks");
	write_lock(&j, "strategy", &s->strategy);
	write_lock(&j, "mapping", &s->mapping);
	json_end_object(&j);

	json_end_object(&j);
	json_finish(&j);
}
