/*
 * What costbench's two-process tests (wake.c, remote_wake.c) share: the
 * clock they subtract, the futex they park on, pinning, the drawn
 * offsets (the same sequence on every kernel so that runs compare), and
 * the thread's context switches, by which a test tells a sleep or a
 * preemption from none.
 */
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "costbench.h"

/* Signed nanoseconds of buffer_pool/clock.h's clock: the trials subtract them. */
int64_t costbench_now_ns(void)
{
	return (int64_t)clock_ns();
}

void costbench_futex_wait(_Atomic uint32_t *w, uint32_t val, const struct timespec *timeout)
{
	syscall(SYS_futex, w, FUTEX_WAIT, val, timeout, NULL, 0);
}

void costbench_futex_wake(_Atomic uint32_t *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE, 1, NULL, NULL, 0);
}

int costbench_pin_to(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* xorshift64*, in [0, 1). */
double costbench_uniform(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return (double)((*x * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

int costbench_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

long costbench_switches(bool voluntary)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	return voluntary ? ru.ru_nvcsw : ru.ru_nivcsw;
}
