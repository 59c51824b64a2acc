/*
 * The join of hold records with a real trace (tests/data/evidence/): every
 * expected number is derived by hand from the named trace lines.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hold_file.h"
#include "trace_join.h"

#define T(us) (56879000000000ull + (us) * 1000ull)	/* 56879.xxxxxx s */

static FILE *fixture(const char *name)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/tests/data/evidence/%s", PREEMPTLAB_TOP, name);
	FILE *f = fopen(p, "r");
	if (!f) {
		perror(p);
		exit(1);
	}
	return f;
}

/* The fixture's hold records: the same five for every form of its trace. */
static struct hold_rec *fixture_holds(uint64_t *n)
{
	FILE *f = fixture("host-6.18-none.holds");
	struct hold_rec *h = hold_file_read(f, n);
	fclose(f);
	return h;
}

static void test_host_fixture(void)
{
	FILE *f = fixture("host-6.18-none.trace");
	struct trace_events *t = trace_parse(f);
	fclose(f);
	uint64_t n;
	struct hold_rec *h = fixture_holds(&n);
	CHECK(h && n == 5, "evidence: five hold records read");
	CHECK(trace_stack_count(t) > 0, "evidence: the trace's stacks were parsed (%llu)",
	      (unsigned long long)trace_stack_count(t));

	struct evidence_phase e[2];
	trace_join(t, h, n, T(357000), e);
	/* Fill: holds of 7518, 7520 (the early one), 7519, 7516. */
	CHECK(e[0].holds == 4 && e[1].holds == 1, "evidence: 4 fill holds, 1 steady (%llu %llu)",
	      (unsigned long long)e[0].holds, (unsigned long long)e[1].holds);
	/* line 229: 7518 faults at .346582 inside its hold; line 343: 7520 at .357510. */
	CHECK(e[0].holds_with_fault == 1 && e[1].holds_with_fault == 1,
	      "evidence: one faulting hold per phase");
	/* lines 216 and 230: R+ out of __cond_resched; line 307: 7518 sleeps (S). */
	CHECK(e[0].holds_switched == 2, "evidence: two fill holds switched out");
	CHECK(e[0].switches[SW_VOLUNTARY] == 2, "evidence: two voluntary switches (cond_resched)");
	CHECK(e[0].switches[SW_BLOCKED] == 1, "evidence: one blocked switch (prev_state S)");
	CHECK(e[0].switches[SW_IRQ] == 0 && e[0].switches[SW_USER] == 0 &&
	      e[0].switches[SW_UNKNOWN] == 0, "evidence: no irq, user or unknown switch under none");
	/* Off CPU: .348324 -> .356545 (line 295), .356675 -> release .356700,
	 * .346327 -> release .346400 (7520 back only at .356101). */
	CHECK(e[0].offcpu_count == 3 && e[0].offcpu_ns == (8221 + 25 + 73) * 1000ull,
	      "evidence: three off-CPU intervals, 8319 us in all (%llu ns)",
	      (unsigned long long)e[0].offcpu_ns);
	CHECK(e[0].offcpu_p50_us == 73 && e[0].offcpu_max_us == 8221,
	      "evidence: off-CPU p50 73 us, max 8221 us (%.0f %.0f)", e[0].offcpu_p50_us,
	      e[0].offcpu_max_us);
	CHECK(e[0].offcpu_hist[4] == 1 && e[0].offcpu_hist[6] == 1 && e[0].offcpu_hist[13] == 1,
	      "evidence: off-CPU histogram buckets 16-32, 64-128, 8192-16384 us");
	/* 7516 waits from .348000 to .350000: 1676 us of it while 7518 is off CPU. */
	CHECK(e[0].waiter_ns == 1676000, "evidence: waiters' time while the holder was off "
	      "CPU is 1676 us (%llu ns)", (unsigned long long)e[0].waiter_ns);
	CHECK(e[1].holds_switched == 0 && e[1].offcpu_count == 0, "evidence: the steady hold "
	      "was not switched out");
	free(h);
	trace_events_free(t);
}

/*
 * arm64 has no page_fault_user: the same trace with each of its faults
 * written as the kprobe event on handle_mm_fault writes them must join to
 * the same faulting holds.
 */
static void test_kprobe_faults(void)
{
	FILE *f = fixture("host-6.18-none.trace");
	size_t cap = 1 << 20, len = 0, faults = 0;
	char *text = malloc(cap), line[8192];
	while (text && fgets(line, sizeof(line), f)) {
		char *ev = strstr(line, ": page_fault_user: address=");
		if (ev) {
			char addr[32] = "";
			sscanf(ev + strlen(": page_fault_user: address="), "%31[0-9a-fx]", addr);
			snprintf(ev, sizeof(line) - (size_t)(ev - line),
				 ": " TRACE_KPROBE_FAULT ": (handle_mm_fault+0x0/0x2b8) address=%s\n",
				 addr);
			faults++;
		}
		size_t n = strlen(line);
		if (len + n + 1 > cap && !(text = realloc(text, cap *= 2)))
			break;
		memcpy(text + len, line, n + 1);
		len += n;
	}
	fclose(f);
	CHECK(text && faults > 0, "evidence: kprobe: %zu fault lines rewritten", faults);
	if (!text)
		return;
	f = fmemopen(text, len, "r");
	struct trace_events *t = trace_parse(f);
	fclose(f);
	uint64_t n;
	struct hold_rec *h = fixture_holds(&n);
	struct evidence_phase e[2];
	trace_join(t, h, n, T(357000), e);
	CHECK(e[0].holds_with_fault == 1 && e[1].holds_with_fault == 1,
	      "evidence: kprobe: the same one faulting hold per phase (%llu %llu)",
	      (unsigned long long)e[0].holds_with_fault,
	      (unsigned long long)e[1].holds_with_fault);
	free(h);
	trace_events_free(t);
	free(text);
}

int main(void)
{
	test_host_fixture();
	test_kprobe_faults();
	return CHECK_DONE();
}
