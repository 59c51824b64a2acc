/*
 * costbench --wake-in-fault's document (schema preemptlab.costbench/1,
 * mode wake_in_fault; docs/json-costbench.md): per arm, the trials whose wakeup
 * fell before the touch, inside the fault and after it, how many of each
 * found the holder off CPU before its release, and every trial.  A wake
 * inside the fault is one whose timer expired within the fault's own
 * length (the median touch measured alone) after the touch began.
 */
#include <stdio.h>
#include <string.h>

#include "costbench.h"
#include "json.h"

static const char *const arm_names[2] = { "plain", "slice_requested" };

static void write_span(struct json *j, const char *key, const struct costbench_wake *w, int arm, int where)
{
	long n = 0, off = 0, granted = 0, yielded = 0, blocked = 0;
	for (int i = 0; i < w->ntrials[arm]; i++) {
		const struct costbench_wake_trial *t = &w->trial[arm][i];
		int at = t->wake_after_touch_ns < 0 ? 0 : t->wake_after_touch_ns < w->fault_ns ? 1 : 2;
		if (at != where)
			continue;
		n++;
		off += t->off_cpu_before_release;
		granted += !strcmp(t->outcome, "granted");
		yielded += t->yielded;
		blocked += t->competitor_blocked;
	}
	json_begin_object(j, key);
	json_int(j, "trials", n);
	json_int(j, "off_cpu_before_release", off);
	json_int(j, "granted", granted);
	json_int(j, "yielded", yielded);
	if (w->contend_page)
		json_int(j, "competitor_blocked", blocked);
	json_end_object(j);
}

static void write_arm(struct json *j, const struct costbench_wake *w, int arm)
{
	json_begin_object(j, arm_names[arm]);
	bool ran = arm == 0 || w->request_available;
	json_bool(j, "available", ran);
	if (!ran) {
		json_str(j, "why", w->request_why);
		json_end_object(j);
		return;
	}
	write_span(j, "wake_before_touch", w, arm, 0);
	write_span(j, "wake_in_fault", w, arm, 1);
	write_span(j, "wake_after_fault", w, arm, 2);
	json_begin_array(j, "trials");
	for (int i = 0; i < w->ntrials[arm]; i++) {
		const struct costbench_wake_trial *t = &w->trial[arm][i];
		json_begin_object(j, NULL);
		json_int(j, "wake_after_touch_ns", t->wake_after_touch_ns);
		json_int(j, "touch_ns", t->touch_ns);
		json_bool(j, "off_cpu_before_release", t->off_cpu_before_release);
		json_int(j, "involuntary_switches", t->involuntary_switches);
		json_str(j, "slice", t->outcome);
		json_bool(j, "yielded", t->yielded);
		if (w->contend_page) {
			json_bool(j, "competitor_blocked", t->competitor_blocked);
			json_int(j, "competitor_read_ns", t->competitor_read_ns);
		}
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* --trace on: whether it could trace, and the census of what it saw. */
static void write_trace(struct json *j, const struct costbench_wake *w)
{
	json_begin_object(j, "trace");
	json_bool(j, "traced", w->traced);
	if (!w->traced) {
		json_str(j, "why", w->trace_why);
		json_end_object(j);
		return;
	}
	json_uint(j, "events", w->trace_events);
	json_uint(j, "lost", w->trace_lost);
	census_json(j, &w->census);
	json_end_object(j);
}

int costbench_wake_main(const struct costbench_wake_opts *o, const char *out, int argc, char **argv)
{
	static struct costbench_wake w;
	int trials = o->trials;
	enum wake_competitor comp = o->competitor;
	int rc = costbench_wake_run(o, &w);
	if (rc != 0)
		fprintf(stderr, "costbench: --wake-in-fault: %s\n", w.why);
	else
		fprintf(stderr, "costbench: --wake-in-fault: fault %lld ns on CPU %d, %d trials an arm%s%s\n",
			(long long)w.fault_ns, w.cpu, trials,
			w.request_available ? "" : "; no slice-requested arm: ",
			w.request_available ? "" : w.request_why);
	struct json j;
	FILE *f = costbench_mode_begin(&j, out, argc, argv, "wake_in_fault", rc ? w.why : NULL);
	if (!f)
		return 1;
	json_int(&j, "trials_per_arm", trials);
	json_str(&j, "competitor", comp == WAKE_FAIR ? "fair" : "fifo");
	json_str(&j, "contend_page", contend_page_name[o->contend_page]);
	if (rc == 0) {
		json_int(&j, "cpu", w.cpu);
		json_int(&j, "fault_ns", w.fault_ns);
		json_begin_object(&j, "arms");
		write_arm(&j, &w, 0);
		write_arm(&j, &w, 1);
		json_end_object(&j);
		if (o->trace_dump)
			write_trace(&j, &w);
	}
	return costbench_doc_end(&j, f, out, rc);
}
