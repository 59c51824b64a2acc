/*
 * The strategy-lock simulation (see sim.h; docs/scale.md for the model).
 *
 * Time is in nanoseconds (double).  Each CPU runs at most one task; the
 * running task's phase (work, spin, fault, hold) finishes at a DONE event
 * that is invalidated (gen) whenever the CPU switches or the phase
 * changes.  Ticks, sleepers' wakeups and slice-grant expiries are the
 * other events.  Ties break by insertion order, so a seed fixes the run.
 */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eevdf.h"
#include "channels.h"
#include "rng.h"
#include "spin_backoff.h"

/* PH_KWORK: the kernel part of the work between holds (faults outside the lock). */
enum phase { PH_WORK, PH_SPIN, PH_FAULT, PH_HOLD, PH_SLEEP, PH_BLOCKED, PH_KWORK };
enum { NEED_NO, NEED_LAZY, NEED_FULL };
enum evtype { EV_TICK, EV_DONE, EV_WAKE, EV_GRANT, EV_KICK };

struct ev {
	double t;
	uint64_t seq;
	int type, id;
	uint32_t gen;
};

struct task {
	enum phase ph;
	double rem;		/* ns left of work, fault or hold */
	double spins;		/* iterations spun since the last sleep */
	int spd;		/* this backend's spins_per_delay */
	long cur_delay;		/* us; 0 until this wait has slept */
	uint32_t rng;		/* s_lock's backoff stream */
	bool waiting;		/* between a failed first TAS and the acquisition */
	double v, deadline;	/* EEVDF virtual runtime and deadline */
	int cpu;
	bool granted;		/* rseq slice extension granted in this hold */
	bool blocked_once;	/* this fault already slept in the blocked channel */
};

struct cpu {
	int cur;
	uint32_t gen, grant_gen;
	double t_last;
	int need;
	int *rq, nrq;
};

struct sim {
	const struct sim_params *p;
	struct task *t;
	struct cpu *c;
	struct ev *heap;
	size_t nheap, capheap;
	uint64_t seq, rng;
	double now, slice;
	int active;		/* the running vCPU under the round robin */
	uint32_t rr_gen;
	double last_switch;
	int holder;
	bool hold_desched;	/* this hold's holder went off CPU */
	bool hold_faulted;
	bool holder_off;	/* the holder is off CPU with the lock */
	double off_since;	/* since when */
	double off_sum;		/* holder's time off CPU in this hold */
	bool tail_open;		/* a descheduled hold ended: time the tail */
	double tail_start;
	struct sim_result r;
	double spin_ns_total, busy_ns_total;
};

static bool measuring(const struct sim *s)
{
	return s->now >= s->p->warmup_ns;
}

/* ---- events ---- */

static int push(struct sim *s, double t, int type, int id, uint32_t gen)
{
	if (s->nheap == s->capheap) {
		size_t cap = s->capheap ? s->capheap * 2 : 1024;
		struct ev *h = realloc(s->heap, cap * sizeof(*h));
		if (!h)
			return -1;
		s->heap = h;
		s->capheap = cap;
	}
	struct ev e = { t, s->seq++, type, id, gen };
	size_t i = s->nheap++;
	while (i > 0) {
		size_t up = (i - 1) / 2;
		struct ev *u = &s->heap[up];
		if (u->t < e.t || (u->t == e.t && u->seq < e.seq))
			break;
		s->heap[i] = *u;
		i = up;
	}
	s->heap[i] = e;
	return 0;
}

static struct ev pop(struct sim *s)
{
	struct ev top = s->heap[0], last = s->heap[--s->nheap];
	size_t i = 0, n = s->nheap;
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		const struct ev *best = &last;
		if (l < n && (s->heap[l].t < best->t ||
			      (s->heap[l].t == best->t && s->heap[l].seq < best->seq))) {
			m = l;
			best = &s->heap[l];
		}
		if (l + 1 < n && (s->heap[l + 1].t < best->t ||
				  (s->heap[l + 1].t == best->t && s->heap[l + 1].seq < best->seq)))
			m = l + 1;
		if (m == i)
			break;
		s->heap[i] = s->heap[m];
		i = m;
	}
	if (n)
		s->heap[i] = last;
	return top;
}

/*
 * ---- vCPU availability: icount's round robin ----
 * One vCPU runs at a time.  It runs until the next timer deadline (a tick,
 * a sleeper's hrtimer, a grant's end: any timer event), until it idles, or
 * for at most vcpu_rr_ns (the round robin's kick), and the next vCPU with
 * a task takes over.  A frozen vCPU's task makes no progress.
 */

static bool rr(const struct sim *s)
{
	return s->p->vcpu_rr_ns > 0;
}

static double avail(const struct sim *s, int c, double t0, double t1)
{
	return !rr(s) || c == s->active ? t1 - t0 : 0;
}

static double finish_at(const struct sim *s, int c, double t0, double dur)
{
	return !rr(s) || c == s->active ? t0 + dur : INFINITY;
}

/* ---- the backoff, s_lock.c's arithmetic ---- */

/* A waiter out of spins: the delay it sleeps, and its state for the next. */
static long waiter_sleep(struct task *t)
{
	long d = spin_backoff_first(t->cur_delay);
	t->cur_delay = spin_backoff_grow(d, spin_backoff_random(&t->rng));
	t->spins = 0;
	return d;
}

uint32_t sim_backoff_sequence(uint32_t seed, long *delays_us, int n)
{
	struct task t = { 0 };
	t.rng = spin_backoff_seed(seed);
	for (int i = 0; i < n; i++)
		delays_us[i] = waiter_sleep(&t);
	return t.rng;
}

/* ---- scheduling ---- */

static void account(struct sim *s, int c)
{
	struct cpu *cp = &s->c[c];
	double el = avail(s, c, cp->t_last, s->now);
	cp->t_last = s->now;
	if (cp->cur < 0 || el <= 0)
		return;
	struct task *t = &s->t[cp->cur];
	t->v += el;
	if (measuring(s))
		s->busy_ns_total += el;
	if (t->ph == PH_SPIN) {
		t->spins += el / s->p->spin_iter_ns;
		if (measuring(s))
			s->spin_ns_total += el;
	} else {
		t->rem -= el;
	}
}

static int arm_done(struct sim *s, int c)
{
	struct cpu *cp = &s->c[c];
	cp->gen++;
	if (cp->cur < 0)
		return 0;
	struct task *t = &s->t[cp->cur];
	double dur = t->ph == PH_SPIN ? (t->spd - t->spins) * s->p->spin_iter_ns : t->rem;
	double at = finish_at(s, c, s->now, dur > 0 ? dur : 0);
	/* A frozen vCPU's phase is armed when it runs again. */
	return isinf(at) ? 0 : push(s, at, EV_DONE, c, cp->gen);
}

static double avg_v(const struct sim *s, int c)
{
	const struct cpu *cp = &s->c[c];
	double sum = 0;
	int n = 0;
	if (cp->cur >= 0)
		sum += s->t[cp->cur].v, n++;
	for (int i = 0; i < cp->nrq; i++)
		sum += s->t[cp->rq[i]].v, n++;
	return n ? sum / n : 0;
}

static int acquire(struct sim *s, int id);

/* EEVDF's pick: the earliest virtual deadline among eligible tasks. */
static int pick(struct sim *s, int c)
{
	struct cpu *cp = &s->c[c];
	cp->cur = -1;
	cp->need = NEED_NO;
	if (cp->nrq == 0)
		return arm_done(s, c);
	double avg = avg_v(s, c);
	int best = -1;
	for (int i = 0; i < cp->nrq; i++) {
		const struct task *t = &s->t[cp->rq[i]];
		if (t->v > avg + 1e-6)
			continue;
		if (best < 0 || t->deadline < s->t[cp->rq[best]].deadline)
			best = i;
	}
	if (best < 0)
		best = 0;
	int id = cp->rq[best];
	cp->rq[best] = cp->rq[--cp->nrq];
	cp->cur = id;
	if (id == s->holder && s->holder_off) {
		s->off_sum += s->now - s->off_since;
		s->holder_off = false;
	}
	struct task *t = &s->t[id];
	if (t->v >= t->deadline)
		t->deadline = t->v + s->slice;
	/* A waiter back on CPU tests the lock at its next iteration. */
	if (t->ph == PH_SPIN && s->holder < 0)
		return acquire(s, id);
	return arm_done(s, c);
}

static void note_desched(struct sim *s, int id)
{
	if (s->holder != id)
		return;
	s->off_since = s->now;
	s->holder_off = true;
	if (s->hold_desched)
		return;
	s->hold_desched = true;
	if (measuring(s)) {
		s->r.desched_holds++;
		if (s->hold_faulted)
			s->r.desched_faulted++;
	}
}

/*
 * schedule() with the running task still runnable: a preemption when the
 * pick is another task; when it picks the same one again, nothing left
 * the CPU and the request is simply consumed.
 */
static int preempt(struct sim *s, int c)
{
	struct cpu *cp = &s->c[c];
	account(s, c);
	int id = cp->cur;
	if (id < 0)
		return 0;
	cp->rq[cp->nrq++] = id;
	if (pick(s, c))
		return -1;
	if (cp->cur == id)
		return 0;
	note_desched(s, id);
	if (measuring(s))
		s->r.preemptions++;
	return 0;
}

static bool in_kernel(const struct task *t)
{
	return t->ph == PH_FAULT || t->ph == PH_KWORK;
}

/*
 * A pending request meets the running task: does it switch now?  User
 * mode: every request came with an interrupt (tick, hrtimer, IPI) whose
 * return to user acts on it.  In the kernel (a holder's fault, or a
 * non-holder's faults outside the lock): full at IRQ exit; lazy only once
 * the tick has upgraded it; none and voluntary not before the return to
 * user (the simulated fault path has no cond_resched).  A holder in user mode with rseq gets one grant per hold.
 */
static int maybe_switch(struct sim *s, int c)
{
	struct cpu *cp = &s->c[c];
	if (cp->cur < 0 || cp->need == NEED_NO)
		return 0;
	struct task *t = &s->t[cp->cur];
	if (in_kernel(t)) {
		bool now = s->p->model == PM_FULL ||
			   (s->p->model == PM_LAZY && cp->need == NEED_FULL);
		if (!now)
			return 0;
	} else if (s->p->rseq_grant_ns > 0 && s->holder == cp->cur) {
		if (!t->granted) {
			t->granted = true;
			account(s, c);
			return push(s, s->now + s->p->rseq_grant_ns, EV_GRANT, c, ++cp->grant_gen);
		}
		return 0;	/* within the grant: the kernel waits for the yield */
	}
	return preempt(s, c);
}

static int request(struct sim *s, int c, int level)
{
	struct cpu *cp = &s->c[c];
	if (s->p->model != PM_LAZY)
		level = NEED_FULL;
	bool fresh = cp->need == NEED_NO;
	if (level > cp->need)
		cp->need = level;
	int cur = cp->cur;
	if (maybe_switch(s, c))
		return -1;
	/* A new request the running task's kernel section holds off. */
	if (fresh && cur >= 0 && cp->cur == cur && cp->need != NEED_NO && in_kernel(&s->t[cur]) &&
	    measuring(s)) {
		if (s->holder == cur)
			s->r.deferred_holder++;
		else
			s->r.deferred_other++;
	}
	return 0;
}

/* ---- the lock ---- */

static int acquire(struct sim *s, int id)
{
	struct task *t = &s->t[id];
	if (s->holder >= 0)	/* two holders: a bug, and the run fails */
		return -1;
	s->holder = id;
	s->hold_desched = false;
	t->granted = false;
	if (t->waiting)
		t->spd = spin_backoff_adapt(t->spd, t->cur_delay != 0);
	t->waiting = false;
	t->cur_delay = 0;
	t->spins = 0;
	/* T of a descheduled hold: the holder's time off CPU with the lock,
	 * plus the backoff tail from its release to the next acquisition. */
	if (s->tail_open) {
		if (measuring(s)) {
			s->r.t_stall_us += (s->off_sum + s->now - s->tail_start) / 1000;
			s->r.stalls++;
		}
		s->tail_open = false;
	}
	s->off_sum = 0;
	s->hold_faulted = mrng_unit(&s->rng) < s->p->p_f;
	if (measuring(s)) {
		s->r.acquisitions++;
		if (s->hold_faulted)
			s->r.faulted++;
	}
	if (s->hold_faulted) {
		t->ph = PH_FAULT;
		t->rem = inputs_dist_sample(s->p->fault_us, mrng_unit(&s->rng)) * 1000;
	} else {
		t->ph = PH_HOLD;
		t->rem = s->p->hold_ns;
	}
	return arm_done(s, t->cpu);
}

/* Released: a waiter spinning on a running CPU sees it first. */
static bool spinning_on_cpu(const struct sim *s, int c)
{
	int id = s->c[c].cur;
	return id >= 0 && s->t[id].ph == PH_SPIN && avail(s, c, s->now, s->now + 1) > 0;
}

static int hand_over(struct sim *s)
{
	int n = 0;
	if (s->holder >= 0)	/* already taken: a yield's pick can take it */
		return 0;
	for (int c = 0; c < s->p->cpus; c++)
		n += spinning_on_cpu(s, c);
	if (n == 0)
		return 0;
	int k = (int)(mrng_next(&s->rng) % (uint64_t)n);
	for (int c = 0; c < s->p->cpus; c++)
		if (spinning_on_cpu(s, c) && k-- == 0) {
			account(s, c);
			return acquire(s, s->c[c].cur);
		}
	return 0;
}

/* The running task's phase has run out. */
static int phase_done(struct sim *s, int c)
{
	struct cpu *cp = &s->c[c];
	account(s, c);
	int id = cp->cur;
	struct task *t = &s->t[id];
	switch (t->ph) {
	case PH_WORK:
		if (s->holder < 0)
			return acquire(s, id);
		t->ph = PH_SPIN;
		t->waiting = true;
		t->spins = 0;
		t->cur_delay = 0;
		return arm_done(s, c);
	case PH_SPIN: {
		long d = waiter_sleep(t);
		if (measuring(s))
			s->r.sleeps++;
		t->ph = PH_SLEEP;
		if (push(s, s->now + d * 1000.0 + s->p->timer_slack_ns, EV_WAKE, id, 0))
			return -1;
		return pick(s, c);
	}
	case PH_FAULT:
		/*
		 * The blocked-in-fault channel: the fault waits for a kernel
		 * lock, asleep with the strategy lock held, then finishes.
		 * (Drawn only when measured, so runs without it keep their stream.)
		 */
		if (s->p->block_p > 0 && !t->blocked_once && mrng_unit(&s->rng) < s->p->block_p) {
			t->blocked_once = true;
			t->ph = PH_BLOCKED;
			if (measuring(s))
				s->r.blocked++;
			note_desched(s, id);
			if (push(s, s->now + s->p->block_ns, EV_WAKE, id, 0))
				return -1;
			return pick(s, c);
		}
		/* Return to user: every model acts on a pending request here. */
		t->blocked_once = false;
		t->ph = PH_HOLD;
		t->rem = s->p->hold_ns;
		if (arm_done(s, c))
			return -1;
		if (cp->need != NEED_NO) {
			if (s->p->rseq_grant_ns > 0 && !t->granted)
				return maybe_switch(s, c);
			return preempt(s, c);
		}
		return 0;
	case PH_HOLD: {
		bool yield = t->granted;
		s->holder = -1;
		if (s->hold_desched) {
			s->tail_open = true;
			s->tail_start = s->now;
		}
		/* The next transaction's faults outside the lock come first, in the kernel. */
		t->ph = s->p->work_kernel_ns > 0 ? PH_KWORK : PH_WORK;
		t->rem = s->p->work_kernel_ns > 0 ? s->p->work_kernel_ns : s->p->work_ns;
		if (arm_done(s, c))
			return -1;
		/* A granted holder gives the CPU back at once (rseq_slice_yield). */
		if (yield && cp->need != NEED_NO && preempt(s, c))
			return -1;
		return hand_over(s);
	}
	case PH_KWORK:
		/* Back to user mode: every model acts on a pending request here. */
		t->ph = PH_WORK;
		t->rem = s->p->work_ns - s->p->work_kernel_ns;
		if (arm_done(s, c))
			return -1;
		return cp->need != NEED_NO ? preempt(s, c) : 0;
	case PH_SLEEP:
	case PH_BLOCKED:
		break;
	}
	return 0;
}

static int wake(struct sim *s, int id)
{
	struct task *t = &s->t[id];
	int c = t->cpu;
	struct cpu *cp = &s->c[c];
	account(s, c);
	/* Placed at the queue's average: a long sleeper keeps no lag. */
	if (cp->cur >= 0 || cp->nrq > 0)
		t->v = fmax(t->v, avg_v(s, c));
	t->deadline = t->v + s->slice;
	if (t->ph == PH_BLOCKED) {
		/* The blocked holder's fault resumes where it slept: its end is due at once. */
		t->ph = PH_FAULT;
		t->rem = 0;
	} else {
		t->ph = PH_SPIN;
		t->spins = 0;
	}
	if (cp->cur < 0) {
		cp->cur = id;
		if (id == s->holder && s->holder_off) {
			s->off_sum += s->now - s->off_since;
			s->holder_off = false;
		}
		if (s->holder < 0)
			return acquire(s, id);
		return arm_done(s, c);
	}
	cp->rq[cp->nrq++] = id;
	if (t->deadline < s->t[cp->cur].deadline)
		return request(s, c, NEED_LAZY);
	return 0;
}

static int tick(struct sim *s, int c)
{
	struct cpu *cp = &s->c[c];
	if (push(s, s->now + 1e9 / s->p->hz, EV_TICK, c, 0))
		return -1;
	account(s, c);
	if (cp->cur < 0)
		return 0;
	/* Lazy: a request still pending at a tick becomes a full one. */
	if (cp->need == NEED_LAZY) {
		cp->need = NEED_FULL;
		if (maybe_switch(s, c))
			return -1;
		if (cp->cur < 0)
			return 0;
	}
	struct task *t = &s->t[cp->cur];
	if (t->v >= t->deadline) {
		t->deadline = t->v + s->slice;
		if (cp->nrq > 0)
			return request(s, c, NEED_LAZY);
	}
	return 0;
}

static int grant_end(struct sim *s, int c)
{
	struct cpu *cp = &s->c[c];
	if (cp->cur < 0 || cp->need == NEED_NO)
		return 0;
	struct task *t = &s->t[cp->cur];
	if (s->holder == cp->cur && t->granted)
		return preempt(s, c);
	return 0;
}

/* The round robin moves on: the next vCPU with a task runs. */
static int rr_switch(struct sim *s)
{
	int n = s->p->cpus, next = -1;
	for (int i = 1; i <= n; i++) {
		int c = (s->active + i) % n;
		if (s->c[c].cur >= 0) {
			next = c;
			break;
		}
	}
	if (next < 0)
		return 0;
	int old = s->active;
	s->last_switch = s->now;
	account(s, old);
	s->active = next;
	s->c[next].t_last = s->now;
	if (arm_done(s, old))
		return -1;
	if (push(s, s->now + s->p->vcpu_rr_ns, EV_KICK, 0, ++s->rr_gen))
		return -1;
	/* A waiter whose vCPU was frozen tests the lock as soon as it runs. */
	int id = s->c[next].cur;
	if (s->t[id].ph == PH_SPIN && s->holder < 0)
		return acquire(s, id);
	return arm_done(s, next);
}

/* ---- setup and run ---- */

void sim_params_from_inputs(struct sim_params *p, const struct model_inputs *in, int cpus,
			    int clients, enum pmodel model, uint64_t seed)
{
	memset(p, 0, sizeof(*p));
	p->cpus = cpus;
	p->clients = clients;
	p->hz = in->hz;
	p->model = model;
	p->m = in->m.v;
	p->hold_ns = in->hold_us.v * 1000;
	p->p_f = in->p_f.v;
	p->fault_us = &in->fault_us;
	/* X0 is CPU-bound: min(N0, C0) backends each spend 1/X0 per
	 * transaction running, faults included. */
	int at = in->clients < in->cpus ? in->clients : in->cpus;
	double per_acq = at / in->x0_tps.v / p->m * 1e9;
	p->work_ns = fmax(0, per_acq - p->hold_ns - p->p_f * inputs_dist_mean(&in->fault_us) * 1000);
	/*
	 * The non-holders' kernel time: the fill's minor faults a transaction
	 * takes outside the lock (all its faults, less the p_f m inside), each
	 * as long as a faulting hold's.  Unknown without faults_per_txn: then
	 * the work is all user mode, as before it was measured.
	 */
	double outside = in->faults_per_txn.v > 0 ? in->faults_per_txn.v - p->m * p->p_f : 0;
	if (outside > 0)
		p->work_kernel_ns = fmin(p->work_ns, outside / p->m * inputs_dist_mean(&in->fault_us) * 1000);
	p->spin_iter_ns = in->spin_iter_ns;
	p->timer_slack_ns = in->timer_slack_us * 1000;
	p->spins_per_delay0 = in->spins_per_delay0;
	p->duration_ns = 2e9;
	p->warmup_ns = 0.2e9;
	p->seed = seed;
	/* The one other channel the simulation carries; the wakeup's latency and a
	 * fault spanning a tick are the scheduler's own here, freezes the round robin's. */
	if (ch_applies(in, CH_BLOCKED, cpus) && ch_measured(in, CH_BLOCKED, model)) {
		p->block_p = in->ch[CH_BLOCKED].p[model].v;
		p->block_ns = in->ch[CH_BLOCKED].t_us.v * 1000;
	}
}

int sim_run(const struct sim_params *p, struct sim_result *r)
{
	if (p->cpus < 1 || p->clients < 1 || p->hz < 1 || p->spin_iter_ns <= 0 || p->m <= 0 ||
	    p->duration_ns <= p->warmup_ns)
		return -1;
	struct sim s = { 0 };
	s.p = p;
	s.rng = p->seed;
	s.slice = p->base_slice_ns > 0 ? p->base_slice_ns : eevdf_slice_ns(p->cpus);
	s.holder = -1;
	s.t = calloc((size_t)p->clients, sizeof(*s.t));
	s.c = calloc((size_t)p->cpus, sizeof(*s.c));
	int rc = -1;
	if (!s.t || !s.c)
		goto out;
	for (int c = 0; c < p->cpus; c++) {
		s.c[c].cur = -1;
		/* Backends are pinned round robin: at most clients / cpus + 1 each. */
		s.c[c].rq = calloc((size_t)(p->clients / p->cpus + 1), sizeof(int));
		if (!s.c[c].rq)
			goto out;
		if (push(&s, 1e9 / p->hz, EV_TICK, c, 0))
			goto out;
	}
	for (int i = 0; i < p->clients; i++) {
		struct task *t = &s.t[i];
		t->cpu = i % p->cpus;
		t->spd = p->spins_per_delay0;
		t->rng = spin_backoff_seed((uint32_t)mrng_next(&s.rng) | 1u);
		t->ph = PH_WORK;
		/* Staggered starts, as backends connect one by one. */
		t->rem = p->work_ns * mrng_unit(&s.rng);
		t->deadline = s.slice;
		struct cpu *cp = &s.c[t->cpu];
		cp->rq[cp->nrq++] = i;
	}
	for (int c = 0; c < p->cpus; c++)
		if (pick(&s, c))
			goto out;
	if (rr(&s) && push(&s, p->vcpu_rr_ns, EV_KICK, 0, ++s.rr_gen))
		goto out;
	while (s.nheap) {
		struct ev e = pop(&s);
		if (e.t > p->duration_ns)
			break;
		s.now = e.t;
		int err = 0;
		switch (e.type) {
		case EV_TICK:
			err = tick(&s, e.id);
			break;
		case EV_DONE:
			if (e.gen == s.c[e.id].gen && s.c[e.id].cur >= 0)
				err = phase_done(&s, e.id);
			break;
		case EV_WAKE:
			err = wake(&s, e.id);
			break;
		case EV_GRANT:
			if (e.gen == s.c[e.id].grant_gen)
				err = grant_end(&s, e.id);
			break;
		case EV_KICK:
			break;
		}
		if (err)
			goto out;
		/* A timer deadline (once per instant: timers due together are
		 * served in one turn), the kick, or an idle vCPU ends a turn. */
		bool deadline = e.type != EV_DONE && (e.type != EV_KICK || e.gen == s.rr_gen);
		if (rr(&s) && ((deadline && s.now > s.last_switch) || s.c[s.active].cur < 0) &&
		    rr_switch(&s))
			goto out;
	}
	s.now = p->duration_ns;
	for (int c = 0; c < p->cpus; c++)
		account(&s, c);
	double secs = (p->duration_ns - p->warmup_ns) / 1e9;
	s.r.acq_per_s = s.r.acquisitions / secs;
	s.r.tps = s.r.acq_per_s / p->m;
	s.r.q = s.r.faulted ? (double)s.r.desched_faulted / s.r.faulted : 0;
	s.r.t_stall_us = s.r.stalls ? s.r.t_stall_us / s.r.stalls : 0;
	s.r.spin_share = s.busy_ns_total > 0 ? s.spin_ns_total / s.busy_ns_total : 0;
	*r = s.r;
	rc = 0;
out:
	for (int c = 0; s.c && c < p->cpus; c++)
		free(s.c[c].rq);
	free(s.c);
	free(s.t);
	free(s.heap);
	return rc;
}
