#include "evidence_json.h"

#include <stdio.h>

#include "statistics.h"

static double per(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/* The scheduling class a prio names (sched_switch's next_prio). */
static const char *class_of(int prio)
{
	return prio < 0 ? "deadline" : prio < 100 ? "rt" : prio < 140 ? "fair" : "idle";
}

static void lat_json(struct json *j, const char *name, const struct census_lat *l)
{
	json_begin_object(j, name);
	json_uint(j, "n", l->n);
	json_uint(j, "total_ns", l->total_ns);
	json_uint(j, "max_ns", l->max_ns);
	json_begin_array(j, "hist_log2_us");
	for (int b = 0; b < CENSUS_LAT_BUCKETS; b++)
		json_uint(j, NULL, l->hist[b]);
	json_end_array(j);
	json_end_object(j);
}

/* The census (census.h): docs/evidence.md "The census". */
static void census_json(struct json *j, const struct census_phase *c)
{
	static const char *const route[CENSUS_ROUTES] = { "in_fault", "fault_exit",
							  "blocked_in_fault", "other" };
	json_begin_object(j, "census");
	json_uint(j, "holds", c->holds);
	json_uint(j, "lock_ns", c->lock_ns);
	json_uint(j, "hold_median_ns", c->hold_median_ns);
	json_uint(j, "fault_ref_ns", c->fault_ref_ns);
	json_str(j, "fault_ref_source", c->fault_ref_given ? "given" : "median undisturbed faulting hold");
	json_uint(j, "fault_ref_holds", c->fault_ref_n);
	json_begin_object(j, "freezes");
	static const char *const fk[2] = { "no_fault", "fault" };
	for (int f = 0; f < 2; f++) {
		json_begin_object(j, fk[f]);
		json_uint(j, "n", c->freeze_n[f]);
		json_uint(j, "ns", c->freeze_ns[f]);
		json_uint(j, "with_timer", c->freeze_ticked[f]);
		json_uint(j, "timer_interrupts", c->freeze_ticks[f]);
		json_end_object(j);
	}
	json_end_object(j);
	json_begin_object(j, "tail_by_acquirer");
	json_uint(j, "gaps", c->tail_gaps);
	json_uint(j, "ns", c->tail_ns);
	for (int s = 0; s < AQ_STATES; s++) {
		json_begin_object(j, acq_state_name((enum acq_state)s));
		json_uint(j, "n", c->tail_n[s]);
		json_uint(j, "ns", c->tail_state_ns[s]);
		json_end_object(j);
	}
	/* The releaser_again gaps by the state of the waiter waiting longest. */
	json_begin_object(j, "releaser_again_waiter");
	for (int s = 0; s < AQ_STATES; s++)
		if (s != AQ_SELF) {
			json_begin_object(j, acq_state_name((enum acq_state)s));
			json_uint(j, "n", c->self_waiter_n[s]);
			json_uint(j, "ns", c->self_waiter_ns[s]);
			json_end_object(j);
		}
	json_end_object(j);
	json_end_object(j);
	json_begin_object(j, "routes");
	for (int r = 0; r < CENSUS_ROUTES; r++) {
		json_begin_object(j, route[r]);
		json_uint(j, "n", c->route_n[r]);
		json_uint(j, "offcpu_ns", c->route_off_ns[r]);
		json_uint(j, "waiter_ns", c->route_waiter_ns[r]);
		json_end_object(j);
	}
	json_end_object(j);
	json_uint(j, "dstate_other_tasks", c->d_foreign);
	json_begin_object(j, "dstate");
	for (int d = 0; d < DW_CATS; d++) {
		json_begin_object(j, dwait_name((enum dwait_cat)d));
		json_uint(j, "n", c->d_n[d]);
		json_uint(j, "ns", c->d_ns[d]);
		json_uint(j, "in_hold", c->d_in_hold[d]);
		json_end_object(j);
	}
	json_end_object(j);
	json_begin_object(j, "folios");
	json_bool(j, "traced", c->folios_traced);
	json_uint(j, "waits", c->folio_waits);
	json_uint(j, "waits_other_tasks", c->folio_foreign);
	json_uint(j, "joined", c->folio_joined);
	json_uint(j, "self", c->folio_self);
	json_uint(j, "waiter_in_hold", c->folio_waiter_in_hold);
	json_uint(j, "holder_off_cpu", c->folio_holder_off);
	json_uint(j, "holder_preempted", c->folio_holder_preempted);
	json_uint(j, "holder_off_ns", c->folio_holder_off_ns);
	json_uint(j, "wait_ns", c->folio_wait_ns);
	json_end_object(j);
	json_begin_object(j, "wakeups");
	json_bool(j, "traced", c->wakes_traced);
	json_uint(j, "slept_in_fault", c->slept_in_fault);
	json_uint(j, "no_wake_seen", c->slept_no_wake);
	lat_json(j, "local", &c->wake[0]);
	lat_json(j, "remote", &c->wake[1]);
	json_end_object(j);
	json_begin_object(j, "ticks");
	json_bool(j, "traced", c->timer_traced);
	json_uint(j, "fault_holds", c->fault_holds);
	json_uint(j, "spanning_tick", c->fault_holds_ticked);
	json_end_object(j);
	json_end_object(j);
}

void evidence_phase_json(struct json *j, const char *name, const struct evidence_phase *e)
{
	json_begin_object(j, NULL);
	json_str(j, "name", name);
	json_uint(j, "holds", e->holds);
	json_uint(j, "holds_with_fault", e->holds_with_fault);
	json_uint(j, "holds_fault_off_filter", e->holds_fault_off_filter);
	json_uint(j, "holds_switched", e->holds_switched);
	json_begin_object(j, "switches");
	for (int k = 0; k < SW_KINDS; k++)
		json_uint(j, switch_kind_name((enum switch_kind)k), e->switches[k]);
	/* Preempted inside the fault handler: irq + preempt (none, voluntary: 0 by construction). */
	json_uint(j, "irq_in_fault", e->irq_in_fault);
	json_begin_object(j, "in_fault");
	for (int k = 0; k < SW_KINDS; k++)
		if (k != SW_BLOCKED)
			json_uint(j, switch_kind_name((enum switch_kind)k), e->in_fault[k]);
	json_end_object(j);
	json_end_object(j);

	double lo, hi;
	st_wilson((double)e->fault_switched, (double)e->holds_with_fault, &lo, &hi);
	json_begin_object(j, "q_m");
	json_uint(j, "k", e->fault_switched);
	json_uint(j, "n", e->holds_with_fault);
	json_double(j, "p", per((double)e->fault_switched, (double)e->holds_with_fault));
	json_double(j, "lo95", lo);
	json_double(j, "hi95", hi);
	for (int s = 0; s < Q_SPLITS; s++)
		json_uint(j, q_split_name((enum q_split)s), e->q_split[s]);
	json_end_object(j);

	json_begin_object(j, "offcpu");
	json_uint(j, "count", e->offcpu_count);
	json_uint(j, "total_ns", e->offcpu_ns);
	json_double(j, "p50_us", e->offcpu_p50_us);
	json_double(j, "p99_us", e->offcpu_p99_us);
	json_double(j, "max_us", e->offcpu_max_us);
	json_begin_array(j, "hist_log2_us");
	for (int b = 0; b < OFFCPU_BUCKETS; b++)
		json_uint(j, NULL, e->offcpu_hist[b]);
	json_end_array(j);
	json_end_object(j);
	json_uint(j, "waiter_ns", e->waiter_ns);
	json_double(j, "spinner_multiplier", per((double)e->waiter_ns, (double)e->offcpu_ns));

	json_bool(j, "timer_traced", e->timer_traced);
	json_begin_array(j, "preempted_in_fault");
	for (uint32_t i = 0; i < e->ninfault; i++) {
		const struct infault_detail *d = &e->infault[i];
		json_begin_object(j, NULL);
		json_uint(j, "ts_ns", d->ts);
		json_str(j, "kind", switch_kind_name((enum switch_kind)d->kind));
		json_str(j, "interrupt", d->irq);
		json_uint(j, "fault_age_ns", d->fault_age_ns);
		if (d->timer_ticks >= 0)
			json_int(j, "timer_interrupts_in_fault", d->timer_ticks);
		else
			json_null(j, "timer_interrupts_in_fault");
		json_str(j, "next_comm", d->next_comm);
		json_int(j, "next_pid", d->next_pid);
		json_int(j, "next_prio", d->next_prio);
		json_str(j, "next_class", class_of(d->next_prio));
		json_str(j, "stack", d->stack);
		json_end_object(j);
	}
	json_end_array(j);
	/* "kind/place": the first holder switch's stack, for what each count means. */
	static const char *const place[3] = { "none", "in_fault", "fault_exit" };
	json_begin_object(j, "examples");
	for (int k = 0; k < SW_KINDS; k++)
		for (int w = 0; w < 3; w++)
			if (e->example[k][w][0]) {
				char key[64];
				snprintf(key, sizeof(key), "%s/%s",
					 switch_kind_name((enum switch_kind)k), place[w]);
				json_str(j, key, e->example[k][w]);
			}
	json_end_object(j);
	json_begin_object(j, "examples_any_task");
	for (int k = 0; k < SW_KINDS; k++)
		for (int w = 0; w < 3; w++)
			if (e->example_any[k][w][0]) {
				char key[64];
				snprintf(key, sizeof(key), "%s/%s",
					 switch_kind_name((enum switch_kind)k), place[w]);
				json_str(j, key, e->example_any[k][w]);
			}
	json_end_object(j);
	if (e->census.done)
		census_json(j, &e->census);
	json_end_object(j);
}

uint32_t evidence_resolution_ns(const struct evidence_phase ph[2])
{
	uint32_t r = ph[0].ts_resolution_ns > ph[1].ts_resolution_ns ? ph[0].ts_resolution_ns
								      : ph[1].ts_resolution_ns;
	return r ? r : 1000;
}
