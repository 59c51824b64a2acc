/*
 * The census (census.h) as a document's object "census": bufbench's per
 * phase (evidence_json.c) and costbench --wake-in-fault --trace-dump's
 * (wake_trace.c).  docs/evidence.md, "The census", says what each count is.
 */
#include "census.h"

#include "json.h"
#include "trace_join.h"

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

void census_json(struct json *j, const struct census_phase *c)
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
