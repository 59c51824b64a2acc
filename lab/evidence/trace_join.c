#include "trace_join.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum ev_type { EV_FAULT, EV_OUT, EV_IN };

struct ev {
	uint64_t ts;
	int32_t pid;
	int32_t cpu;
	uint8_t type;
	uint8_t kind;		/* EV_OUT: enum switch_kind */
	uint8_t in_fault;	/* EV_OUT: fault handler on the stack */
	uint8_t has_stack;
	uint8_t runnable;	/* EV_OUT: prev_state R or R+ */
};

#define UNCLASSIFIED_KEPT 4

struct trace_events {
	struct ev *ev;
	uint64_t n, cap;
	uint64_t stacks;
	/* Stacks of runnable switches that named no known entry point, to name them. */
	char unclassified[UNCLASSIFIED_KEPT][1024];
	int nunclassified;
};

const char *switch_kind_name(enum switch_kind k)
{
	static const char *const n[SW_KINDS] = { "irq", "user", "voluntary", "blocked", "unknown" };
	return k < SW_KINDS ? n[k] : "?";
}

static struct ev *push(struct trace_events *t)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4096;
		t->ev = realloc(t->ev, t->cap * sizeof(*t->ev));
		if (!t->ev) {
			perror("trace_parse");
			exit(1);
		}
	}
	memset(&t->ev[t->n], 0, sizeof(*t->ev));
	return &t->ev[t->n++];
}

/* "  comm-PID  [CPU] flags  SECS.USECS: name: fields": 0 if not an event line. */
static int parse_header(const char *line, int32_t *pid, int32_t *cpu, uint64_t *ts,
			const char **name)
{
	const char *b = strstr(line, "] ");
	if (!b)
		return 0;
	const char *o = b;
	while (o > line && isdigit((unsigned char)o[-1]))
		o--;
	if (o == b || o == line || o[-1] != '[')
		return 0;
	*cpu = atoi(o);
	const char *q = o - 1;
	while (q > line && q[-1] == ' ')
		q--;
	const char *d = q;
	while (d > line && isdigit((unsigned char)d[-1]))
		d--;
	if (d == q || d == line || d[-1] != '-')
		return 0;
	*pid = atoi(d);
	unsigned long long s, us;
	int used = 0;
	const char *p = b + 2;
	while (*p == ' ')
		p++;
	while (*p && *p != ' ')	/* flags */
		p++;
	if (sscanf(p, " %llu.%llu: %n", &s, &us, &used) != 2 || !used)
		return 0;
	*ts = s * 1000000000ull + us * 1000ull;
	*name = p + used;
	return 1;
}

static int field_int(const char *s, const char *key, int32_t *out)
{
	const char *p = strstr(s, key);
	if (!p)
		return 0;
	*out = atoi(p + strlen(key));
	return 1;
}

static enum switch_kind classify(const char *stack, int *in_fault)
{
	*in_fault = strstr(stack, "exc_page_fault") || strstr(stack, "handle_mm_fault") ||
		    strstr(stack, "do_user_addr_fault") || strstr(stack, "do_page_fault");
	if (strstr(stack, " preempt_schedule_irq") || strstr(stack, " preempt_schedule\n") ||
	    strstr(stack, " preempt_schedule_common") || strstr(stack, " preempt_schedule_notrace"))
		return SW_IRQ;
	if (strstr(stack, "exit_to_user_mode") || strstr(stack, "do_notify_resume"))
		return SW_USER;
	/*
	 * 7.0 inlines the exit-to-user loop: schedule() called straight from
	 * irqentry_exit or the system call exit is the return to user mode.
	 */
	const char *s = strstr(stack, " => schedule\n => ");
	if (s) {
		s += strlen(" => schedule\n => ");
		if (!strncmp(s, "irqentry_exit", 13) || !strncmp(s, "syscall_exit", 12) ||
		    !strncmp(s, "do_syscall_64", 13))
			return SW_USER;
	}
	if (strstr(stack, "cond_resched") || strstr(stack, "might_resched") ||
	    strstr(stack, "sched_yield"))
		return SW_VOLUNTARY;
	return SW_UNKNOWN;
}

#define MAX_CPUS 1024

/* A stack belongs to the sched_switch on its CPU by the same task, before or after it. */
static void attach_stack(struct trace_events *t, int64_t *last_out, char (*pending)[4096],
			 int32_t *pending_pid, int32_t cpu, int32_t pid, const char *stack)
{
	t->stacks++;
	int64_t i = last_out[cpu];
	if (i >= 0 && !t->ev[i].has_stack && t->ev[i].pid == pid) {
		struct ev *e = &t->ev[i];
		int f;
		enum switch_kind k = classify(stack, &f);
		e->has_stack = 1;
		e->in_fault = (uint8_t)f;
		if (!e->runnable)
			k = SW_BLOCKED;
		else if (k == SW_UNKNOWN && t->nunclassified < UNCLASSIFIED_KEPT &&
			 !strstr(stack, "schedule_idle"))
			snprintf(t->unclassified[t->nunclassified++], sizeof(t->unclassified[0]), "%s",
				 stack);
		e->kind = (uint8_t)k;
		return;
	}
	snprintf(pending[cpu], sizeof(pending[cpu]), "%s", stack);
	pending_pid[cpu] = pid;
}

struct trace_events *trace_parse(FILE *f)
{
	struct trace_events *t = calloc(1, sizeof(*t));
	static int64_t last_out[MAX_CPUS];
	static char pending[MAX_CPUS][4096];
	static int32_t pending_pid[MAX_CPUS];
	char line[1024], stack[4096];
	int32_t st_cpu = -1, st_pid = -1;
	size_t stlen = 0;

	for (int i = 0; i < MAX_CPUS; i++) {
		last_out[i] = -1;
		pending_pid[i] = -1;
	}
	stack[0] = 0;
	for (;;) {
		char *l = fgets(line, sizeof(line), f);
		if (l && strncmp(line, " => ", 4) == 0) {
			size_t len = strlen(line);
			if (st_cpu >= 0 && stlen + len < sizeof(stack)) {
				memcpy(stack + stlen, line, len + 1);
				stlen += len;
			}
			continue;
		}
		if (st_cpu >= 0) {
			attach_stack(t, last_out, pending, pending_pid, st_cpu, st_pid, stack);
			st_cpu = -1;
		}
		if (!l)
			break;
		if (line[0] == '#')
			continue;
		int32_t pid, cpu;
		uint64_t ts;
		const char *name;
		if (!parse_header(line, &pid, &cpu, &ts, &name) || cpu < 0 || cpu >= MAX_CPUS)
			continue;
		if (strncmp(name, "<stack trace>", 13) == 0) {
			st_cpu = cpu;
			st_pid = pid;
			stack[0] = 0;
			stlen = 0;
		} else if (strncmp(name, "sched_switch:", 13) == 0) {
			int32_t prev, next;
			if (!field_int(name, "prev_pid=", &prev) || !field_int(name, "next_pid=", &next))
				continue;
			const char *ps = strstr(name, "prev_state=");
			struct ev *e = push(t);
			e->ts = ts;
			e->pid = prev;
			e->cpu = cpu;
			e->type = EV_OUT;
			e->runnable = ps && ps[11] == 'R';
			e->kind = e->runnable ? SW_UNKNOWN : SW_BLOCKED;
			last_out[cpu] = (int64_t)(t->n - 1);
			if (pending_pid[cpu] == prev) {
				pending_pid[cpu] = -1;
				attach_stack(t, last_out, pending, pending_pid, cpu, prev, pending[cpu]);
				t->stacks--;	/* counted when it was read */
			}
			struct ev *in = push(t);
			in->ts = ts;
			in->pid = next;
			in->cpu = cpu;
			in->type = EV_IN;
		} else if (strncmp(name, "page_fault_user:", 16) == 0 ||
			   strncmp(name, "page_fault_kernel:", 18) == 0 ||
			   strncmp(name, TRACE_KPROBE_FAULT ":",
				   sizeof(TRACE_KPROBE_FAULT)) == 0) {
			struct ev *e = push(t);
			e->ts = ts;
			e->pid = pid;
			e->cpu = cpu;
			e->type = EV_FAULT;
		}
	}
	return t;
}

void trace_events_free(struct trace_events *t)
{
	if (t) {
		free(t->ev);
		free(t);
	}
}

uint64_t trace_event_count(const struct trace_events *t)
{
	return t->n;
}

uint64_t trace_stack_count(const struct trace_events *t)
{
	return t->stacks;
}

const char *trace_unclassified(const struct trace_events *t, int i)
{
	return i < t->nunclassified ? t->unclassified[i] : NULL;
}

static int by_pid_ts(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* At one microsecond, an out before the in that follows it. */
	return (x->type == EV_IN) - (y->type == EV_IN);
}

/* First event of pid at or after ts (with the microsecond's slack). */
static uint64_t lower(const struct ev *e, uint64_t n, int32_t pid, uint64_t ts)
{
	uint64_t lo = 0, hi = n;
	while (lo < hi) {
		uint64_t mid = (lo + hi) / 2;
		if (e[mid].pid < pid || (e[mid].pid == pid && e[mid].ts + 999 < ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static double quantile_us(const uint64_t *v, uint64_t n, double q)
{
	if (!n)
		return 0;
	uint64_t i = (uint64_t)(q * (double)(n - 1) + 0.5);
	return (double)v[i] / 1e3;
}

static uint64_t waiting_within(const struct hold_rec *h, uint64_t nh, uint64_t a, uint64_t b)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < nh; i++) {
		uint64_t s = h[i].wait_ns > a ? h[i].wait_ns : a;
		uint64_t e = h[i].acquire_ns < b ? h[i].acquire_ns : b;
		if (e > s)
			sum += e - s;
	}
	return sum;
}

void trace_join(const struct trace_events *t, const struct hold_rec *holds, uint64_t nholds,
		uint64_t fill_ns, struct evidence_phase out[2])
{
	uint64_t n = t->n;
	struct ev *e = malloc((n ? n : 1) * sizeof(*e));
	uint64_t *off[2] = { malloc((n + 1) * sizeof(uint64_t)),
			     malloc((n + 1) * sizeof(uint64_t)) };
	if (!e || !off[0] || !off[1]) {
		perror("trace_join");
		exit(1);
	}
	memcpy(e, t->ev, n * sizeof(*e));
	qsort(e, n, sizeof(*e), by_pid_ts);
	memset(out, 0, 2 * sizeof(*out));

	for (uint64_t h = 0; h < nholds; h++) {
		const struct hold_rec *r = &holds[h];
		int ph = fill_ns && r->acquire_ns >= fill_ns;
		struct evidence_phase *o = &out[ph];
		bool fault = false, switched = false;
		o->holds++;
		for (uint64_t i = lower(e, n, r->pid, r->acquire_ns);
		     i < n && e[i].pid == r->pid && e[i].ts <= r->release_ns; i++) {
			if (e[i].type == EV_FAULT)
				fault = true;
			if (e[i].type != EV_OUT)
				continue;
			switched = true;
			o->switches[e[i].kind]++;
			if (e[i].kind == SW_IRQ && e[i].in_fault)
				o->irq_in_fault++;
			uint64_t back = r->release_ns;
			for (uint64_t j = i + 1; j < n && e[j].pid == r->pid; j++)
				if (e[j].type == EV_IN) {
					back = e[j].ts < back ? e[j].ts : back;
					break;
				}
			uint64_t d = back > e[i].ts ? back - e[i].ts : 0;
			off[ph][o->offcpu_count++] = d;
			o->offcpu_ns += d;
			uint64_t us = d / 1000, b = 0;
			while (us > 1 && b < OFFCPU_BUCKETS - 1) {
				us >>= 1;
				b++;
			}
			o->offcpu_hist[b]++;
			o->waiter_ns += waiting_within(holds, nholds, e[i].ts, back);
		}
		o->holds_with_fault += fault;
		o->holds_switched += switched;
	}
	for (int ph = 0; ph < 2; ph++) {
		struct evidence_phase *o = &out[ph];
		qsort(off[ph], o->offcpu_count, sizeof(uint64_t), cmp_u64);
		o->offcpu_p50_us = quantile_us(off[ph], o->offcpu_count, 0.50);
		o->offcpu_p99_us = quantile_us(off[ph], o->offcpu_count, 0.99);
		o->offcpu_max_us = o->offcpu_count ? (double)off[ph][o->offcpu_count - 1] / 1e3 : 0;
		free(off[ph]);
	}
	free(e);
}
