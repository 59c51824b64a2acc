/*
 * costbench --remote-wake --trace-ipis: which kernel code sent the
 * target CPU its interrupts during an arm, from the ipi:ipi_send_cpu and
 * ipi:ipi_send_cpumask tracepoints (Linux 6.3+), whose callsite and
 * callback name the sender (ttwu_queue_wakelist, wakeup_preempt, ...),
 * and csd:csd_queue_cpu (6.6+), which names the function a cross-CPU call
 * queues for the target (a function-call interrupt's callback is only
 * the generic handler that runs the queue).
 * /proc/interrupts counts the interrupts by vector; this names them.  The
 * tracepoints add their cost to the wakeup path, so a traced run is kept
 * apart from the timed ones (its own costbench_run line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "costbench.h"
#include "tracefs.h"

static struct tracefs tr;

int costbench_ipi_trace_open(char *err, size_t len)
{
	if (tracefs_open_bare(&tr, err, len) != 0)
		return -1;
	static const char *const plain[] = { "options/sym-offset", "options/sym-addr", NULL };
	for (int i = 0; plain[i]; i++)
		tracefs_put(&tr, plain[i], "0", NULL, 0);
	if (tracefs_put(&tr, "buffer_size_kb", "4096", err, len) ||
	    tracefs_put(&tr, "events/ipi/ipi_send_cpu/enable", "1", err, len) ||
	    tracefs_put(&tr, "events/ipi/ipi_send_cpumask/enable", "1", err, len)) {
		tracefs_close(&tr);
		return -1;
	}
	/* Where the kernel has it; without it the calls' functions go unnamed. */
	tracefs_put(&tr, "events/csd/csd_queue_cpu/enable", "1", NULL, 0);
	/* What the target itself entered the kernel for, where the events
	 * exist: device and timer interrupts (irq_handler_entry, arm64's IPIs
	 * too), arm64's IPI reasons (ipi_entry), x86's vectors. */
	static const char *const entries[] = {
		"events/irq/irq_handler_entry/enable", "events/ipi/ipi_entry/enable",
		"events/irq_vectors/local_timer_entry/enable",
		"events/irq_vectors/reschedule_entry/enable",
		"events/irq_vectors/call_function_single_entry/enable",
		"events/irq_vectors/call_function_entry/enable", NULL
	};
	for (int i = 0; entries[i]; i++)
		tracefs_put(&tr, entries[i], "1", NULL, 0);
	/* Which CPU did each wakeup of the wakee: the waker's, or the target
	 * itself (the wakelist, or something else bringing it in). */
	tracefs_put(&tr, "events/sched/sched_wakeup/enable", "1", NULL, 0);
	return 0;
}

void costbench_ipi_trace_on(bool on)
{
	if (on)
		tracefs_put(&tr, "trace", "", NULL, 0);
	tracefs_put(&tr, "tracing_on", on ? "1" : "0", NULL, 0);
}

/* "key=VALUE " in LINE, VALUE into OUT. */
static bool field(const char *line, const char *key, char *out, size_t len)
{
	const char *p = strstr(line, key);
	if (!p)
		return false;
	p += strlen(key);
	size_t n = strcspn(p, " \n");
	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p);
	return true;
}

/* Does the event's target (cpu=N, or cpumask=HEX) include CPU? */
static bool targets(const char *line, int cpu)
{
	char v[64];
	if (field(line, " cpu=", v, sizeof(v)))
		return atoi(v) == cpu;
	if (!field(line, " cpumask=", v, sizeof(v)))
		return false;
	/* A hex bitmap, maybe comma-grouped by 32 bits; the lowest group last. */
	char *last = strrchr(v, ',');
	unsigned long long m = strtoull(last ? last + 1 : v, NULL, 16);
	return cpu < 32 && (m >> cpu) & 1;
}

/* Count one event under (WHAT, DETAIL) among *N tallies; past
 * CB_IPI_SOURCES pairs it goes to *OVER where there is one. */
static void tally(struct costbench_tally *t, int *n, long *over, const char *what, const char *detail)
{
	int i = 0;
	while (i < *n && (strcmp(t[i].what, what) || strcmp(t[i].detail, detail)))
		i++;
	if (i == *n) {
		if (*n == CB_IPI_SOURCES) {
			if (over)
				(*over)++;
			return;
		}
		(*n)++;
		snprintf(t[i].what, sizeof(t[i].what), "%s", what);
		snprintf(t[i].detail, sizeof(t[i].detail), "%s", detail);
	}
	t[i].n++;
}

void costbench_ipi_trace_collect(int target_cpu, int wakee_pid, struct costbench_ipi_trace *out)
{
	char path[512], line[1024];
	snprintf(path, sizeof(path), "%s/trace", tr.dir);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(out->why, sizeof(out->why), "cannot read %.180s", path);
		return;
	}
	out->traced = true;
	char cpu_tag[16];
	snprintf(cpu_tag, sizeof(cpu_tag), "[%03d]", target_cpu);
	char wakee[32];
	snprintf(wakee, sizeof(wakee), " pid=%d ", wakee_pid);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, ": sched_wakeup:")) {
			if (strstr(line, wakee))
				*(strstr(line, cpu_tag) ? &out->woken_on_target : &out->woken_elsewhere) += 1;
			continue;
		}
		/* An entry into the target's kernel, by the event and its name. */
		const char *ev = strstr(line, ": irq_handler_entry:") ? " name=" :
				 strstr(line, ": ipi_entry:") ? " (" :
				 strstr(line, "_entry: vector=") ? "" : NULL;
		if (ev && strstr(line, cpu_tag)) {
			char what[96] = "", name[64] = "";
			const char *e = strstr(line, ": ") + 2;
			snprintf(what, sizeof(what), "%.*s", (int)strcspn(e, ":"), e);
			if (*ev == ' ' && ev[1] == 'n')
				field(line, " name=", name, sizeof(name));
			else if (*ev)
				snprintf(name, sizeof(name), "%.*s", (int)strcspn(strstr(line, " (") + 2, ")"),
					 strstr(line, " (") + 2);
			tally(out->entry, &out->nentry, NULL, what, name);
			continue;
		}
		bool queued = strstr(line, "csd_queue_cpu:") != NULL;
		if (line[0] == '#' || (!queued && !strstr(line, "ipi_send_cpu")) || !targets(line, target_cpu))
			continue;
		/* Functions, not offsets (%pS prints "func+0x92/0xa0"); a queued
		 * call is "queue:CALLSITE" with the function it queued. */
		char site[96] = "?", cb[96] = "?", at[88] = "?";
		field(line, " callsite=", at, sizeof(at));
		snprintf(site, sizeof(site), "%s%s", queued ? "queue:" : "", at);
		field(line, queued ? " func=" : " callback=", cb, sizeof(cb));
		site[strcspn(site, "+")] = '\0';
		cb[strcspn(cb, "+")] = '\0';
		tally(out->src, &out->nsrc, &out->other, site, cb);
	}
	fclose(f);
	out->lost = tracefs_lost(&tr);
}

void costbench_ipi_trace_close(void)
{
	tracefs_close(&tr);
}
