#include "trace_join.h"
#include "trace_events.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *switch_kind_name(enum switch_kind k)
{
	static const char *const n[SW_KINDS] = { "irq", "preempt", "user", "voluntary", "blocked",
						 "unknown" };
	return k < SW_KINDS ? n[k] : "?";
}

const char *q_split_name(enum q_split s)
{
	static const char *const n[Q_SPLITS] = { "in_fault", "fault_exit", "blocked_in_fault",
						 "other" };
	return s < Q_SPLITS ? n[s] : "?";
}

/* A new event at ts on cpu for pid, the rest of it zero. */
static struct ev *push(struct trace_events *t, uint64_t ts, int32_t pid, int32_t cpu, uint8_t type)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4096;
		t->ev = realloc(t->ev, t->cap * sizeof(*t->ev));
		if (!t->ev) {
			perror("trace_parse");
			exit(1);
		}
	}
	struct ev *e = &t->ev[t->n++];
	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->pid = pid;
	e->cpu = cpu;
	e->type = type;
	return e;
}

/*
 * "  comm-PID  [CPU] flags  SECS.FRACTION: name: fields": 0 if not an event
 * line.  FRACTION has 6 digits as tracefs prints a ns clock (rounded to the
 * microsecond), 9 once trace_ns.h has put the nanoseconds back; *res_ns
 * says which.
 */
static int parse_header(const char *line, int32_t *pid, int32_t *cpu, uint64_t *ts,
			uint32_t *res_ns, const char **name)
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
	const char *p = b + 2;
	while (*p == ' ')
		p++;
	while (*p && *p != ' ')	/* flags */
		p++;
	while (*p == ' ')
		p++;
	char *end;
	unsigned long long s = strtoull(p, &end, 10);
	if (end == p || *end != '.')
		return 0;
	const char *f = end + 1;
	unsigned long long frac = strtoull(f, &end, 10);
	size_t digits = (size_t)(end - f);
	if ((digits != 6 && digits != 9) || end[0] != ':' || end[1] != ' ')
		return 0;
	*res_ns = digits == 6 ? 1000 : 1;
	*ts = s * 1000000000ull + frac * *res_ns;
	*name = end + 2;
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

/* The frame names of a stack, offsets ("+0x1a/0x40", sym-offset) dropped. */
#define MAX_FRAMES 64
static int frames_of(const char *stack, char (*fr)[64])
{
	int n = 0;
	for (const char *p = stack; (p = strstr(p, " => ")) && n < MAX_FRAMES;) {
		p += 4;
		size_t k = strcspn(p, "+ \n");
		if (k >= 64)
			k = 63;
		memcpy(fr[n], p, k);
		fr[n++][k] = 0;
	}
	return n;
}

static bool is_any(const char *f, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(f, *names))
			return true;
	return false;
}

static int find_frame(char (*fr)[64], int n, const char *const *names)
{
	for (int i = 0; i < n; i++)
		if (is_any(fr[i], names))
			return i;
	return -1;
}

/* Inside the fault handler: x86 do_user_addr_fault, arm64 do_page_fault, both handle_mm_fault. */
static const char *const fault_handler[] = {
	"handle_mm_fault", "__handle_mm_fault", "do_user_addr_fault", "do_page_fault",
	"do_translation_fault", "do_mem_abort", "do_kern_addr_fault", "lock_mm_and_find_vma",
	NULL,
};
/* The fault's entry, still on the stack once the handler returned (its exit to user). */
static const char *const fault_entry[] = {
	"exc_page_fault", "asm_exc_page_fault", "el0_da", "el0_ia", NULL,
};
static const char *const preempt_enable[] = {
	"preempt_schedule", "preempt_schedule_notrace", "__preempt_schedule",
	"__preempt_schedule_notrace", "preempt_schedule_thunk", "preempt_schedule_notrace_thunk",
	"___preempt_schedule", "___preempt_schedule_notrace", NULL,
};
static const char *const cond_resched[] = {
	"__cond_resched", "_cond_resched", "cond_resched", "__cond_resched_lock",
	"__cond_resched_rwlock_read", "__cond_resched_rwlock_write", "might_resched",
	"do_sched_yield", "__do_sys_sched_yield", "__x64_sys_sched_yield", "__arm64_sys_sched_yield",
	"yield", NULL,
};
/*
 * schedule() called from these is the return to user mode: the generic
 * entry loop (exit_to_user_mode_loop, or inlined into irqentry_exit and the
 * syscall exit from 7.0), x86's and arm64's older exits (do_notify_resume,
 * arm64's el0_* handlers and its exit_to_user_mode).
 */
static const char *const to_user[] = {
	"exit_to_user_mode_loop", "exit_to_user_mode_prepare", "exit_to_user_mode",
	"irqentry_exit_to_user_mode", "irqentry_exit", "syscall_exit_to_user_mode",
	"syscall_exit_to_user_mode_work", "syscall_exit_work", "do_syscall_64", "do_notify_resume",
	"arm64_exit_to_user_mode", "ret_to_user", "work_pending", "el0_svc", "el0_da", "el0_ia",
	"el0_interrupt", "__el0_irq_handler_common", "el0t_64_irq_handler", "el0t_64_sync_handler",
	"el0_svc_common", NULL,
};

static bool prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

enum switch_kind trace_classify(const char *stack, enum fault_place *where)
{
	char fr[MAX_FRAMES][64];
	int n = frames_of(stack, fr);
	*where = find_frame(fr, n, fault_handler) >= 0 ? FP_IN
		 : find_frame(fr, n, fault_entry) >= 0 ? FP_EXIT : FP_NONE;
	static const char *const sched[] = { "__schedule", NULL };
	int i = find_frame(fr, n, sched);
	if (i >= 0 && i + 1 < n) {
		const char *c = fr[i + 1], *cc = i + 2 < n ? fr[i + 2] : "";
		if (!strcmp(c, "preempt_schedule_irq"))
			return SW_IRQ;
		/* cond_resched and preempt_schedule share preempt_schedule_common. */
		if (!strcmp(c, "preempt_schedule_common"))
			return is_any(cc, cond_resched) ? SW_VOLUNTARY : SW_PREEMPT;
		if (is_any(c, preempt_enable))
			return SW_PREEMPT;
		if (is_any(c, cond_resched))
			return SW_VOLUNTARY;
		if (!strcmp(c, "schedule") && is_any(cc, to_user))
			return SW_USER;
		if (!strcmp(c, "schedule") && is_any(cc, cond_resched))
			return SW_VOLUNTARY;
	}
	/* A stack cut short or a kernel this table does not know: by any frame. */
	if (find_frame(fr, n, cond_resched) >= 0)
		return SW_VOLUNTARY;
	return SW_UNKNOWN;
}

/* The interrupt whose return preempted: the first entry-like frame under preempt_schedule_irq. */
static uint8_t irq_of(struct trace_events *t, const char *stack)
{
	char fr[MAX_FRAMES][64];
	int n = frames_of(stack, fr);
	for (int i = 0; i < n; i++) {
		const char *f = fr[i];
		if (!(prefix(f, "asm_sysvec_") || prefix(f, "sysvec_") || prefix(f, "asm_common_interrupt") ||
		      !strcmp(f, "common_interrupt") || prefix(f, "el1h_64_irq") ||
		      prefix(f, "el1_interrupt") || prefix(f, "asm_exc_") || prefix(f, "el1h_64_fiq")))
			continue;
		int k;
		for (k = 0; k < t->nirqs && strcmp(t->irqs[k], f); k++)
			;
		if (k == t->nirqs && t->nirqs < IRQ_NAMES) {
			size_t len = strnlen(f, sizeof(t->irqs[0]) - 1);
			memcpy(t->irqs[t->nirqs], f, len);
			t->irqs[t->nirqs++][len] = 0;
		}
		return k < t->nirqs ? (uint8_t)(k + 1) : 0;
	}
	return 0;
}

static uint32_t intern_stack(struct trace_events *t, const char *stack)
{
	uint32_t h = 2166136261u;
	for (const char *p = stack; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	for (uint32_t i = 0; i < STACK_SLOTS; i++) {
		uint32_t *slot = &t->stk_slot[(h + i) % STACK_SLOTS];
		if (*slot && !strcmp(t->stk[*slot - 1], stack))
			return *slot;
		if (*slot)
			continue;
		if (t->nstk >= STACK_SLOTS / 2)
			return 0;
		char **grown = realloc(t->stk, (t->nstk + 1) * sizeof(*t->stk));
		char *copy = strdup(stack);
		if (!grown || !copy) {
			perror("trace_parse");
			exit(1);
		}
		t->stk = grown;
		t->stk[t->nstk++] = copy;
		return *slot = t->nstk;
	}
	return 0;
}

static void comm_put(struct trace_events *t, int32_t pid, const char *comm, size_t len)
{
	if (pid <= 0)
		return;
	for (uint32_t i = 0, h = (uint32_t)pid * 2654435761u % COMMS; i < COMMS; i++, h = (h + 1) % COMMS)
		if (t->comm[h].pid == pid || t->comm[h].pid == 0) {
			t->comm[h].pid = pid;
			if (len > 16)
				len = 16;
			memcpy(t->comm[h].comm, comm, len);
			t->comm[h].comm[len] = 0;
			return;
		}
}

bool trace_own_comm(const char *comm, size_t len)
{
	return (len == 8 && !strncmp(comm, "bufbench", 8)) || (len == 9 && !strncmp(comm, "costbench", 9));
}

const char *trace_comm(const struct trace_events *t, int32_t pid)
{
	for (uint32_t i = 0, h = (uint32_t)pid * 2654435761u % COMMS; pid > 0 && i < COMMS;
	     i++, h = (h + 1) % COMMS) {
		if (t->comm[h].pid == pid)
			return t->comm[h].comm;
		if (t->comm[h].pid == 0)
			break;
	}
	return "?";
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
		enum fault_place where;
		enum switch_kind k = trace_classify(stack, &where);
		e->has_stack = 1;
		e->place = (uint8_t)where;
		if (!e->runnable)
			k = SW_BLOCKED;
		else if (k == SW_UNKNOWN && t->nunclassified < UNCLASSIFIED_KEPT &&
			 !strstr(stack, "schedule_idle"))
			snprintf(t->unclassified[t->nunclassified++], sizeof(t->unclassified[0]), "%s",
				 stack);
		if (k == SW_IRQ)
			e->irq = irq_of(t, stack);
		e->kind = (uint8_t)k;
		e->dcat = (uint8_t)dwait_classify(stack);
		e->stack = intern_stack(t, stack);
		if (!t->first[k][where])
			t->first[k][where] = e->stack;
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

	if (!t) {
		perror("trace_parse");
		exit(1);
	}
	t->res_ns = 1;
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
		uint32_t res;
		const char *name;
		if (!parse_header(line, &pid, &cpu, &ts, &res, &name) || cpu < 0 || cpu >= MAX_CPUS)
			continue;
		if (res > t->res_ns)
			t->res_ns = res;
		if (strncmp(name, "<stack trace>", 13) == 0) {
			st_cpu = cpu;
			st_pid = pid;
			stack[0] = 0;
			stlen = 0;
		} else if (strncmp(name, "sched_switch:", 13) == 0) {
			int32_t prev, next, nprio = -1;
			if (!field_int(name, "prev_pid=", &prev) || !field_int(name, "next_pid=", &next))
				continue;
			field_int(name, "next_prio=", &nprio);
			const char *nc = strstr(name, "next_comm=");
			if (nc) {
				nc += 10;
				const char *ne = strstr(nc, " next_pid=");
				comm_put(t, next, nc, ne ? (size_t)(ne - nc) : strcspn(nc, " \n"));
			}
			const char *ps = strstr(name, "prev_state=");
			struct ev *e = push(t, ts, prev, cpu, EV_OUT);
			e->next_pid = next;
			e->next_prio = (int16_t)nprio;
			e->runnable = ps && ps[11] == 'R';
			e->dstate = ps && ps[11] == 'D';
			const char *pc = strstr(name, "prev_comm=");
			e->foreign = pc && !trace_own_comm(pc + 10, strcspn(pc + 10, " "));
			e->dcat = DW_NOSTACK;
			e->kind = e->runnable ? SW_UNKNOWN : SW_BLOCKED;
			last_out[cpu] = (int64_t)(t->n - 1);
			if (pending_pid[cpu] == prev) {
				pending_pid[cpu] = -1;
				attach_stack(t, last_out, pending, pending_pid, cpu, prev, pending[cpu]);
				t->stacks--;	/* counted when it was read */
			}
			push(t, ts, next, cpu, EV_IN);
		} else if (strncmp(name, "page_fault_user:", 16) == 0 ||
			   strncmp(name, "page_fault_kernel:", 18) == 0 ||
			   strncmp(name, TRACE_KPROBE_FAULT ":",
				   sizeof(TRACE_KPROBE_FAULT)) == 0) {
			push(t, ts, pid, cpu, EV_FAULT);
		} else if (strncmp(name, "sched_waking:", 13) == 0 ||
			   strncmp(name, "sched_wakeup:", 13) == 0) {
			/* The header is the waker's; pid= the woken, target_cpu= where it goes. */
			int32_t woken, target = -1;
			if (!field_int(name, " pid=", &woken))
				continue;
			field_int(name, "target_cpu=", &target);
			struct ev *e = push(t, ts, woken, cpu, EV_WAKE);
			e->next_pid = pid;
			e->aux = target;
			t->wakes = true;
		} else if (strncmp(name, TRACE_FOLIO_WAIT ":", sizeof(TRACE_FOLIO_WAIT)) == 0 ||
			   strncmp(name, TRACE_FOLIO_UNLOCK ":", sizeof(TRACE_FOLIO_UNLOCK)) == 0) {
			const char *a = strstr(name, "folio=");
			if (!a)
				continue;
			bool wait = name[sizeof("preemptlab_folio_") - 1] == 'w';
			struct ev *e = push(t, ts, pid, cpu, wait ? EV_FWAIT : EV_FUNLOCK);
			e->addr = strtoull(a + 6, NULL, 0);
			t->folios = true;
		} else if (strncmp(name, "local_timer_entry:", 18) == 0) {
			push(t, ts, pid, cpu, EV_TIMER);
			t->timer = true;
		}
	}
	return t;
}

void trace_events_free(struct trace_events *t)
{
	if (t) {
		for (uint32_t i = 0; i < t->nstk; i++)
			free(t->stk[i]);
		free(t->stk);
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

uint32_t trace_resolution_ns(const struct trace_events *t)
{
	return t->res_ns;
}

const char *trace_unclassified(const struct trace_events *t, int i)
{
	return i < t->nunclassified ? t->unclassified[i] : NULL;
}

int trace_ev_by_pid_ts(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* At one timestamp, an out before the in that follows it. */
	return (x->type == EV_IN) - (y->type == EV_IN);
}

/* First event of pid at or after ts - slack. */
static uint64_t lower(const struct ev *e, uint64_t n, int32_t pid, uint64_t ts, uint64_t slack)
{
	uint64_t lo = 0, hi = n;
	while (lo < hi) {
		uint64_t mid = (lo + hi) / 2;
		if (e[mid].pid < pid || (e[mid].pid == pid && e[mid].ts + slack < ts))
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

static enum q_split split_of(const struct ev *e)
{
	if (e->place == FP_IN)
		return e->kind == SW_BLOCKED ? Q_BLOCKED_IN_FAULT : Q_IN_FAULT;
	return e->place == FP_EXIT ? Q_FAULT_EXIT : Q_OTHER;
}

/* One preemption inside a fault, described for the report. */
static void describe(const struct trace_events *t, const struct ev *e, uint64_t ne, uint64_t i,
		     uint64_t since, bool faulted, struct evidence_phase *o)
{
	if (o->ninfault >= INFAULT_KEPT)
		return;
	struct infault_detail *d = &o->infault[o->ninfault++];
	d->ts = e[i].ts;
	d->kind = e[i].kind;
	d->fault_age_ns = faulted && e[i].ts > since ? e[i].ts - since : 0;
	d->next_pid = e[i].next_pid;
	d->next_prio = e[i].next_prio;
	snprintf(d->next_comm, sizeof(d->next_comm), "%s", trace_comm(t, e[i].next_pid));
	snprintf(d->irq, sizeof(d->irq), "%s", e[i].irq ? t->irqs[e[i].irq - 1] : "");
	snprintf(d->stack, sizeof(d->stack), "%s", e[i].stack ? t->stk[e[i].stack - 1] : "");
	d->timer_ticks = -1;
	if (t->timer) {
		d->timer_ticks = 0;
		for (uint64_t j = i; j > 0 && e[j - 1].pid == e[i].pid && e[j - 1].ts >= since; j--)
			d->timer_ticks += e[j - 1].type == EV_TIMER;
	}
	(void)ne;
}

void trace_join(const struct trace_events *t, const struct hold_rec *holds, uint64_t nholds,
		uint64_t fill_ns, struct evidence_phase out[2])
{
	uint64_t n = t->n;
	/* A microsecond stamp stands for +-500 ns around it; a nanosecond one for itself. */
	uint64_t slack = t->res_ns / 2;
	struct ev *e = malloc((n ? n : 1) * sizeof(*e));
	uint64_t *off[2] = { malloc((n + 1) * sizeof(uint64_t)),
			     malloc((n + 1) * sizeof(uint64_t)) };
	if (!e || !off[0] || !off[1]) {
		perror("trace_join");
		exit(1);
	}
	memcpy(e, t->ev, n * sizeof(*e));
	qsort(e, n, sizeof(*e), trace_ev_by_pid_ts);
	memset(out, 0, 2 * sizeof(*out));

	for (uint64_t h = 0; h < nholds; h++) {
		const struct hold_rec *r = &holds[h];
		int ph = fill_ns && r->acquire_ns >= fill_ns;
		struct evidence_phase *o = &out[ph];
		bool fault = false, switched = false, stack_fault = false;
		uint64_t fault_ts = r->acquire_ns;
		const struct ev *first = NULL;
		o->holds++;
		for (uint64_t i = lower(e, n, r->pid, r->acquire_ns, slack);
		     i < n && e[i].pid == r->pid && e[i].ts <= r->release_ns + slack; i++) {
			if (e[i].type == EV_FAULT) {
				fault = true;
				fault_ts = e[i].ts;
			}
			if (e[i].type != EV_OUT)
				continue;
			/* A fault on the stack is a fault in the hold, filtered out or not. */
			if (e[i].place != FP_NONE && !fault)
				stack_fault = true;
			if (!first)
				first = &e[i];
			switched = true;
			o->switches[e[i].kind]++;
			char *ex = o->example[e[i].kind][e[i].place];
			if (!ex[0] && e[i].stack)
				snprintf(ex, EXAMPLE_LEN, "%s", t->stk[e[i].stack - 1]);
			if (e[i].place == FP_IN && e[i].kind != SW_BLOCKED) {
				o->in_fault[e[i].kind]++;
				if (e[i].kind == SW_IRQ || e[i].kind == SW_PREEMPT) {
					o->irq_in_fault++;
					describe(t, e, n, i, fault_ts, fault, o);
				}
			}
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
		o->holds_fault_off_filter += stack_fault && !fault;
		fault |= stack_fault;
		o->holds_with_fault += fault;
		o->holds_switched += switched;
		if (fault && first) {
			o->fault_switched++;
			o->q_split[split_of(first)]++;
		}
	}
	for (int ph = 0; ph < 2; ph++) {
		struct evidence_phase *o = &out[ph];
		qsort(off[ph], o->offcpu_count, sizeof(uint64_t), cmp_u64);
		o->offcpu_p50_us = quantile_us(off[ph], o->offcpu_count, 0.50);
		o->offcpu_p99_us = quantile_us(off[ph], o->offcpu_count, 0.99);
		o->offcpu_max_us = o->offcpu_count ? (double)off[ph][o->offcpu_count - 1] / 1e3 : 0;
		o->ts_resolution_ns = t->res_ns;
		for (int k = 0; k < SW_KINDS; k++)
			for (int w = 0; w < 3; w++)
				if (t->first[k][w])
					snprintf(o->example_any[k][w], EXAMPLE_LEN, "%s",
						 t->stk[t->first[k][w] - 1]);
		o->timer_traced = t->timer;
		free(off[ph]);
	}
	free(e);
}
