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
