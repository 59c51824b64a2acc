/*
 * The rseq slice protocol from user space (rseq_slice.c) and the kernel's
 * counters (rseq_kstats.c).  The kernel's part is played on a plain
 * slice_ctrl word: it grants by clearing request and setting granted in
 * one store, revokes by clearing both, and does so only at an instruction
 * boundary on the way back to user mode, which is where a signal handler
 * runs too.  So a timer signal that grants whenever it finds a request
 * pending checks the property that matters: no grant is ever lost, every
 * grant made is seen at the release.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>

#include "check.h"
#include "rseq_kstats.h"
#include "rseq_slice.h"

struct ctrl {
	volatile uint8_t request, granted;
	uint16_t reserved;
};
static struct ctrl word;
static volatile sig_atomic_t made;	/* grants the "kernel" made */

static void kernel_grants(int sig)
{
	(void)sig;
	if (word.request && !word.granted) {
		word.request = 0;
		word.granted = 1;
		made++;
	}
}

static void states(void)
{
	rseq_slice_use_ctrl(&word);
	rseq_slice_request();
	CHECK(word.request == 1, "request sets the request byte");
	CHECK(rseq_slice_withdraw() == SLICE_NOT_NEEDED && word.request == 0,
	      "no grant: not needed, and the request is cleared");
	rseq_slice_request();
	word.request = 0, word.granted = 1;
	CHECK(rseq_slice_withdraw() == SLICE_GRANTED, "a grant made while held is seen");
	word.granted = 0;
	rseq_slice_request();
	word.request = 0;
	CHECK(rseq_slice_withdraw() == SLICE_REVOKED, "a request the kernel cleared, no grant: revoked");
}

static void no_grant_lost(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kernel_grants;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 20 }, { 0, 20 } };
	setitimer(ITIMER_REAL, &it, NULL);
	long seen = 0, lost = 0, rounds = 0;
	/* Until enough signals have landed inside a hold to mean something. */
	while (made < 5000 && rounds < 50000000L) {
		rseq_slice_request();
		/* A critical section of some length, for the signals to land in. */
		for (volatile int i = 0; i < 64; i++)
			;
		enum rseq_slice_outcome o = rseq_slice_withdraw();
		/*
		 * A grant still standing that the release did not report is
		 * lost.  The request is clear now, so the handler grants
		 * nothing until the next one.
		 */
		if (o == SLICE_GRANTED)
			seen++;
		else if (word.granted)
			lost++;
		word.granted = 0;	/* the yield's syscall, or the grant's expiry */
		rounds++;
	}
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	long m = made;
	CHECK(m > 0, "the timer granted during holds (%ld grants in %ld holds)", m, rounds);
	CHECK(lost == 0 && seen == m, "every grant was seen at the release: %ld made, %ld seen, %ld lost",
	      m, seen, lost);
}

static void kstats(void)
{
	const char *text = "exit:              120\nsignal:               3\nslowp:               40\n"
			   "fastp:              80\nids:                 5\ncs:                  0\n"
			   "clear:               0\nfixup:               0\nsgrant:             44\n"
			   "sexpir:             13\nsrevok:              2\nsyield:             29\n"
			   "sabort:              1\n";
	struct rseq_kstats a, b;
	CHECK(rseq_kstats_parse(text, &a) && a.granted == 44 && a.expired == 13 && a.revoked == 2 &&
		      a.yielded == 29 && a.aborted == 1,
	      "the stats file's five slice counters are read");
	CHECK(!rseq_kstats_parse("exit: 1\nsignal: 2\n", &b) && !b.valid,
	      "a kernel without the slice extension (no s* lines) gives no counters");
	CHECK(!rseq_kstats_parse("sgrant: x\n", &b), "a malformed counter is refused");
	b = a;
	b.granted += 7, b.yielded += 5;
	struct rseq_kstats d = rseq_kstats_delta(&a, &b);
	CHECK(d.valid && d.granted == 7 && d.yielded == 5 && d.expired == 0, "the delta over a run");
	struct rseq_kstats none = { 0 };
	CHECK(!rseq_kstats_delta(&none, &b).valid, "no delta when the start was unreadable");
}

int main(void)
{
	states();
	no_grant_lost();
	kstats();
	return CHECK_DONE();
}
