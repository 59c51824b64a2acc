/*
 * repro-min.c: the fill phase of a cold PostgreSQL-style buffer pool, and
 * nothing else.  One file, libc only:
 *
 *     cc -O2 -o repro-min repro-min.c
 *     ./repro-min [-c BACKENDS] [-n DESCRIPTORS] [-s STRIDE] [-w WORK_USEC] [-p 4k|2m|both]
 *
 * What it shows: N forked backends pop buffer descriptors off one freelist
 * under a test-and-set spinlock, as StrategyGetBuffer does while shared
 * buffers fill.  The pop reads the popped descriptor's freeNext under the
 * lock, and a backend's first touch of a descriptor page of the shared
 * segment is a page fault taken while holding the lock.  Every waiter then
 * spins spins_per_delay times and sleeps >= 1 ms (PostgreSQL's s_lock.c
 * algorithm, reimplemented below).  With 4 KB pages a backend faults once
 * per fault-around window (16 pages, 1024 descriptors); with 2 MB pages
 * (MAP_HUGETLB) once per 2 MB (32768 descriptors).
 *
 * Output, one line per page size: tps (pops/s over the fill), the share
 * of holds that faulted, the wait share (time waiting for the lock / time
 * in the fill), and the kernel's preemption model from
 * /sys/kernel/debug/sched/preempt when it is readable (root, debugfs).
 *
 * How faults are counted: each backend opens a perf_event_open software
 * counter of its own minor faults (PERF_COUNT_SW_PAGE_FAULTS_MIN) and
 * reads it just before it starts to acquire the lock and just after it
 * releases it: the reads (system calls) stay outside the hold, so they do
 * not lengthen it.  A fault between the two reads is one under the lock:
 * the waiter touches only the lock word, whose page each backend faults in
 * before the fill starts.  2 MB needs reserved pages:
 * sysctl vm.nr_hugepages=N.  -s orders the freelist every STRIDE-th
 * descriptor first (PostgreSQL's order is 1).  From preemptlab (repro/).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_BACKENDS 4096
#define HUGE_2M (2UL << 20)

/* PostgreSQL's BufferDesc is padded to a 64-byte cache line. */
struct desc {
	uint32_t buf_id, state, usage, ref;
	int32_t free_next;
	char pad[44];
};

struct backend_result {
	uint64_t pops, faulted, wait_ns, busy_ns, sleeps;
};

/* One 4 KB page of its own, faulted in by every backend before the fill. */
struct control {
	volatile uint8_t lock;
	int32_t first_free;
	volatile int ready, go;
	uint64_t start_ns;
	struct backend_result res[];
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause");
#elif defined(__aarch64__)
	__asm__ __volatile__("isb");
#endif
}

/*
 * s_lock.c's algorithm: read the byte until it looks free, then exchange;
 * after spins_per_delay failed rounds sleep, from 1 ms, growing each sleep
 * by a random 1x-2x, back to 1 ms past 1 s.  spins_per_delay grows by 100
 * (to 1000) after an acquisition without sleeping, shrinks by 1 (to 10)
 * after one that slept.
 */
static int spins_per_delay = 100;
static uint32_t rng = 2463534242u;

static void spin_lock(volatile uint8_t *lock, struct backend_result *r)
{
	int spins = 0;
	long delay_us = 0;
	while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE)) {
		while (*lock) {
			cpu_relax();
			if (++spins < spins_per_delay)
				continue;
			if (delay_us == 0)
				delay_us = 1000;
			struct timespec ts = { delay_us / 1000000, (delay_us % 1000000) * 1000 };
			nanosleep(&ts, NULL);
			r->sleeps++;
			rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
			delay_us += (long)(delay_us * ((double)rng / UINT32_MAX) + 0.5);
			if (delay_us > 1000000)
				delay_us = 1000;
			spins = 0;
		}
	}
	if (delay_us == 0)
		spins_per_delay = spins_per_delay + 100 > 1000 ? 1000 : spins_per_delay + 100;
	else if (spins_per_delay > 10)
		spins_per_delay--;
}

static int fault_counter(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static uint64_t faults(int fd)
{
	uint64_t v = 0;
	return read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v) ? v : 0;
}

static void backend(struct control *c, struct desc *d, struct backend_result *r,
		    long work_us, unsigned seed)
{
	rng ^= seed * 2654435761u;
	int fd = fault_counter();
	if (fd < 0) {
		/* ENOSYS: no perf events at all (qemu-user has none), not a sysctl. */
		fprintf(stderr, "repro-min: perf_event_open(minor faults): %s (%s)\n", strerror(errno),
			errno == ENOSYS ? "no perf events here: run natively or in a guest"
					: "try: sysctl kernel.perf_event_paranoid=1");
		_exit(2);
	}
	__atomic_add_fetch(&c->ready, 1, __ATOMIC_SEQ_CST);
	while (!c->go)
		usleep(100);
	for (;;) {
		uint64_t f0 = faults(fd), t0 = now_ns();
		spin_lock(&c->lock, r);
		uint64_t t1 = now_ns();
		int32_t b = c->first_free;
		if (b >= 0)
			c->first_free = d[b].free_next;	/* the touch that faults */
		__atomic_store_n(&c->lock, 0, __ATOMIC_RELEASE);
		r->faulted += faults(fd) != f0;
		r->wait_ns += t1 - t0;
		if (b < 0)
			break;
		r->pops++;
		d[b].ref = 1;
		/* The backend's own work on the buffer, outside the lock. */
		for (uint64_t end = now_ns() + (uint64_t)work_us * 1000; now_ns() < end;)
			cpu_relax();
	}
	r->busy_ns = now_ns() - c->start_ns;
	_exit(0);
}

static void preempt_model(char *out, size_t len)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/debug/sched/preempt", "r");
	if (!f) {
		snprintf(out, len, "unknown (/sys/kernel/debug/sched/preempt: %s)", strerror(errno));
		return;
	}
	char *got = fgets(buf, sizeof(buf), f);
	fclose(f);
	char *open = got ? strchr(buf, '(') : NULL, *close = open ? strchr(open, ')') : NULL;
	if (!close) {
		snprintf(out, len, "unknown (debugfs says \"%.60s\")", buf);
		return;
	}
	*close = 0;
	snprintf(out, len, "%s (debugfs)", open + 1);
}

static int run(const char *pages, int backends, long ndesc, long stride, long work_us)
{
	int huge = !strcmp(pages, "2m");
	size_t bytes = (size_t)ndesc * sizeof(struct desc);
	if (huge)
		bytes = (bytes + HUGE_2M - 1) & ~(HUGE_2M - 1);
	struct desc *d = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS | (huge ? MAP_HUGETLB : 0), -1, 0);
	if (d == MAP_FAILED) {
		if (huge)
			fprintf(stderr, "repro-min: pages=2m: no %zu free 2 MB huge pages (%s); "
				"reserve them: sysctl vm.nr_hugepages=%zu (plus any in use)\n",
				bytes / HUGE_2M, strerror(errno), bytes / HUGE_2M);
		else
			perror("repro-min: mmap");
		return 3;
	}
	size_t cbytes = sizeof(struct control) + (size_t)backends * sizeof(struct backend_result);
	struct control *c = mmap(NULL, cbytes, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED) {
		perror("repro-min: mmap");
		return 3;
	}
	/* The postmaster links the freelist before any backend exists. */
	int32_t *last = &c->first_free;
	for (long r = 0; r < stride; r++)
		for (long b = r; b < ndesc; b += stride) {
			d[b].buf_id = (uint32_t)b;
			*last = (int32_t)b;
			last = &d[b].free_next;
		}
	*last = -1;
	pid_t pids[backends];
	for (int i = 0; i < backends; i++) {
		pid_t p = fork();
		if (p < 0) {
			perror("repro-min: fork");
			exit(3);
		}
		if (p == 0)
			backend(c, d, &c->res[i], work_us, (unsigned)i + 1);
		pids[i] = p;
	}
	/* A backend that could not start exited: stop the others, not wait forever. */
	int st;
	for (; c->ready < backends; usleep(1000))
		if (waitpid(-1, &st, WNOHANG) > 0) {
			for (int i = 0; i < backends; i++)
				kill(pids[i], SIGTERM);
			return 2;
		}
	c->start_ns = now_ns();
	__atomic_store_n(&c->go, 1, __ATOMIC_SEQ_CST);
	int failed = 0;
	while (wait(&st) > 0)
		failed |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	if (failed)
		return 2;
	struct backend_result t = { 0, 0, 0, 0, 0 };
	uint64_t wall = 0;
	for (int i = 0; i < backends; i++) {
		struct backend_result *r = &c->res[i];
		t.pops += r->pops, t.faulted += r->faulted, t.wait_ns += r->wait_ns;
		t.busy_ns += r->busy_ns, t.sleeps += r->sleeps;
		wall = r->busy_ns > wall ? r->busy_ns : wall;
	}
	/* Every acquisition is a hold, the last (empty) one of each backend too. */
	uint64_t holds = t.pops + (uint64_t)backends;
	printf("pages=%s backends=%d descriptors=%ld stride=%ld work_us=%ld: "
	       "tps=%.0f holds_faulted=%.2f%% (%llu/%llu) wait_share=%.1f%% sleeps=%llu fill_s=%.3f\n",
	       pages, backends, ndesc, stride, work_us, t.pops / (wall / 1e9),
	       100.0 * (double)t.faulted / (double)holds, (unsigned long long)t.faulted,
	       (unsigned long long)holds, 100.0 * (double)t.wait_ns / (double)t.busy_ns,
	       (unsigned long long)t.sleeps, wall / 1e9);
	fflush(stdout);
	munmap(d, bytes);
	munmap(c, cbytes);
	return t.pops == (uint64_t)ndesc ? 0 : 2;
}

static long arg(const char *name, const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi) {
		fprintf(stderr, "repro-min: %s %s: want an integer in %ld..%ld\n", name, s, lo, hi);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	int backends = 64;
	long ndesc = 131072, stride = 1, work_us = 20;
	const char *pages = "both";
	for (int o; (o = getopt(argc, argv, "c:n:s:w:p:h")) != -1;) {
		switch (o) {
		case 'c': backends = (int)arg("-c", optarg, 1, MAX_BACKENDS); break;
		case 'n': ndesc = arg("-n", optarg, 1, 1L << 26); break;
		case 's': stride = arg("-s", optarg, 1, 1L << 20); break;
		case 'w': work_us = arg("-w", optarg, 0, 1000000); break;
		case 'p':
			pages = optarg;
			if (strcmp(pages, "4k") && strcmp(pages, "2m") && strcmp(pages, "both")) {
				fprintf(stderr, "repro-min: -p %s: want 4k, 2m or both\n", pages);
				return 1;
			}
			break;
		default:
			fprintf(stderr, "usage: %s [-c BACKENDS] [-n DESCRIPTORS] [-s STRIDE] "
				"[-w WORK_USEC] [-p 4k|2m|both]\n", argv[0]);
			return o == 'h' ? 0 : 1;
		}
	}
	char model[160];
	struct utsname u;
	preempt_model(model, sizeof(model));
	uname(&u);
	printf("kernel=%s %s cpus=%ld model=%s faults=perf_event_open(PAGE_FAULTS_MIN) "
	       "read before acquire and after release\n", u.release, u.machine,
	       sysconf(_SC_NPROCESSORS_ONLN), model);
	int rc = 0;
	if (strcmp(pages, "2m"))
		rc |= run("4k", backends, ndesc, stride, work_us);
	if (strcmp(pages, "4k"))
		rc |= run("2m", backends, ndesc, stride, work_us);
	return rc;
}
