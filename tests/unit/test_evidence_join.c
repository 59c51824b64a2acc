/*
 * The join of hold records with a real trace (tests/data/evidence/): every
 * expected number is derived by hand from the named trace lines.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hold_file.h"
#include "hold_tail.h"
#include "trace_events.h"
#include "trace_join.h"
#include "trace_ns.h"

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

static enum switch_kind kind_named(const char *s)
{
	for (int k = 0; k < SW_KINDS; k++)
		if (!strcmp(s, switch_kind_name((enum switch_kind)k)))
			return (enum switch_kind)k;
	return SW_KINDS;
}

static enum fault_place place_named(const char *s)
{
	return !strcmp(s, "in_fault") ? FP_IN : !strcmp(s, "fault_exit") ? FP_EXIT : FP_NONE;
}

/* One "## expect KIND PLACE (why)" case: the stack under it through the classifier. */
static void check_case(const char *file, const char *expect, const char *sw, const char *stack)
{
	char kind[32] = "", place[32] = "";
	sscanf(expect, "## expect %31s %31s", kind, place);
	enum fault_place where;
	enum switch_kind k = trace_classify(stack, &where);
	/* As the parser does: a switch whose prev_state is not R slept, whatever its stack. */
	const char *ps = sw ? strstr(sw, "prev_state=") : NULL;
	if (ps && ps[11] != 'R')
		k = SW_BLOCKED;
	const char *why = strchr(expect, '(');
	CHECK(k == kind_named(kind) && where == place_named(place), "%s: %s %s %.*s (got %s, place %d)",
	      file, kind, place, why ? (int)strcspn(why, "\n") : 0, why ? why : "",
	      switch_kind_name(k), (int)where);
}

/* Every case of a stacks fixture; returns how many. */
static int test_stacks(const char *name)
{
	FILE *f = fixture(name);
	char line[1024], expect[1024] = "", sw[1024] = "", stack[8192] = "";
	int n = 0;
	for (;;) {
		char *l = fgets(line, sizeof(line), f);
		if ((!l || !strncmp(line, "## expect", 9)) && expect[0]) {
			check_case(name, expect, sw[0] ? sw : NULL, stack);
			n++;
			expect[0] = sw[0] = stack[0] = 0;
		}
		if (!l)
			break;
		if (!strncmp(line, "## expect", 9))
			snprintf(expect, sizeof(expect), "%s", line);
		else if (!strncmp(line, " => ", 4) && strlen(stack) + strlen(line) < sizeof(stack))
			strcat(stack, line);
		else if (strstr(line, "sched_switch:"))
			snprintf(sw, sizeof(sw), "%s", line);
	}
	fclose(f);
	return n;
}

/*
 * The two views of one stopped buffer (host-6.18-views.*, 200 entries):
 * paired entry by entry, each header gets the raw view's nanoseconds.
 * The first entry: text "1262.561571", raw "26265 1 1262561571259".
 */
static void test_ns_merge(void)
{
	FILE *t = fixture("host-6.18-views.trace"), *r = fixture("host-6.18-views.raw");
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	long n = trace_ns_merge(t, r, out);
	fclose(out);
	CHECK(n == 200, "ns: 200 entries of the two views paired (%ld)", n);
	CHECK(buf && strstr(buf, "[001] d..2.  1262.561571259: <stack trace>"),
	      "ns: the first entry's stamp is the raw view's 1262.561571259");
	CHECK(buf && !strstr(buf, " 1262.561571: "), "ns: no microsecond stamp is left");
	if (buf) {
		FILE *m = fmemopen(buf, len, "r");
		struct trace_events *te = trace_parse(m);
		fclose(m);
		CHECK(trace_resolution_ns(te) == 1, "ns: the merged trace parses at 1 ns");
		trace_events_free(te);
	}
	free(buf);
	/* A raw view one entry short (the buffer changed between the reads) is refused. */
	rewind(t);
	rewind(r);
	char *raw = NULL, line[512];
	size_t rl = 0;
	FILE *rm = open_memstream(&raw, &rl);
	int skipped = 0;
	while (fgets(line, sizeof(line), r))
		if (line[0] != '#' && !skipped++)
			continue;
		else
			fputs(line, rm);
	fclose(rm);
	FILE *short_raw = fmemopen(raw, rl, "r"), *sink = fopen("/dev/null", "w");
	CHECK(trace_ns_merge(t, short_raw, sink) == -1, "ns: views that do not pair are refused");
	fclose(short_raw);
	fclose(sink);
	free(raw);
	fclose(t);
	fclose(r);
}

/*
 * host-6.18-none-faultexit.trace: lines 100-175 of a real --trace-dump
 * (nanoseconds), with two holds of pid 837.  Hold 1 is the real record
 * (1624.340058623 .. .340180104): 837 is switched out at .340127524 with
 * prev_state R and the stack schedule <- irqentry_exit_to_user_mode <-
 * asm_exc_page_fault (the return to user from a fault), is back at
 * .340135819 (rcu_preempt -> 837), and takes a pool fault at .340170205.
 * Hold 2 is placed by hand: acquired 200 ns after that fault, to
 * .340175000, with no event of 837 in it.
 */
static void test_fault_exit(void)
{
	FILE *f = fixture("host-6.18-none-faultexit.holds");
	uint64_t n;
	struct hold_rec *h = hold_file_read(f, &n);
	fclose(f);
	f = fixture("host-6.18-none-faultexit.trace");
	struct trace_events *t = trace_parse(f);
	fclose(f);
	CHECK(h && n == 2 && trace_resolution_ns(t) == 1, "fault exit: 2 holds, a ns trace");
	struct evidence_phase e[2];
	trace_join(t, h, n, 0, e);
	CHECK(e[0].holds == 2 && e[0].holds_with_fault == 1,
	      "fault exit: one faulting hold; the fault 200 ns before hold 2 is not in it (%llu)",
	      (unsigned long long)e[0].holds_with_fault);
	CHECK(e[0].switches[SW_USER] == 1 && e[0].fault_switched == 1 &&
	      e[0].q_split[Q_FAULT_EXIT] == 1, "fault exit: q_M 1 of 1, switched at the fault's exit");
	CHECK(e[0].offcpu_count == 1 && e[0].offcpu_ns == 135819 - 127524,
	      "fault exit: off CPU .340127524 -> .340135819 = 8295 ns (%llu)",
	      (unsigned long long)e[0].offcpu_ns);
	CHECK(e[0].ts_resolution_ns == 1 && e[0].timer_traced, "fault exit: ns, timer traced");
	CHECK(e[0].holds_fault_off_filter == 0, "fault exit: hold 1's fault is on the pool's addresses");
	/*
	 * Hold 1 cut at .340160000, before its pool fault (.340170205): the
	 * switch at .340127524 still has asm_exc_page_fault on its stack, a
	 * fault the address filter left out, so the hold faulted all the same.
	 */
	struct hold_rec cut = h[0];
	cut.release_ns = 1624340160000ull;
	trace_join(t, &cut, 1, 0, e);
	CHECK(e[0].holds_with_fault == 1 && e[0].holds_fault_off_filter == 1 &&
	      e[0].q_split[Q_FAULT_EXIT] == 1, "fault exit: a fault seen only on the stack counts, "
	      "apart (%llu %llu)", (unsigned long long)e[0].holds_with_fault,
	      (unsigned long long)e[0].holds_fault_off_filter);
	trace_events_free(t);

	/* The same trace as the text prints it (rounded to the microsecond): the fault
	 * .340170 is within 500 ns of hold 2's acquire .340170405, so it counts. */
	f = fixture("host-6.18-none-faultexit.trace");
	char *us = NULL, line[1024];
	size_t ul = 0;
	FILE *m = open_memstream(&us, &ul);
	while (fgets(line, sizeof(line), f)) {
		char *dot = strstr(line, ".3401");
		if (!dot)
			dot = strstr(line, ".3400");
		if (line[0] != '#' && strncmp(line, " => ", 4) && dot && dot[10] == ':') {
			unsigned long long ns = strtoull(dot + 1, NULL, 10);
			fprintf(m, "%.*s%06llu%s", (int)(dot + 1 - line), line, (ns + 500) / 1000,
				dot + 10);
		} else {
			fputs(line, m);
		}
	}
	fclose(m);
	fclose(f);
	m = fmemopen(us, ul, "r");
	t = trace_parse(m);
	fclose(m);
	trace_join(t, h, n, 0, e);
	CHECK(trace_resolution_ns(t) == 1000 && e[0].holds_with_fault == 2,
	      "fault exit: at microseconds the fault before hold 2 counts in it (%llu)",
	      (unsigned long long)e[0].holds_with_fault);
	trace_events_free(t);
	free(us);
	free(h);
}

#define C(ns) ((unsigned long long)(ns))

/*
 * The census on census-constructed.trace/.holds (tests/data/evidence/README.md
 * tells the story line by line); every number below is the hand
 * computation written beside it, in ns after 100 s.
 */
static void test_census(void)
{
	FILE *f = fixture("census-constructed.trace");
	struct trace_events *t = trace_parse(f);
	fclose(f);
	f = fixture("census-constructed.holds");
	uint64_t n;
	struct hold_rec *h = hold_file_read(f, &n);
	fclose(f);
	CHECK(h && n == 11, "census: eleven hold records");
	struct evidence_phase e[2];
	trace_join(t, h, n, 0, e);
	/* Faulting holds: 104's (fault 40100), 105's (209000), 102's (400100); 105's switched. */
	CHECK(e[0].holds_with_fault == 3 && e[0].fault_switched == 1 &&
	      e[0].q_split[Q_BLOCKED_IN_FAULT] == 1,
	      "census: q_M 1 of 3, blocked in the fault (%llu of %llu)", C(e[0].fault_switched),
	      C(e[0].holds_with_fault));

	struct census_phase c[2];
	trace_census(t, h, n, 0, 0, c);
	const struct census_phase *z = &c[0];
	/* Durations: 700, six of 1000, 30000 (101, 4100-34100), 30000 (102's calm fault),
	 * 57000 (105), 100000 (104): the median is the 6th of 11, 1000. */
	CHECK(z->holds == 11 && z->hold_median_ns == 1000 && z->lock_ns == 223700,
	      "census: 11 holds, median 1000 ns, 223700 ns of lock time (%llu, %llu)",
	      C(z->hold_median_ns), C(z->lock_ns));
	/* Faulting holds with no switch: 104's (a tick at 60000) and 102's (none): the
	 * reference is 102's alone, 30000 ns. */
	CHECK(z->fault_ref_ns == 30000 && z->fault_ref_n == 1 && !z->fault_ref_given,
	      "census: the fault reference is the one undisturbed faulting hold, 30000 ns (%llu)",
	      C(z->fault_ref_ns));
	/* 101's 30000 ns > 10 x 1000, no fault, no switch; 104's 100000 > 2 x 30000 with its tick. */
	CHECK(z->freeze_n[0] == 1 && z->freeze_ns[0] == 30000 && z->freeze_ticked[0] == 0,
	      "census: one freeze without a fault, 30000 ns, no timer interrupt in it");
	CHECK(z->freeze_n[1] == 1 && z->freeze_ns[1] == 100000 && z->freeze_ticked[1] == 1 &&
	      z->freeze_ticks[1] == 1, "census: one faulting freeze, 100000 ns, one tick in it");
	/* 104's tick at 60000 came after its fault at 40100; 105 and 102 had none. */
	CHECK(z->fault_holds == 3 && z->fault_holds_ticked == 1,
	      "census: 1 of 3 faulting holds spans a tick (%llu of %llu)", C(z->fault_holds_ticked),
	      C(z->fault_holds));
	/*
	 * T_tail gaps: 1000->1200 (102 preempted at 600), 2200->3000 (103 asleep since
	 * 2100), 262000->263000 (103 woken at 261000, not yet in), 601000->601300 (102 in
	 * on CPU 1 since 301000, the releaser 101 on CPU 0).
	 */
	CHECK(z->tail_gaps == 4 && z->tail_ns == 2300, "census: 4 T_tail gaps, 2300 ns (%llu, %llu)",
	      C(z->tail_gaps), C(z->tail_ns));
	CHECK(z->tail_n[AQ_PREEMPTED] == 1 && z->tail_state_ns[AQ_PREEMPTED] == 200 &&
	      z->tail_n[AQ_ASLEEP] == 1 && z->tail_state_ns[AQ_ASLEEP] == 800 &&
	      z->tail_n[AQ_WOKEN] == 1 && z->tail_state_ns[AQ_WOKEN] == 1000 &&
	      z->tail_n[AQ_RUN_OTHER] == 1 && z->tail_state_ns[AQ_RUN_OTHER] == 300 &&
	      z->tail_n[AQ_RUN_SAME] == 0 && z->tail_n[AQ_SELF] == 0 && z->tail_n[AQ_UNKNOWN] == 0,
	      "census: T_tail by the next acquirer: preempted 200, asleep 800, woken 1000, "
	      "running on the other CPU 300");
	/* 105 off CPU 210100-260000; 103 waited 220000-263000, 40000 ns of it inside. */
	CHECK(z->route_n[Q_BLOCKED_IN_FAULT] == 1 && z->route_off_ns[Q_BLOCKED_IN_FAULT] == 49900 &&
	      z->route_waiter_ns[Q_BLOCKED_IN_FAULT] == 40000 && z->route_n[Q_IN_FAULT] == 0,
	      "census: blocked in the fault stalls 49900 ns off CPU, 40000 ns of waiting (%llu, %llu)",
	      C(z->route_off_ns[Q_BLOCKED_IN_FAULT]), C(z->route_waiter_ns[Q_BLOCKED_IN_FAULT]));
	/* D: 105 on the folio 210100-260000 (holding), 102 on mmap_lock 300000-301000,
	 * 101 on the hugetlb fault mutex 310001-312000; the S sleeps are not counted. */
	CHECK(z->d_n[DW_FOLIO] == 1 && z->d_ns[DW_FOLIO] == 49900 && z->d_in_hold[DW_FOLIO] == 1,
	      "census: D in a folio wait, 49900 ns, by a lock holder");
	CHECK(z->d_n[DW_RWSEM] == 1 && z->d_ns[DW_RWSEM] == 1000 && z->d_in_hold[DW_RWSEM] == 0,
	      "census: D in rwsem_down_read_slowpath, 1000 ns, outside a hold");
	CHECK(z->d_n[DW_HUGETLB_MUTEX] == 1 && z->d_ns[DW_HUGETLB_MUTEX] == 1999 &&
	      z->d_n[DW_MUTEX] == 0 && z->d_n[DW_OTHER] == 0 && z->d_n[DW_NOSTACK] == 0,
	      "census: D on the hugetlb fault mutex, 1999 ns; no other D switch");
	/*
	 * The folio join: 105 waits on F at 210000; the unlock of F at 100000 came
	 * before, G's at 240000 is another folio; 104 unlocks F at 251000, and at
	 * 210000 it was preempted (R+ at 200000, inside its fault), off CPU until
	 * 250000: 40000 ns of the 41000 ns wait.
	 */
	CHECK(z->folios_traced && z->folio_waits == 1 && z->folio_joined == 1 &&
	      z->folio_self == 0 && z->folio_waiter_in_hold == 1,
	      "census: one contended folio, joined to its unlock, the waiter a lock holder");
	CHECK(z->folio_holder_off == 1 && z->folio_holder_preempted == 1 &&
	      z->folio_holder_off_ns == 40000 && z->folio_wait_ns == 41000,
	      "census: the folio's holder was preempted, off CPU 40000 of the 41000 ns wait "
	      "(%llu, %llu)", C(z->folio_holder_off_ns), C(z->folio_wait_ns));
	/* 105 woken at 251100 by 104 on CPU 1 onto CPU 0, in at 260000: remote, 8900 ns. */
	CHECK(z->wakes_traced && z->slept_in_fault == 1 && z->slept_no_wake == 0 &&
	      z->wake[1].n == 1 && z->wake[1].total_ns == 8900 && z->wake[1].max_ns == 8900 &&
	      z->wake[0].n == 0, "census: the holder asleep in its fault ran 8900 ns after a "
	      "remote wakeup (%llu)", C(z->wake[1].total_ns));

	/* Given costbench's fault (60000 ns): 104's 100000 is under 2 x 60000. */
	trace_census(t, h, n, 0, 60000, c);
	CHECK(c[0].fault_ref_given && c[0].fault_ref_ns == 60000 && c[0].freeze_n[1] == 0 &&
	      c[0].freeze_n[0] == 1, "census: with a given 60000 ns fault, no faulting freeze");
	/* A fill boundary at 300000: the D switches at 300000 and 310001 are steady's. */
	trace_census(t, h, n, 100000300000ull, 0, c);
	CHECK(c[0].d_n[DW_RWSEM] == 0 && c[1].d_n[DW_RWSEM] == 1 && c[1].d_n[DW_HUGETLB_MUTEX] == 1 &&
	      c[0].d_n[DW_FOLIO] == 1 && c[0].holds == 7 && c[1].holds == 4,
	      "census: phases split the holds by acquire and the D switches by time");
	trace_events_free(t);
	free(h);
}

/*
 * The census on a real trace with sched_waking (host-6.18-channel: the
 * host's 6.18, bufbench --trace-holds --trace-channel, no kprobe events
 * there): its T_tail is hold_tail.c's, gap for gap, every gap has a state,
 * and the D switches of other tasks (the grep bufbench ran) are counted apart.
 */
static void test_census_real(void)
{
	FILE *f = fixture("host-6.18-channel.trace");
	struct trace_events *t = trace_parse(f);
	rewind(f);
	char line[1024];
	uint64_t foreign = 0;
	while (fgets(line, sizeof(line), f))
		foreign += strstr(line, "prev_state=D ") && !strstr(line, "prev_comm=bufbench ");
	fclose(f);
	f = fixture("host-6.18-channel.holds");
	uint64_t n;
	struct hold_rec *h = hold_file_read(f, &n);
	fclose(f);
	struct census_phase c[2];
	trace_census(t, h, n, 0, 0, c);
	struct hold_tail ht;
	hold_tail_measure(h, n, 0, UINT64_MAX, &ht);
	uint64_t sum_n = 0, sum_ns = 0;
	for (int s = 0; s < AQ_STATES; s++) {
		sum_n += c[0].tail_n[s];
		sum_ns += c[0].tail_state_ns[s];
	}
	CHECK(ht.count > 0 && c[0].tail_gaps == ht.count && c[0].tail_ns == ht.total_ns,
	      "census, real trace: T_tail is hold_tail.c's, %llu gaps, %llu ns", C(ht.count),
	      C(ht.total_ns));
	CHECK(sum_n == c[0].tail_gaps && sum_ns == c[0].tail_ns && c[0].tail_n[AQ_WOKEN] > 0,
	      "census, real trace: every gap has a state, some woken (sched_waking read: %llu)",
	      C(c[0].tail_n[AQ_WOKEN]));
	CHECK(foreign > 0 && c[0].d_foreign + c[1].d_foreign == foreign &&
	      c[0].d_n[DW_FOLIO] == 0, "census, real trace: %llu D switches of programs bufbench "
	      "ran (grep's folio waits), counted apart", C(foreign));
	trace_events_free(t);
	free(h);
}

/*
 * A real guest trace of the folio channel (guest-7.0-full-folio: costbench
 * --wake-in-fault 30 --contend-page on --trace on under 7.0.13 booted
 * full, one vCPU, icount): the reader's every folio wait joined to the
 * holder's unlock of the same folio, the holder preempted when the wait
 * began.  The expected numbers are read off the trace's own lines here.
 */
static void test_census_guest_folio(void)
{
	FILE *f = fixture("guest-7.0-full-folio.trace");
	struct trace_events *t = trace_parse(f);
	rewind(f);
	char line[1024];
	uint64_t waits = 0, unlocks = 0, unlocks_by_holder = 0, dfolio = 0;
	FILE *hf = fixture("guest-7.0-full-folio.holds");
	uint64_t n;
	struct hold_rec *h = hold_file_read(hf, &n);
	fclose(hf);
	char holder[32];
	snprintf(holder, sizeof(holder), "costbench-%d ", h && n ? h[0].pid : -1);
	bool in_d = false;
	while (fgets(line, sizeof(line), f)) {
		waits += strstr(line, "preemptlab_folio_wait:") != NULL;
		if (strstr(line, "preemptlab_folio_unlock:")) {
			unlocks++;
			unlocks_by_holder += strstr(line, holder) != NULL;
		}
		/* A D switch's stack names the folio wait a few frames down. */
		if (strstr(line, "sched_switch:"))
			in_d = strstr(line, "prev_state=D ") != NULL;
		else if (in_d && strstr(line, "=> folio_wait_bit_common")) {
			dfolio++;
			in_d = false;
		}
	}
	fclose(f);
	struct census_phase c[2];
	trace_census(t, h, n, 0, 0, c);
	const struct census_phase *z = &c[0];
	CHECK(h && n == 30 && waits == 10 && unlocks == 10 && unlocks_by_holder == 10,
	      "census, guest folio trace: 30 holds (its 30 plain trials), 10 folio waits, 10 unlocks, all "
	      "by the holder (%llu, %llu, %llu)", C(waits), C(unlocks), C(unlocks_by_holder));
	CHECK(z->folios_traced && z->folio_waits == waits && z->folio_joined == waits &&
	      z->folio_self == 0 && z->folio_foreign == 0 && z->folio_waiter_in_hold == 0,
	      "census, guest folio trace: each wait joined to another task's unlock, the reader "
	      "no lock holder, costbench's tasks its own (%llu joined)", C(z->folio_joined));
	CHECK(z->folio_holder_off == waits && z->folio_holder_preempted == waits &&
	      z->folio_holder_off_ns > 0 && z->folio_wait_ns > z->folio_holder_off_ns,
	      "census, guest folio trace: the holder preempted at every wait, off CPU %llu of "
	      "%llu ns waited", C(z->folio_holder_off_ns), C(z->folio_wait_ns));
	CHECK(z->d_n[DW_FOLIO] == dfolio && dfolio == waits && z->d_in_hold[DW_FOLIO] == 0 &&
	      z->d_foreign == 0, "census, guest folio trace: %llu D switches in a folio wait, "
	      "none by a holder, none of another program", C(dfolio));
	CHECK(!trace_own_comm("exe", 3) && trace_own_comm("costbench", 9) &&
	      trace_own_comm("bufbench", 8) && !trace_own_comm("costbench2", 10),
	      "census: the lab's programs are bufbench and costbench, not a re-exec's 'exe'");
	trace_events_free(t);
	free(h);
}

int main(void)
{
	test_host_fixture();
	test_kprobe_faults();
	test_ns_merge();
	test_fault_exit();
	test_census();
	test_census_real();
	test_census_guest_folio();
	CHECK(test_stacks("stacks-host-6.18.trace") == 8, "stacks: the host's 8 cases");
	CHECK(test_stacks("stacks-guest-7.0.trace") == 9, "stacks: the guests' 9 cases");
	CHECK(test_stacks("stacks-constructed.trace") == 7, "stacks: the 7 constructed cases");
	CHECK(test_stacks("stacks-guest-arm64.trace") == 11, "stacks: the arm64 guests' 11 cases");
	return CHECK_DONE();
}
