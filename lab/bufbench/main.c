/*
 * bufbench: create the segment, fork the clients, time the measured
 * interval, collect, print one JSON document.
 *
 * The parent never touches buffer blocks; it formats the control area and
 * the descriptors (as the postmaster does) and then only watches the clock
 * and its children.
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bufbench.h"
#include "bufmgr.h"
#include "clock.h"
#include "hold_events.h"
#include "out_file.h"
#include "resilient_lock.h"
#include "rseq_slice.h"
#include "hold_file.h"
#include "tracefs.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Clients still held at PHASE_FORKING sleep on the phase word. */
static void set_phase(struct pool *p, enum run_phase ph)
{
	__atomic_store_n(&p->ctl->phase, ph, __ATOMIC_RELEASE);
	syscall(SYS_futex, &p->ctl->phase, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

static pid_t spawn(struct pool *p, const struct bench_opts *o, uint32_t slot, uint32_t inc)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		/* A client never outlives a parent killed with SIGKILL. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(EXIT_RUN_FAILED);
		/* The parent decides when to stop; a terminal's ^C goes to it. */
		signal(SIGINT, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGTERM, SIG_DFL);
		bench_client(p, o, slot, inc);
	}
	return pid;
}

/* Sleep until deadline (ns) unless interrupted. */
static void sleep_until(uint64_t deadline)
{
	while (!interrupted) {
		uint64_t now = clock_ns();
		if (now >= deadline)
			return;
		uint64_t left = deadline - now;
		struct timespec ts = { (time_t)(left / 1000000000u), (long)(left % 1000000000u) };
		if (ts.tv_sec > 0) {
			ts.tv_sec = 0;
			ts.tv_nsec = 200000000;	/* wake to look at our children */
		}
		nanosleep(&ts, NULL);
		return;
	}
}

struct children {
	pid_t *pid;
	uint32_t *incarnation;
	int n;
	int alive;
};

/*
 * Reap whatever has exited: re-fork reconnecting clients, record a
 * failure for anything else.  Returns -1 once a client has failed.
 */
static int reap(struct children *c, struct pool *p, const struct bench_opts *o, int block,
		struct bench_result *r)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, block ? 0 : WNOHANG)) > 0) {
		int slot = -1;
		for (int i = 0; i < c->n; i++)
			if (c->pid[i] == pid)
				slot = i;
		if (slot < 0)
			continue;
		c->pid[slot] = 0;
		c->alive--;
		int phase = __atomic_load_n(&p->ctl->phase, __ATOMIC_ACQUIRE);
		/* A SIGTERM to the whole process group interrupts the run; it did not fail. */
		if (interrupted && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM)
			continue;
		if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_RECONNECT && phase != PHASE_STOP) {
			c->pid[slot] = spawn(p, o, (uint32_t)slot, ++c->incarnation[slot]);
			if (c->pid[slot] > 0)
				c->alive++;
		} else if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 &&
						  WEXITSTATUS(status) != EXIT_RECONNECT)) {
			if (!r->error[0])
				snprintf(r->error, sizeof(r->error), "client %d %s %d%s", slot,
					 WIFEXITED(status) ? "exited with status" : "killed by signal",
					 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
					 WIFEXITED(status) && WEXITSTATUS(status) == SPIN_STUCK_EXIT ?
						 " (stuck spinlock)" :
					 WIFEXITED(status) && WEXITSTATUS(status) == EXIT_SELF_DEADLOCK ?
						 " (self-deadlock: its SIGPROF handler needed the strategy "
						 "lock the interrupted code held; tas cannot detect it, "
						 "--lock resilient does)" : "");
			return -1;
		}
		if (block)
			break;
	}
	return 0;
}

static void stop_children(struct children *c, struct pool *p, const struct bench_opts *o,
			  struct bench_result *r)
{
	set_phase(p, PHASE_STOP);
	/* A client stuck behind a dead lock holder never sees the phase. */
	uint64_t deadline = clock_ns() + 30ull * 1000000000u;
	while (c->alive > 0 && clock_ns() < deadline) {
		reap(c, p, o, 0, r);
		if (c->alive > 0)
			usleep(10000);
	}
	if (c->alive > 0) {
		for (int i = 0; i < c->n; i++)
			if (c->pid[i] > 0)
				kill(c->pid[i], SIGKILL);
		while (c->alive > 0 && reap(c, p, o, 1, r) >= 0)
			;
		if (!r->error[0])
			snprintf(r->error, sizeof(r->error), "clients did not stop within 30 s; killed");
	}
}

/* Every client's ring records the measured window only. */
static void trace_window(const struct bench_opts *o, bool on)
{
	for (int i = 0; i < o->clients; i++)
		__atomic_store_n(&hold_ring_at(o->hold_rings, o->trace_holds, (uint32_t)i)->recording,
				 on, __ATOMIC_RELEASE);
}

static void join_evidence(struct bench_evidence *ev, const struct bench_opts *o,
			  struct tracefs *tfs, uint64_t fill_ns)
{
	uint64_t n = 0;
	for (int i = 0; i < o->clients; i++) {
		struct hold_ring *h = hold_ring_at(o->hold_rings, o->trace_holds, (uint32_t)i);
		n += h->n;
		ev->holds_dropped += h->dropped;
	}
	struct hold_rec *all = malloc((n ? n : 1) * sizeof(*all));
	if (!all)
		return;
	n = 0;
	for (int i = 0; i < o->clients; i++) {
		struct hold_ring *h = hold_ring_at(o->hold_rings, o->trace_holds, (uint32_t)i);
		memcpy(all + n, h->rec, h->n * sizeof(*all));
		n += h->n;
	}
	ev->holds_recorded = n;
	ev->trace_lost = tracefs_lost(tfs);
	char path[300];
	FILE *f = fopen(tracefs_trace_path(tfs, path, sizeof(path)), "r");
	/* --trace-dump PREFIX: PREFIX.trace and PREFIX.holds, to replay the join. */
	if (f && o->trace_dump)
		hold_file_dump(o->trace_dump, f, all, n);
	if (f) {
		struct trace_events *t = trace_parse(f);
		fclose(f);
		ev->trace_events = trace_event_count(t);
		ev->trace_stacks = trace_stack_count(t);
		for (int i = 0; trace_unclassified(t, i); i++)
			fprintf(stderr, "bufbench: --trace-holds: a switch no rule classifies:\n%s",
				trace_unclassified(t, i));
		trace_join(t, all, n, fill_ns, ev->phase);
		struct census_phase cz[2];
		trace_census(t, all, n, fill_ns, o->freeze_fault_ns, cz);
		/* Armed, whether or not anything was contended: "traced" is the probes'. */
		for (int p = 0; p < 2; p++) {
			cz[p].wakes_traced = tfs->channel;
			cz[p].folios_traced = tfs->folio_probes[1][0] != 0;
		}
		ev->phase[0].census = cz[0];
		ev->phase[1].census = cz[1];
		trace_events_free(t);
	} else {
		fprintf(stderr, "bufbench: --trace-holds: cannot read %s: %s\n", path,
			strerror(errno));
	}
	free(all);
}

/*
 * T_tail and rho's mean hold (lock_util.h) per phase from every client's
 * hold records (hold_tail.h), over
 * the part of the window every ring covers.  Before the join, which reads
 * the records in their ring order.
 */
static void measure_tails(struct bench_result *r, const struct bench_opts *o, uint64_t fill_ns)
{
	const struct hold_ring **rings = malloc((size_t)o->clients * sizeof(*rings));
	uint64_t n = 0;
	for (int i = 0; rings && i < o->clients; i++) {
		rings[i] = hold_ring_at(o->hold_rings, o->trace_holds, (uint32_t)i);
		n += rings[i]->n;
	}
	struct hold_rec *all = rings ? malloc((n ? n : 1) * sizeof(*all)) : NULL;
	if (!all) {
		free(rings);
		return;
	}
	n = 0;
	for (int i = 0; i < o->clients; i++) {
		memcpy(all + n, rings[i]->rec, rings[i]->n * sizeof(*all));
		n += rings[i]->n;
	}
	uint64_t until = hold_tail_complete_until(rings, (size_t)o->clients);
	uint64_t bound = fill_ns ? fill_ns : UINT64_MAX;
	for (int p = PHASE_FILL; p <= PHASE_STEADY; p++) {
		struct bench_phase *ph = &r->phase[p];
		uint64_t from = p == PHASE_FILL ? 0 : bound;
		uint64_t to = p == PHASE_FILL ? bound : UINT64_MAX;
		if (!ph->present || from >= until)
			continue;
		ph->tail_valid = hold_tail_measure(all, n, from, to < until ? to : until,
						   &ph->tail) == 0;
		/* rho's E[hold] from the same whole part of the records. */
		lock_util_from_records(all, n, from, to < until ? to : until,
				       ph->sum.strategy.acquisitions, ph->duration_s, &ph->util);
	}
	free(all);
	free(rings);
}

int main(int argc, char **argv)
{
	struct bench_opts o;
	struct provenance prov;
	struct shmem_seg seg;
	struct pool pool;
	struct bench_result r;
	char err[512];

	bench_parse_args(&o, argc, argv);
	struct pool_config cfg = {
		.nbuffers = (uint32_t)(o.pool_bytes / BLCKSZ),
		.relation_blocks = (uint32_t)(o.relation_bytes / BLCKSZ),
		.max_backends = (uint32_t)o.clients,
		.strategy = o.strategy,
		.strategy_parts = o.strategy_parts,
		.lock = o.lock,
		.freelist_stride = o.freelist_stride,
		.fixed_spins_per_delay = o.fixed_spins_per_delay,
		.touch_before_lock = o.mitigation.kind == MIT_TOUCH,
	};

	/* Sizing needs no rseq or huge pages: the planner asks on any host. */
	if (o.print_segment_size) {
		printf("%zu\n", pool_segment_size(&cfg));
		return 0;
	}

	if (o.mitigation.kind == MIT_RSEQ) {
		/* Before the re-exec: the grant's length is set by the final process. */
		rseq_slice_reexec(argv, "bufbench");
		if (mitigation_set_slice_ext(o.mitigation.param, err, sizeof(err)) != 0) {
			fprintf(stderr, "bufbench: --mitigation %s: %s\n", o.mitigation_name, err);
			return EXIT_MITIGATION;
		}
	}
	if (o.lock == LOCK_RSEQ) {
		rseq_slice_reexec(argv, "bufbench");
		/* Fail once, here, rather than in every client. */
		if (rseq_slice_enable(err, sizeof(err)) != 0) {
			fprintf(stderr, "bufbench: --lock rseq: %s\n", err);
			return EXIT_RSEQ;
		}
	}
	if (o.hold_events) {
		/* Fail once, here, rather than in every client. */
		struct hold_events ev;
		if (hold_events_open(&ev, o.hold_events, err, sizeof(err)) != 0) {
			fprintf(stderr, "bufbench: --hold-events: %s\n", err);
			return EXIT_HOLD_EVENTS;
		}
		hold_events_close(&ev);
	}
	memset(&r, 0, sizeof(r));
	struct bench_evidence ev;
	memset(&ev, 0, sizeof(ev));
	resilient_set_timeout_ns((uint64_t)(o.lock_timeout_ms * 1e6));

	/* Before the run: a bad --json path must not cost a run's result. */
	struct out_file out;
	if (out_open(&out, o.json) != 0) {
		fprintf(stderr, "bufbench: cannot write %s: %s\n", o.json, strerror(errno));
		return EXIT_RUN_FAILED;
	}

	if (shmem_create(&seg, pool_segment_size(&cfg), o.pages, o.numa, err, sizeof(err)) != 0) {
		fprintf(stderr, "bufbench: %s\n", err);
		out_abandon(&out);
		return EXIT_NO_PAGES;
	}
	if (seg.note[0])
		fprintf(stderr, "bufbench: note: %s\n", seg.note);

	/* The relation: a sparse memory file, read and written like a data file. */
	int fd = memfd_create("bufbench-relation", 0);
	if (fd < 0 || ftruncate(fd, (off_t)cfg.relation_blocks * BLCKSZ) != 0) {
		fprintf(stderr, "bufbench: cannot create the relation file: %s\n", strerror(errno));
		out_abandon(&out);
		return EXIT_RUN_FAILED;
	}
	pool_init(&pool, seg.base, &cfg, fd);
	if (o.mitigation.kind == MIT_PREFAULT) {
		/* Fail once, here, rather than in every client (a kernel before 5.14). */
		struct prefault_cost pc;
		mitigation_prefault(pool.descs, sizeof(struct buf_desc), &pc);
		if (pc.err) {
			fprintf(stderr, "bufbench: --mitigation prefault: madvise(MADV_POPULATE_READ): "
				"%s (it needs Linux 5.14 or later)\n", strerror(pc.err));
			out_abandon(&out);
			shmem_destroy(&seg);
			return EXIT_MITIGATION;
		}
	}

	struct tracefs tfs;
	memset(&tfs, 0, sizeof(tfs));
	size_t rings_bytes = 0;
	if (o.trace_holds) {
		rings_bytes = hold_ring_bytes(o.trace_holds) * (size_t)o.clients;
		o.hold_rings = mmap(NULL, rings_bytes, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		/* The holds' faults: the control block and the descriptors. */
		uint64_t lo = (uint64_t)(uintptr_t)seg.base;
		uint64_t hi = lo + pool.ctl->table_off;
		if (o.hold_rings == MAP_FAILED ||
		    (o.trace_kernel && tracefs_open(&tfs, lo, hi, o.fault_event, err, sizeof(err)) != 0) ||
		    (o.trace_channel && tracefs_channel(&tfs, err, sizeof(err)) != 0)) {
			if (o.trace_channel && tfs.dir[0])
				tracefs_close(&tfs);
			if (o.hold_rings == MAP_FAILED)
				snprintf(err, sizeof(err), "hold records: %s", strerror(errno));
			fprintf(stderr, "bufbench: --trace-holds: %s\n", err);
			out_abandon(&out);
			shmem_destroy(&seg);
			return EXIT_TRACE_HOLDS;
		}
		for (int i = 0; i < o.clients; i++)
			hold_ring_at(o.hold_rings, o.trace_holds, (uint32_t)i)->cap = o.trace_holds;
		ev.on = o.trace_kernel;
		snprintf(ev.tracefs, sizeof(ev.tracefs), "%s", tfs.dir);
		ev.fault_event = tfs.fault_event;
	}

	/* Measure the environment before the clients load the machine. */
	prov_collect(&prov, argc, argv);
	prov.spin_cost_ns = tas_spin_cost_ns();

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	struct children c = { calloc((size_t)o.clients, sizeof(pid_t)),
			      calloc((size_t)o.clients, sizeof(uint32_t)), o.clients, 0 };
	for (int i = 0; i < o.clients; i++) {
		c.pid[i] = spawn(&pool, &o, (uint32_t)i, 0);
		if (c.pid[i] < 0) {
			snprintf(r.error, sizeof(r.error), "fork: %s", strerror(errno));
			break;
		}
		c.alive++;
	}

	/* Whole tenths of a second per point, at most TIMELINE_MAX points. */
	uint64_t tenths = (uint64_t)ceil(o.duration_s * 10 / TIMELINE_MAX);
	pool.ctl->timeline_step_ns = (tenths ? tenths : 1) * 100000000ull;
	/*
	 * Every client exists: start them together, and the run's clock with
	 * them.  Without a warm-up the measured interval starts in the same
	 * step, before the clients run: on a loaded machine this process may
	 * not run again for a while once it has woken them.
	 */
	uint64_t t = clock_ns();
	if (o.warmup_s > 0) {
		set_phase(&pool, PHASE_WARMUP);
		uint64_t warm_end = t + (uint64_t)(o.warmup_s * 1e9);
		while (!interrupted && !r.error[0] && clock_ns() < warm_end) {
			sleep_until(warm_end);
			reap(&c, &pool, &o, 0, &r);
		}
	}
	uint64_t start = o.warmup_s > 0 ? clock_ns() : t;
	uint64_t end = start + (uint64_t)(o.duration_s * 1e9);
	pool.ctl->measure_start_ns = start;
	if (o.trace_holds) {
		if (o.trace_kernel)
			tracefs_on(&tfs, true);
		trace_window(&o, true);
	}
	struct rseq_kstats ks_before, ks_after;
	rseq_kstats_read(&ks_before);
	set_phase(&pool, PHASE_MEASURE);
	while (!interrupted && !r.error[0] && clock_ns() < end) {
		uint64_t filled = strategy_fill_ns(&pool.ctl->strategy);
		if (o.steady_s > 0 && filled) {
			uint64_t e = (filled > start ? filled : start) + (uint64_t)(o.steady_s * 1e9);
			end = e < end ? e : end;
		}
		sleep_until(end);
		reap(&c, &pool, &o, 0, &r);
	}
	uint64_t stop = clock_ns();
	rseq_kstats_read(&ks_after);
	r.kernel_rseq = rseq_kstats_delta(&ks_before, &ks_after);
	if (o.trace_holds) {
		trace_window(&o, false);
		if (o.trace_kernel)
			tracefs_on(&tfs, false);
	}
	r.elapsed_s = (stop - start) / 1e9;
	r.interrupted = interrupted;
	stop_children(&c, &pool, &o, &r);
	uint32_t entries, tagged;
	if (!interrupted && !r.error[0] && !mapping_consistent(&pool, &entries, &tagged))
		snprintf(r.error, sizeof(r.error),
			 "buffer mapping table inconsistent: %u entries for %u tagged buffers", entries,
			 tagged);

	bench_collect(&r, &pool, &o, t, start, stop);
	if (o.trace_holds) {
		uint64_t fill_ns = strategy_fill_ns(&pool.ctl->strategy);
		if (o.strategy_parts == 1)
			measure_tails(&r, &o, fill_ns);
		if (o.trace_kernel) {
			ev.window_s = r.elapsed_s;
			join_evidence(&ev, &o, &tfs, fill_ns);
			tracefs_close(&tfs);
		}
		munmap(o.hold_rings, rings_bytes);
	}

	snprintf(prov.page_policy, sizeof(prov.page_policy), "%s", page_policy_name(o.pages));
	prov.page_size_kb = seg.page_size_kb;
	snprintf(prov.page_size_source, sizeof(prov.page_size_source), "%s", seg.page_size_source);
	if (o.pages == PAGES_THP)
		prov.page_size_kb = r.sum.pmd_mapped_kb > 0 ? 2048 : 4;
	snprintf(prov.lock, sizeof(prov.lock), "%s", lab_lock_kind_name(o.lock));
	strategy_name(o.strategy, o.strategy_parts, prov.strategy, sizeof(prov.strategy));

	bench_write_json(out.f, &o, &prov, &seg, &cfg, &r, &ev);
	if (out_commit(&out) != 0) {
		fprintf(stderr, "bufbench: cannot write %s: %s\n", out.target, strerror(errno));
		out_abandon(&out);
		return EXIT_RUN_FAILED;
	}
	if (r.error[0])
		fprintf(stderr, "bufbench: run failed: %s\n", r.error);
	shmem_destroy(&seg);
	close(fd);
	free(c.pid);
	free(c.incarnation);
	return r.error[0] ? EXIT_RUN_FAILED : 0;
}
