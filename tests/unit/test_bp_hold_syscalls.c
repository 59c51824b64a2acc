/*
 * No system call between acquire and release (issue 24).  A system call
 * inside the strategy lock's hold lengthens the hold and adds a return-to-
 * user preemption point to it under every model, so the instrument would
 * make the contention it reports.
 *
 * A child runs the real buffer pool (read_buffer of blocks not yet in the
 * pool: each miss pops the freelist under the strategy lock) under ptrace, one path
 * after another: uninstrumented, the default instrumentation, the hold
 * records of --trace-holds / EVIDENCE=on, and --hold-events in its default
 * window mode.  The parent stops the child at every system call entry and
 * looks at the strategy lock in the shared segment: held means the call
 * was made inside a hold.  The child is stopped, and nothing else takes
 * the lock, so the look is exact.  --hold-events=in-hold, the lab's path
 * before issue 24, is the positive control: the same check must count its
 * two reads per hold, or it could not fail.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bp_fixture.h"
#include "check.h"

/* Each path reads blocks no other read: misses, each a freelist pop under the lock. */
#define READS 150
#define POOL_BUFFERS 1024
#define RELATION_BLOCKS 1024

enum path { P_BARE, P_DEFAULT, P_RECORDS, P_WINDOW, P_INHOLD, NPATHS };
static const char *const path_name[NPATHS] = {
	"uninstrumented (--no-instrument)",
	"default instrumentation",
	"hold records (--trace-holds, EVIDENCE=on)",
	"--hold-events (window)",
	"--hold-events=in-hold (the pre-issue-24 path)",
};

/* Shared with the tracer: which path runs, and what it did. */
struct board {
	volatile int path;		/* -1 before the first */
	volatile int skip;		/* a path the child could not set up */
	char why[300];
	uint64_t holds[NPATHS];		/* strategy-lock acquisitions per path */
	uint64_t recorded[NPATHS];	/* hold records kept */
};

static struct hold_ring *ring;

static void run_path(struct backend *b, struct board *bd, enum path p)
{
	struct lockstats ls;
	struct hold_events ev;
	char err[256];
	memset(&ls, 0, sizeof(ls));
	b->strategy_lock.stats = p == P_BARE ? NULL : &ls;
	b->strategy_lock.trace = NULL;
	b->strategy_lock.events = NULL;
	if (p == P_RECORDS) {
		ring->n = 0;
		ring->recording = 1;
		b->strategy_lock.trace = ring;
	}
	if (p == P_WINDOW || p == P_INHOLD) {
		if (hold_events_open(&ev, p == P_WINDOW ? HOLD_EVENTS_WINDOW : HOLD_EVENTS_IN_HOLD,
				     err, sizeof(err)) != 0) {
			bd->skip |= 1 << p;
			snprintf(bd->why, sizeof(bd->why), "%s", err);
			return;
		}
		b->strategy_lock.events = &ev;
	}
	bd->path = p;
	uint64_t misses = 0;
	for (uint32_t i = 0; i < READS; i++) {
		bool hit;
		int32_t id = read_buffer(b, (uint32_t)p * READS + i, &hit);
		misses += !hit;
		if (id >= 0)
			release_buffer(b, id);
	}
	bd->path = -1;
	/* Uninstrumented, nothing counts the holds: the misses that took the lock. */
	bd->holds[p] = p == P_BARE ? misses : ls.acquisitions;
	bd->recorded[p] = p == P_RECORDS ? ring->n : 0;
	if (b->strategy_lock.events)
		hold_events_close(&ev);
}

static _Noreturn void child(struct pool *pool, struct board *bd)
{
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) {
		snprintf(bd->why, sizeof(bd->why), "PTRACE_TRACEME: %s", strerror(errno));
		_exit(77);
	}
	raise(SIGSTOP);
	struct backend b;
	backend_attach(&b, pool, 0, true);
	for (int p = 0; p < NPATHS; p++)
		run_path(&b, bd, (enum path)p);
	_exit(0);
}

/* The syscall number at an entry stop, or -1 when the kernel cannot say. */
static long entry_nr(pid_t pid, bool *entry)
{
#ifdef PTRACE_GET_SYSCALL_INFO
	struct __ptrace_syscall_info si;
	long n = ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(si), &si);
	if (n > 0) {
		*entry = si.op == PTRACE_SYSCALL_INFO_ENTRY;
		return *entry ? (long)si.entry.nr : -1;
	}
#endif
	*entry = true;	/* unknown: every stop counts, entry and exit */
	return -1;
}

int main(void)
{
	struct shmem_seg seg;
	struct pool *pool = fixture_pool(POOL_BUFFERS, RELATION_BLOCKS, STRATEGY_PG, 1, 1, &seg);
	volatile uint8_t *lock = &pool->ctl->strategy.part[0].lock.tas;
	struct board *bd = mmap(NULL, sizeof(*bd), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ring = mmap(NULL, hold_ring_bytes(READS * 2), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (bd == MAP_FAILED || ring == MAP_FAILED) {
		CHECK(0, "mmap: %s", strerror(errno));
		return CHECK_DONE();
	}
	memset(bd, 0, sizeof(*bd));
	bd->path = -1;
	ring->cap = READS * 2;

	pid_t pid = fork();
	if (pid == 0)
		child(pool, bd);
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st)) {
		if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
			SKIP("no ptrace here (%s): cannot watch the holds' system calls", bd->why);
		else
			CHECK(0, "the traced child did not stop (status %#x)", st);
		return CHECK_DONE();
	}
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
	uint64_t inside[NPATHS] = { 0 };
	long last_nr[NPATHS];
	for (int p = 0; p < NPATHS; p++)
		last_nr[p] = -1;
	int sig = 0;
	for (;;) {
		ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig);
		if (waitpid(pid, &st, 0) != pid || WIFEXITED(st) || WIFSIGNALED(st))
			break;
		sig = 0;
		if (!WIFSTOPPED(st))
			continue;
		if (WSTOPSIG(st) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(st) == SIGSTOP ? 0 : WSTOPSIG(st);
			continue;
		}
		bool entry;
		long nr = entry_nr(pid, &entry);
		int p = bd->path;
		if (entry && *lock && p >= 0 && p < NPATHS) {
			inside[p]++;
			last_nr[p] = nr;
		}
	}
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the traced child ran every path (status %#x)",
	      st);

	for (int p = 0; p < NPATHS; p++) {
		if (bd->skip & (1 << p)) {
			SKIP("%s: %s", path_name[p], bd->why);
			continue;
		}
		if (p == P_INHOLD) {
			/* The control: two reads a hold, and the check sees them. */
			CHECK(bd->holds[p] > 0 && inside[p] >= 2 * bd->holds[p],
			      "%s: the check sees its %llu system calls inside %llu holds "
			      "(last nr %ld): it can fail", path_name[p],
			      (unsigned long long)inside[p], (unsigned long long)bd->holds[p],
			      last_nr[p]);
			continue;
		}
		if (p == P_RECORDS)
			CHECK(bd->recorded[p] > 0 && bd->recorded[p] == bd->holds[p],
			      "%s: every hold recorded (%llu of %llu)", path_name[p],
			      (unsigned long long)bd->recorded[p],
			      (unsigned long long)bd->holds[p]);
		CHECK(inside[p] == 0 && bd->holds[p] > 0,
		      "%s: no system call inside %llu holds (%llu seen, last nr %ld)", path_name[p],
		      (unsigned long long)bd->holds[p], (unsigned long long)inside[p], last_nr[p]);
	}
	shmem_destroy(&seg);
	return CHECK_DONE();
}
