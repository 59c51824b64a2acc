/*
 * costbench --remote-wake's document (schema preemptlab.costbench/1, mode
 * remote_wake; docs/json-costbench.md): the two CPUs and whether they share a
 * last-level cache, then per arm the wake latencies' order statistics,
 * how many were late (over CB_REMOTE_LATE_NS), and every trial.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "costbench.h"
#include "json.h"

static const char *policy_name(int p)
{
	return p == SCHED_IDLE ? "SCHED_IDLE" : p == SCHED_OTHER ? "SCHED_OTHER" : "none";
}

/* KEY: [ { WHAT: .., DETAIL: .., "count": N }, ... ] */
static void write_tallies(struct json *j, const char *key, const struct costbench_tally *t, int n,
			  const char *what, const char *detail)
{
	json_begin_array(j, key);
	for (int i = 0; i < n; i++) {
		json_begin_object(j, NULL);
		json_str(j, what, t[i].what);
		json_str(j, detail, t[i].detail);
		json_int(j, "count", t[i].n);
		json_end_object(j);
	}
	json_end_array(j);
}

static void write_arm(struct json *j, const struct costbench_remote *r, int arm)
{
	int n = r->ntrials[arm];
	json_begin_object(j, costbench_remote_arms[arm].name);
	json_bool(j, "available", n > 0);
	if (n == 0) {
		json_str(j, "why", r->arm_why[arm][0] ? r->arm_why[arm] : r->why);
		json_end_object(j);
		return;
	}
	json_str(j, "spinner", policy_name(costbench_remote_arms[arm].spinner_policy));
	json_str(j, "waker", costbench_remote_arms[arm].waker_sleeps ? "sleeps" : "spins");
	/* The trials whose wakee was asleep are the test; the rest woke
	 * nothing and are counted apart. */
	static double lat[CB_REMOTE_MAX];
	long late = 0, awake = 0;
	int m = 0;
	for (int i = 0; i < n; i++) {
		const struct costbench_remote_trial *t = &r->trial[arm][i];
		if (!t->asleep) {
			awake++;
			continue;
		}
		lat[m++] = (double)t->latency_ns;
		late += t->latency_ns > CB_REMOTE_LATE_NS;
	}
	json_int(j, "not_asleep", awake);
	json_int(j, "late", late);
	struct costbench_summary s = { 0 };
	if (m > 0)
		costbench_summarize(lat, m, &s);
	json_begin_object(j, "latency_ns");
	json_double(j, "min", s.min);
	json_double(j, "p25", s.p25);
	json_double(j, "median", s.median);
	json_double(j, "p75", s.p75);
	json_double(j, "max", s.max);
	json_end_object(j);
	/* How the wakes reached the target, counted over the arm's trials. */
	json_begin_object(j, "target_interrupts");
	json_bool(j, "known", r->ipis[arm].known);
	json_int(j, "resched", r->ipis[arm].resched);
	json_int(j, "call_function", r->ipis[arm].call_function);
	json_end_object(j);
	if (r->trace_ipis) {
		const struct costbench_ipi_trace *t = &r->senders[arm];
		json_begin_object(j, "interrupt_senders");
		json_bool(j, "traced", t->traced);
		if (!t->traced)
			json_str(j, "why", r->trace_why[0] ? r->trace_why : t->why);
		json_int(j, "lost", (long long)t->lost);
		json_int(j, "other", t->other);
		write_tallies(j, "senders", t->src, t->nsrc, "callsite", "callback");
		json_int(j, "woken_on_target", t->woken_on_target);
		json_int(j, "woken_elsewhere", t->woken_elsewhere);
		write_tallies(j, "target_entries", t->entry, t->nentry, "event", "name");
		json_end_object(j);
	}
	json_begin_array(j, "trials");
	for (int i = 0; i < n; i++) {
		const struct costbench_remote_trial *t = &r->trial[arm][i];
		json_begin_object(j, NULL);
		json_int(j, "delay_ns", t->delay_ns);
		json_int(j, "latency_ns", t->latency_ns);
		json_int(j, "cpu", t->cpu);
		json_bool(j, "asleep", t->asleep);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

int costbench_remote_main(int trials, bool trace_ipis, const char *out, int argc, char **argv)
{
	static struct costbench_remote r;
	int rc = costbench_remote_run(trials, trace_ipis, &r);
	if (rc != 0)
		fprintf(stderr, "costbench: --remote-wake: %s\n", r.why);
	else
		fprintf(stderr, "costbench: --remote-wake: CPU %d wakes CPU %d (shared LLC: %s), %d trials an arm\n",
			r.waker_cpu, r.target_cpu, r.llc_shared, trials);
	struct json j;
	FILE *f = costbench_mode_begin(&j, out, argc, argv, "remote_wake", rc ? r.why : NULL);
	if (!f)
		return 1;
	json_int(&j, "trials_per_arm", trials);
	json_int(&j, "late_ns", CB_REMOTE_LATE_NS);
	json_bool(&j, "traced", trace_ipis);
	if (rc == 0) {
		json_int(&j, "target_cpu", r.target_cpu);
		json_int(&j, "waker_cpu", r.waker_cpu);
		json_str(&j, "llc_shared", r.llc_shared);
		json_str(&j, "llc_source", r.llc_source);
		json_str(&j, "sched_hrtick", r.hrtick);
		json_begin_object(&j, "arms");
		for (int a = 0; a < CB_REMOTE_ARMS; a++)
			write_arm(&j, &r, a);
		json_end_object(&j);
	}
	return costbench_doc_end(&j, f, out, rc);
}
