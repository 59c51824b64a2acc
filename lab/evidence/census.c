/* The census of census.h: freezes, T_tail by the next acquirer, the channels. */
#include "census.h"

#include <stdlib.h>
#include <string.h>

#include "trace_events.h"

const char *dwait_name(enum dwait_cat c)
{
	static const char *const n[DW_CATS] = { "folio_wait", "rwsem_down", "mutex_lock",
						"hugetlb_fault_mutex", "other", "no_stack" };
	return c < DW_CATS ? n[c] : "?";
}

const char *acq_state_name(enum acq_state s)
{
	static const char *const n[AQ_STATES] = { "asleep", "woken", "preempted", "running_same_cpu",
						  "running_other_cpu", "releaser_again", "unknown" };
	return s < AQ_STATES ? n[s] : "?";
}

/* The frame names of " => frame+off/len" lines, in order from the top; offsets dropped. */
static bool frame_is(const char *line, const char *name, bool is_prefix)
{
	size_t k = strcspn(line, "+ \n"), n = strlen(name);
	return is_prefix ? k >= n && !strncmp(line, name, n) : k == n && !strncmp(line, name, n);
}

enum dwait_cat dwait_classify(const char *stack)
{
	static const char *const folio[] = { "folio_wait_bit_common", "__folio_lock",
					     "__folio_lock_killable", "__folio_lock_or_retry",
					     "folio_wait_bit", "folio_wait_bit_killable",
					     "folio_wait_writeback", NULL };
	static const char *const mutex[] = { "__mutex_lock", "mutex_lock", "__mutex_lock_slowpath",
					     "mutex_lock_killable", "mutex_lock_io", NULL };
	bool hugetlb = false;
	enum dwait_cat first = DW_OTHER;
	for (const char *p = stack; (p = strstr(p, " => "));) {
		p += 4;
		if (frame_is(p, "hugetlb_fault", false))
			hugetlb = true;
		if (first != DW_OTHER)
			continue;
		for (int i = 0; folio[i]; i++)
			if (frame_is(p, folio[i], false))
				first = DW_FOLIO;
		if (first == DW_OTHER && frame_is(p, "rwsem_down_", true))
			first = DW_RWSEM;
		for (int i = 0; first == DW_OTHER && mutex[i]; i++)
			if (frame_is(p, mutex[i], false))
				first = DW_MUTEX;
	}
	/* hugetlb_fault's hugetlb_fault_mutex_table[hash] is a plain mutex under it. */
	return first == DW_MUTEX && hugetlb ? DW_HUGETLB_MUTEX : first;
}

/* The events of pid, sorted by time: [*lo, *hi) in e. */
static void span_of(const struct ev *e, uint64_t n, int32_t pid, uint64_t *lo, uint64_t *hi)
{
	uint64_t a = 0, b = n;
	while (a < b) {
		uint64_t m = (a + b) / 2;
		if (e[m].pid < pid)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	for (b = a; b < n && e[b].pid == pid; b++)
		;
	*hi = b;
}

/* Index of pid's last event of a type in types at or before ts; -1 none. */
static int64_t last_before(const struct ev *e, uint64_t lo, uint64_t hi, uint64_t ts,
			   unsigned types)
{
	int64_t found = -1;
	uint64_t a = lo, b = hi;
	while (a < b) {		/* first event after ts */
		uint64_t m = (a + b) / 2;
		if (e[m].ts <= ts)
			a = m + 1;
		else
			b = m;
	}
	for (uint64_t i = a; i > lo; i--)
		if (types & (1u << e[i - 1].type)) {
			found = (int64_t)(i - 1);
			break;
		}
	return found;
}

static int64_t first_after(const struct ev *e, uint64_t lo, uint64_t hi, uint64_t ts,
			   unsigned types)
{
	for (uint64_t i = lo; i < hi; i++)
		if (e[i].ts > ts && (types & (1u << e[i].type)))
			return (int64_t)i;
	return -1;
}

#define SCHED_TYPES ((1u << EV_OUT) | (1u << EV_IN) | (1u << EV_WAKE))

/*
 * Where pid was at ts: on a CPU (*cpu), or off it and why.  With no event
 * of its own before ts, its next one says: an out means it was running.
 */
static enum acq_state state_at(const struct ev *e, uint64_t n, int32_t pid, uint64_t ts,
			       int32_t *cpu)
{
	uint64_t lo, hi;
	span_of(e, n, pid, &lo, &hi);
	int64_t i = last_before(e, lo, hi, ts, SCHED_TYPES);
	*cpu = -1;
	if (i < 0) {
		int64_t j = first_after(e, lo, hi, ts, (1u << EV_OUT) | (1u << EV_IN));
		if (j >= 0 && e[j].type == EV_OUT) {
			*cpu = e[j].cpu;
			return AQ_RUN_OTHER;	/* the caller compares the CPU */
		}
		return AQ_UNKNOWN;
	}
	if (e[i].type == EV_IN) {
		*cpu = e[i].cpu;
		return AQ_RUN_OTHER;
	}
	if (e[i].type == EV_WAKE)
		return AQ_WOKEN;
	return e[i].runnable ? AQ_PREEMPTED : AQ_ASLEEP;
}

/* Time pid spent off CPU inside [a, b]: outs to the next in, clipped. */
static uint64_t off_within(const struct ev *e, uint64_t n, int32_t pid, uint64_t a, uint64_t b)
{
	uint64_t lo, hi, sum = 0, from = a;
	span_of(e, n, pid, &lo, &hi);
	int32_t cpu;
	enum acq_state s = state_at(e, n, pid, a, &cpu);
	bool off = s == AQ_ASLEEP || s == AQ_WOKEN || s == AQ_PREEMPTED;
	for (uint64_t i = lo; i < hi && e[i].ts <= b; i++) {
		if (e[i].ts <= a)
			continue;
		if (e[i].type == EV_OUT && !off) {
			off = true;
			from = e[i].ts;
		} else if (e[i].type == EV_IN && off) {
			off = false;
			sum += e[i].ts - from;
		}
	}
	return off ? sum + (b - from) : sum;
}

static int by_pid_acquire(const void *a, const void *b)
{
	const struct hold_rec *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->acquire_ns < y->acquire_ns ? -1 : x->acquire_ns > y->acquire_ns;
}

static int by_acquire(const void *a, const void *b)
{
	uint64_t x = ((const struct hold_rec *)a)->acquire_ns;
	uint64_t y = ((const struct hold_rec *)b)->acquire_ns;
	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Whether pid held the strategy lock at ts (holds sorted by pid, acquire). */
static bool holding(const struct hold_rec *h, uint64_t n, int32_t pid, uint64_t ts)
{
	uint64_t a = 0, b = n;
	while (a < b) {		/* first hold of pid acquired after ts */
		uint64_t m = (a + b) / 2;
		if (h[m].pid < pid || (h[m].pid == pid && h[m].acquire_ns <= ts))
			a = m + 1;
		else
			b = m;
	}
	return a > 0 && h[a - 1].pid == pid && h[a - 1].release_ns >= ts;
}

static void lat_add(struct census_lat *l, uint64_t d)
{
	l->n++;
	l->total_ns += d;
	if (d > l->max_ns)
		l->max_ns = d;
	uint64_t us = d / 1000, b = 0;
	while (us > 1 && b < CENSUS_LAT_BUCKETS - 1) {
		us >>= 1;
		b++;
	}
	l->hist[b]++;
}

static uint64_t median_of(uint64_t *v, uint64_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What one hold's events say: switches, faults, ticks, the first switch. */
struct hold_view {
	bool switched, fault_ev, fault_stack;
	uint64_t fault_ts;	/* the first fault event */
	uint64_t ticks, ticks_after_fault;
	int64_t first_out;
};

static void view_hold(const struct ev *e, uint64_t lo, uint64_t hi, const struct hold_rec *r,
		      uint64_t slack, struct hold_view *v)
{
	memset(v, 0, sizeof(*v));
	v->first_out = -1;
	uint64_t a = lo, b = hi;
	while (a < b) {		/* the pid's first event at or after the acquire, less the slack */
		uint64_t m = (a + b) / 2;
		if (e[m].ts + slack < r->acquire_ns)
			a = m + 1;
		else
			b = m;
	}
	for (uint64_t i = a; i < hi && e[i].ts <= r->release_ns + slack; i++) {
		if (e[i].type == EV_FAULT && !v->fault_ev) {
			v->fault_ev = true;
			v->fault_ts = e[i].ts;
		} else if (e[i].type == EV_TIMER) {
			v->ticks++;
			v->ticks_after_fault += v->fault_ev;
		} else if (e[i].type == EV_OUT) {
			if (!v->switched)
				v->first_out = (int64_t)i;
			v->switched = true;
			v->fault_stack |= e[i].place != FP_NONE;
		}
	}
}

static enum q_split route_of(const struct ev *x)
{
	if (x->place == FP_IN)
		return x->kind == SW_BLOCKED ? Q_BLOCKED_IN_FAULT : Q_IN_FAULT;
	return x->place == FP_EXIT ? Q_FAULT_EXIT : Q_OTHER;
}

/* Off-CPU time from the out at index i to pid's next in, or the release. */
static uint64_t off_from(const struct ev *e, uint64_t hi, uint64_t i, uint64_t release)
{
	uint64_t back = release;
	for (uint64_t j = i + 1; j < hi; j++)
		if (e[j].type == EV_IN) {
			back = e[j].ts < back ? e[j].ts : back;
			break;
		}
	return back > e[i].ts ? back - e[i].ts : 0;
}

static uint64_t waiting_within(const struct hold_rec *h, uint64_t nh, uint64_t a, uint64_t b)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < nh; i++) {
		uint64_t s = h[i].wait_ns > a ? h[i].wait_ns : a;
		uint64_t t = h[i].acquire_ns < b ? h[i].acquire_ns : b;
		if (t > s)
			sum += t - s;
	}
	return sum;
}

/* Freezes, faults spanning a tick, routes' stalls: one pass over the phase's holds. */
static void census_holds(const struct ev *e, uint64_t n, const struct hold_rec *h, uint64_t nh,
			 const struct hold_rec *all, uint64_t nall, uint64_t slack,
			 uint64_t fault_ref_ns, struct census_phase *o)
{
	uint64_t *dur = malloc((nh ? nh : 1) * sizeof(*dur));
	uint64_t *calm = malloc((nh ? nh : 1) * sizeof(*calm));
	struct hold_view *views = malloc((nh ? nh : 1) * sizeof(*views));
	if (!dur || !calm || !views)
		abort();
	uint64_t ncalm = 0;
	for (uint64_t k = 0; k < nh; k++) {
		const struct hold_rec *r = &h[k];
		uint64_t lo, hi, d = r->release_ns - r->acquire_ns;
		span_of(e, n, r->pid, &lo, &hi);
		struct hold_view *v = &views[k];
		view_hold(e, lo, hi, r, slack, v);
		dur[k] = d;
		o->lock_ns += d;
		if (v->fault_ev && !v->switched && !v->ticks)
			calm[ncalm++] = d;
		if (v->fault_ev) {
			o->fault_holds++;
			o->fault_holds_ticked += v->ticks_after_fault > 0;
		}
		if ((v->fault_ev || v->fault_stack) && v->first_out >= 0) {
			/* The stall of this route: the holder's off-CPU time, and its waiters'. */
			enum q_split s = route_of(&e[v->first_out]);
			o->route_n[s]++;
			for (uint64_t i = (uint64_t)v->first_out; i < hi && e[i].ts <= r->release_ns + slack;
			     i++) {
				if (e[i].type != EV_OUT)
					continue;
				uint64_t off = off_from(e, hi, i, r->release_ns);
				o->route_off_ns[s] += off;
				o->route_waiter_ns[s] += waiting_within(all, nall, e[i].ts, e[i].ts + off);
			}
		}
	}
	o->holds = nh;
	o->fault_ref_n = fault_ref_ns ? 0 : ncalm;
	o->fault_ref_ns = fault_ref_ns ? fault_ref_ns : median_of(calm, ncalm);
	o->fault_ref_given = fault_ref_ns != 0;
	memcpy(calm, dur, nh * sizeof(*dur));
	o->hold_median_ns = median_of(calm, nh);
	for (uint64_t k = 0; k < nh; k++) {
		const struct hold_view *v = &views[k];
		if (v->switched)
			continue;
		int f = v->fault_ev || v->fault_stack;
		uint64_t limit = f ? 2 * o->fault_ref_ns : 10 * o->hold_median_ns;
		if ((f && !o->fault_ref_ns) || dur[k] <= limit)
			continue;
		o->freeze_n[f]++;
		o->freeze_ns[f] += dur[k];
		o->freeze_ticked[f] += v->ticks > 0;
		o->freeze_ticks[f] += v->ticks;
	}
	free(dur);
	free(calm);
	free(views);
}

/* T_tail gaps (hold_tail.c's definition) by the next acquirer's state. */
static void census_tails(const struct ev *e, uint64_t n, struct hold_rec *h, uint64_t nh,
			 struct census_phase *o)
{
	if (nh < 2)
		return;
	qsort(h, nh, sizeof(*h), by_acquire);
	uint64_t *min_wait = malloc(nh * sizeof(*min_wait)), *who = malloc(nh * sizeof(*who));
	if (!min_wait || !who)
		abort();
	/* The earliest wait start among holds i.., and whose it is. */
	min_wait[nh - 1] = h[nh - 1].wait_ns;
	who[nh - 1] = nh - 1;
	for (uint64_t i = nh - 1; i-- > 0;) {
		bool mine = h[i].wait_ns < min_wait[i + 1];
		min_wait[i] = mine ? h[i].wait_ns : min_wait[i + 1];
		who[i] = mine ? i : who[i + 1];
	}
	for (uint64_t i = 0; i + 1 < nh; i++) {
		uint64_t rel = h[i].release_ns, next = h[i + 1].acquire_ns;
		uint64_t queued = min_wait[i + 1] > rel ? min_wait[i + 1] : rel;
		if (next <= rel || queued >= next)
			continue;
		int32_t cpu, rcpu;
		enum acq_state s = state_at(e, n, h[i + 1].pid, queued, &cpu);
		/* The releaser's CPU at the release: its last switch in, or where it acquired. */
		if (state_at(e, n, h[i].pid, rel, &rcpu) != AQ_RUN_OTHER || rcpu < 0)
			rcpu = h[i].cpu;
		if (h[i + 1].pid == h[i].pid)
			s = AQ_SELF;
		else if (s == AQ_RUN_OTHER && cpu == rcpu)
			s = AQ_RUN_SAME;
		o->tail_gaps++;
		o->tail_ns += next - queued;
		o->tail_n[s]++;
		o->tail_state_ns[s] += next - queued;
		if (s == AQ_SELF) {
			uint64_t w = who[i + 1];
			enum acq_state ws = state_at(e, n, h[w].pid, queued, &cpu);
			if (ws == AQ_RUN_OTHER && cpu == rcpu)
				ws = AQ_RUN_SAME;
			o->self_waiter_n[ws]++;
			o->self_waiter_ns[ws] += next - queued;
		}
	}
	free(min_wait);
	free(who);
}

/* Every traced task's D switches, contended folios, wakeups of holders asleep in a fault. */
static void census_tasks(const struct trace_events *t, const struct ev *e, uint64_t n,
			 const struct hold_rec *byp, uint64_t nh,
			 uint64_t fill_ns, const struct ev *unl, uint64_t nunl,
			 struct census_phase out[2])
{
	for (uint64_t i = 0, hi = 0; i < n; i++) {
		const struct ev *x = &e[i];
		struct census_phase *o = &out[fill_ns && x->ts >= fill_ns];
		if (i >= hi)	/* the end of x's pid's events */
			for (hi = i; hi < n && e[hi].pid == x->pid; hi++)
				;
		if (x->type == EV_OUT && x->dstate && x->foreign) {
			o->d_foreign++;
		} else if (x->type == EV_OUT && x->dstate) {
			enum dwait_cat c = x->has_stack ? (enum dwait_cat)x->dcat : DW_NOSTACK;
			int64_t in = first_after(e, i + 1, hi, x->ts - 1, 1u << EV_IN);
			o->d_n[c]++;
			o->d_ns[c] += in >= 0 ? e[in].ts - x->ts : 0;
			o->d_in_hold[c] += holding(byp, nh, x->pid, x->ts);
		}
		if (x->type == EV_OUT && x->kind == SW_BLOCKED && x->place == FP_IN &&
		    holding(byp, nh, x->pid, x->ts)) {
			o->slept_in_fault++;
			int64_t w = first_after(e, i + 1, hi, x->ts, 1u << EV_WAKE);
			int64_t in = first_after(e, i + 1, hi, x->ts, 1u << EV_IN);
			if (w < 0 || in < 0 || e[w].ts > e[in].ts)
				o->slept_no_wake++;
			else
				lat_add(&o->wake[e[w].aux >= 0 && e[w].cpu != e[w].aux],
					e[in].ts - e[w].ts);
		}
		if (x->type != EV_FWAIT)
			continue;
		/* Not a task of the traced program: counted apart, as for the D switches. */
		const char *comm = trace_comm(t, x->pid);
		if (strcmp(comm, "?") && !trace_own_comm(comm, strlen(comm))) {
			o->folio_foreign++;
			continue;
		}
		o->folio_waits++;
		o->folio_waiter_in_hold += holding(byp, nh, x->pid, x->ts);
		/* The unlock that woke it: the first of the same folio at or after the wait. */
		uint64_t a = 0, b = nunl;
		while (a < b) {
			uint64_t m = (a + b) / 2;
			if (unl[m].addr < x->addr || (unl[m].addr == x->addr && unl[m].ts < x->ts))
				a = m + 1;
			else
				b = m;
		}
		if (a == nunl || unl[a].addr != x->addr)
			continue;
		o->folio_joined++;
		o->folio_wait_ns += unl[a].ts - x->ts;
		if (unl[a].pid == x->pid) {
			o->folio_self++;
			continue;
		}
		int32_t cpu;
		enum acq_state s = state_at(e, n, unl[a].pid, x->ts, &cpu);
		if (s == AQ_ASLEEP || s == AQ_WOKEN || s == AQ_PREEMPTED) {
			o->folio_holder_off++;
			o->folio_holder_preempted += s == AQ_PREEMPTED;
		}
		o->folio_holder_off_ns += off_within(e, n, unl[a].pid, x->ts, unl[a].ts);
	}
}

static int by_addr_ts(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

void trace_census(const struct trace_events *t, const struct hold_rec *holds, uint64_t nholds,
		  uint64_t fill_ns, uint64_t fault_ref_ns, struct census_phase out[2])
{
	uint64_t n = t->n, nunl = 0;
	struct ev *e = malloc((n ? n : 1) * sizeof(*e)), *unl = malloc((n ? n : 1) * sizeof(*e));
	struct hold_rec *ph[2] = { malloc((nholds ? nholds : 1) * sizeof(*holds)),
				   malloc((nholds ? nholds : 1) * sizeof(*holds)) };
	struct hold_rec *byp = malloc((nholds ? nholds : 1) * sizeof(*holds));
	if (!e || !unl || !ph[0] || !ph[1] || !byp)
		abort();
	memcpy(e, t->ev, n * sizeof(*e));
	qsort(e, n, sizeof(*e), trace_ev_by_pid_ts);
	for (uint64_t i = 0; i < n; i++)
		if (e[i].type == EV_FUNLOCK)
			unl[nunl++] = e[i];
	qsort(unl, nunl, sizeof(*unl), by_addr_ts);
	memcpy(byp, holds, nholds * sizeof(*holds));
	qsort(byp, nholds, sizeof(*byp), by_pid_acquire);
	uint64_t nph[2] = { 0, 0 };
	for (uint64_t i = 0; i < nholds; i++) {
		int p = fill_ns && holds[i].acquire_ns >= fill_ns;
		ph[p][nph[p]++] = holds[i];
	}
	memset(out, 0, 2 * sizeof(*out));
	for (int p = 0; p < 2; p++) {
		census_holds(e, n, ph[p], nph[p], holds, nholds, t->res_ns / 2, fault_ref_ns, &out[p]);
		census_tails(e, n, ph[p], nph[p], &out[p]);
	}
	census_tasks(t, e, n, byp, nholds, fill_ns, unl, nunl, out);
	for (int p = 0; p < 2; p++) {
		out[p].done = true;
		out[p].folios_traced = t->folios;
		out[p].wakes_traced = t->wakes;
		out[p].timer_traced = t->timer;
	}
	free(e);
	free(unl);
	free(ph[0]);
	free(ph[1]);
	free(byp);
}
