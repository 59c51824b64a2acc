#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufbench.h"
#include "mitigation_rows.h"
#include "size.h"
#include "spin_backoff.h"
#include "unit_conf.h"

static const char usage[] =
	"Usage: bufbench [options]\n"
	"A miniature PostgreSQL shared buffer pool driven by forked client processes.\n"
	"\n"
	"  --clients N          client processes (default 8)\n"
	"  --duration S         measured seconds (default 10)\n"
	"  --warmup S           seconds before measuring (default 0: the first-touch\n"
	"                       faults of fresh backends are part of what is measured)\n"
	"  --workload W         what a transaction does (default select-only):\n"
	"@workloads\n"
	"  --relation SIZE      relation size, k/M/G suffixes (default 4 x pool)\n"
	"  --pool SIZE          shared buffer pool size (default 256M)\n"
	"  --pages P            page policy of the shared segment (default 4k):\n"
	"@pages\n"
	"  --lock L             the strategy lock (default tas):\n"
	"@locks\n"
	"  --strategy S         StrategyGetBuffer's victim search (default pg):\n"
	"@strategies\n"
	"  --mitigation M       a fix for faults under the strategy lock (default none;\n"
	"                       those that are a page size, lock or strategy set it,\n"
	"                       and an explicit contrary --pages/--lock/--strategy\n"
	"                       is refused; docs/mitigations.md):\n"
	"@mitigations\n"
	"  --freelist-stride N  initial freelist order: every Nth buffer first (default 1,\n"
	"                       PostgreSQL's 0, 1, 2, ...); N > 1 makes consecutive pops\n"
	"                       touch different descriptor pages, as many concurrent\n"
	"                       backends do (docs/bufbench.md)\n"
	"  --steady S           end the run S seconds after the pool has filled (the\n"
	"                       fill phase, then S seconds of steady phase); --duration\n"
	"                       is then the limit\n"
	"  --lock-timeout-ms N  resilient locks give up after N ms (default 250)\n"
	"  --spins-per-delay S  tas waits: adaptive (default: PostgreSQL's, 10..1000 by\n"
	"                       experience; on 2 CPUs it sinks to 10 and waiters sleep)\n"
	"                       or fixed:N (N in 1..1000000, never adapted: fixed:1000\n"
	"                       is PostgreSQL's most on a many-CPU machine, where\n"
	"                       spinning succeeds; under icount a spin costs one\n"
	"                       instruction's time, so more N spins as long)\n"
	"  --reentrant-signal HZ  each client also takes the strategy lock from a\n"
	"                       SIGPROF handler HZ times per CPU second (a perf NMI's\n"
	"                       analogue): tas deadlocks (reported, exit 4), resilient\n"
	"                       detects it\n"
	"  --numa N             none | local | interleave | bind:NODE (default none)\n"
	"  --reconnect N        re-fork each client every N transactions (0: never)\n"
	"  --seed N             random seed (default 1)\n"
	"  --json FILE          write the result document there (default stdout)\n"
	"  --unit-conf FILE     the unit's plan file (plan/UNIT.plan; the cell runner\n"
	"                       passes it): the provenance's kernel label, accelerator,\n"
	"                       icount shift and epoch, and a one-model kernel's model\n"
	"  --no-instrument      no lock timing or counting (to measure its cost)\n"
	"  --hold-events[=M]    count strategy-lock holds during which the holder took\n"
	"                       a page fault or was switched out (perf counters).\n"
	"                       M = window (default): read before the acquire and\n"
	"                       after the release, nothing inside the hold, the wait\n"
	"                       counted with it; in-hold: read inside the hold (two\n"
	"                       system calls per hold: perturbs timing, which the\n"
	"                       report then refuses to compare)\n"
	"  --trace-holds[=N]    record each strategy-lock hold (first N per client,\n"
	"                       default 65536) and join them with the kernel's trace\n"
	"                       of the same window (a private tracefs instance): the\n"
	"                       document's evidence object (docs/evidence.md)\n"
	"  --hold-records[=N]   record the holds as --trace-holds does, without the\n"
	"                       kernel's trace: T_tail only (the phases' t_tail)\n"
	"  --fault-event E      with --trace-holds: the faults from E = tracepoint\n"
	"                       (exceptions:page_fault_user, x86) or kprobe (a kprobe\n"
	"                       on handle_mm_fault, every architecture); default: the\n"
	"                       tracepoint where the kernel has it\n"
	"  --trace-channel      with --trace-holds: also trace sched_waking and the\n"
	"                       contended folio locks (kprobes on __folio_lock and\n"
	"                       on folio_unlock with waiters): the census's wakeup\n"
	"                       latency and folio holders (docs/evidence.md)\n"
	"  --freeze-fault-ns N  with --trace-holds: the fault time the freeze census\n"
	"                       doubles (costbench's); default: the median of the\n"
	"                       run's own faulting holds that nothing interrupted\n"
	"  --trace-dump PREFIX  with --trace-holds: also keep the raw trace and the hold\n"
	"                       records as PREFIX.trace and PREFIX.holds\n"
	"  --segment-size       print the shared segment's size in bytes and exit\n"
	"                       (what a huge page reservation must cover)\n"
	"  --help               this text\n"
	"\n"
	"Exit status: 0 done, 2 bad option, 3 the page policy cannot be had (the\n"
	"message names the sysctl), 4 the run failed (stuck lock, no unpinned\n"
	"buffers, a self-deadlock under --reentrant-signal), 5 --lock rseq: no time-slice extension here (the message says\n"
	"why), 6 --hold-events: no perf software counters here, 8 --trace-holds: no\n"
	"writable tracefs here (the message says why), 9 --mitigation cannot be had\n"
	"here (no MADV_POPULATE_READ, the grant length refused; the message says why).\n";

/*
 * The value lists come from the vocabulary (buffer_pool/vocab.c), so
 * --help cannot fall behind what the options accept: "@key" lines of the
 * text are replaced by that vocabulary's items.
 */
static void print_usage(FILE *f)
{
	const char *p = usage;
	while (*p) {
		size_t n = strcspn(p, "\n");
		const struct vocab *v = NULL;
		for (int i = 0; p[0] == '@' && vocab_all[i]; i++)
			if (strlen(vocab_all[i]->key) == n - 1 && !strncmp(p + 1, vocab_all[i]->key, n - 1))
				v = vocab_all[i];
		if (v)
			vocab_write_help(f, v, 23);
		else
			fprintf(f, "%.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

static _Noreturn void bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "bufbench: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try --help)\n");
	exit(EXIT_BAD_OPTION);
}

static _Noreturn void bad_choice(const char *opt, const char *arg, const struct vocab *v)
{
	char choices[256];
	fprintf(stderr, "bufbench: unknown %s '%s': expected %s (try --help)\n", opt, arg,
		vocab_choices(v, choices, sizeof(choices)));
	exit(EXIT_BAD_OPTION);
}

/* Sizes and seconds are checked here, before anything runs: no NaN, no overflow. */
static _Noreturn void bad_value(const char *opt, const char *arg, const char *want)
{
	fprintf(stderr, "bufbench: %s '%s': %s (try --help)\n", opt, arg, want);
	exit(EXIT_BAD_OPTION);
}

static uint64_t parse_size(const char *opt, const char *s)
{
	uint64_t bytes;
	enum size_result r = size_parse(s, &bytes);
	if (r == SIZE_TOO_LARGE)
		bad_value(opt, s, "larger than 1 PiB");
	if (r != SIZE_OK)
		bad_value(opt, s, "expected a size such as 512M or 2G");
	return bytes;
}

static long parse_long(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || *end || v < min || v > max) {
		fprintf(stderr, "bufbench: %s wants an integer in %ld..%ld, not '%s' (try --help)\n",
			opt, min, max, s);
		exit(EXIT_BAD_OPTION);
	}
	return v;
}

static double parse_seconds(const char *opt, const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !isfinite(v) || v < 0 || v > 86400) {
		fprintf(stderr, "bufbench: %s wants seconds (0..86400), not '%s' (try --help)\n",
			opt, s);
		exit(EXIT_BAD_OPTION);
	}
	return v;
}

/* The last value given for an option, for messages about combinations. */
static const char *arg_of(int argc, char **argv, const char *opt)
{
	const char *v = "(default)";
	size_t n = strlen(opt);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], opt) && i + 1 < argc)
			v = argv[i + 1];
		else if (!strncmp(argv[i], opt, n) && argv[i][n] == '=')
			v = argv[i] + n + 1;
	}
	return v;
}

/*
 * A mitigation that is a value of another dimension (its row's sets column,
 * lab/common/mitigation_rows.c) sets it; the same value given explicitly is
 * fine (the planner writes both), a different one is a contradiction and
 * refused.  Any huge page size will do for the page size (1 GB is
 * hugepages' second cell); a strategy the row cannot run on is refused.
 */
static void apply_mitigation(struct bench_opts *o, bool pages_given, bool lock_given,
			     bool strategy_given, int argc, char **argv)
{
	mitigation_name(&o->mitigation, o->mitigation_name, sizeof(o->mitigation_name));
	const struct mitigation_row *row = mitigation_row(o->mitigation_name);
	if (!row)
		return;
	const char *to = mitigation_sets_to(row, o->mitigation_name);
	char msg[160], why[160];
	snprintf(msg, sizeof(msg), "--mitigation %s contradicts %%s", o->mitigation_name);
	enum lab_lock_kind lock;
	enum strategy_kind strategy;
	uint32_t parts;
	switch (row->sets) {
	case SETS_LOCK:
		lab_lock_kind_parse(to, &lock);
		snprintf(why, sizeof(why), "--lock %s: it is --lock %s", arg_of(argc, argv, "--lock"), to);
		if (lock_given && o->lock != lock)
			bad(msg, why);
		o->lock = lock;
		break;
	case SETS_PAGES:
		if (pages_given && (o->pages == PAGES_4K || o->pages == PAGES_THP))
			bad(msg, "a page size that is not huge (--pages 2m or 1g)");
		if (!pages_given)
			page_policy_parse(to, &o->pages);
		break;
	case SETS_STRATEGY:
		strategy_parse(to, &strategy, &parts);
		snprintf(why, sizeof(why), "--strategy %s: it is --strategy %s",
			 arg_of(argc, argv, "--strategy"), to);
		if (strategy_given && (o->strategy != strategy || o->strategy_parts != parts))
			bad(msg, why);
		o->strategy = strategy;
		o->strategy_parts = parts;
		break;
	case SETS_NOTHING:
		break;
	}
	if (row->not_with_strategy && strategy_parse(row->not_with_strategy, &strategy, &parts) == 0 &&
	    o->strategy == strategy) {
		snprintf(why, sizeof(why), "--strategy %s: it %s", row->not_with_strategy, row->not_with_why);
		bad(msg, why);
	}
}

const char *workload_name(enum workload w)
{
	return vocab_name(&vocab_workloads, (int)w);
}

void bench_parse_args(struct bench_opts *o, int argc, char **argv)
{
	enum { O_CLIENTS = 256, O_DURATION, O_WARMUP, O_WORKLOAD, O_RELATION, O_POOL, O_PAGES,
	       O_LOCK, O_STRATEGY, O_NUMA, O_RECONNECT, O_SEED, O_JSON, O_NOINSTR,
	       O_SEGSIZE, O_HOLDEV, O_TRACEHOLDS, O_HOLDREC, O_TRACEDUMP, O_FAULTEV, O_TRACECHAN, O_FREEZEF, O_STRIDE, O_STEADY, O_LOCKTO, O_SPD, O_REENTRANT, O_MITIGATION, O_UNITCONF, O_HELP };
	static const struct option longopts[] = {
		{ "clients", required_argument, 0, O_CLIENTS },
		{ "duration", required_argument, 0, O_DURATION },
		{ "warmup", required_argument, 0, O_WARMUP },
		{ "workload", required_argument, 0, O_WORKLOAD },
		{ "relation", required_argument, 0, O_RELATION },
		{ "pool", required_argument, 0, O_POOL },
		{ "pages", required_argument, 0, O_PAGES },
		{ "lock", required_argument, 0, O_LOCK },
		{ "strategy", required_argument, 0, O_STRATEGY },
		{ "numa", required_argument, 0, O_NUMA },
		{ "reconnect", required_argument, 0, O_RECONNECT },
		{ "seed", required_argument, 0, O_SEED },
		{ "json", required_argument, 0, O_JSON },
		{ "unit-conf", required_argument, 0, O_UNITCONF },
		{ "no-instrument", no_argument, 0, O_NOINSTR },
		{ "segment-size", no_argument, 0, O_SEGSIZE },
		{ "hold-events", optional_argument, 0, O_HOLDEV },
		{ "trace-holds", optional_argument, 0, O_TRACEHOLDS },
		{ "hold-records", optional_argument, 0, O_HOLDREC },
		{ "trace-dump", required_argument, 0, O_TRACEDUMP },
		{ "fault-event", required_argument, 0, O_FAULTEV },
		{ "trace-channel", no_argument, 0, O_TRACECHAN },
		{ "freeze-fault-ns", required_argument, 0, O_FREEZEF },
		{ "freelist-stride", required_argument, 0, O_STRIDE },
		{ "steady", required_argument, 0, O_STEADY },
		{ "lock-timeout-ms", required_argument, 0, O_LOCKTO },
		{ "spins-per-delay", required_argument, 0, O_SPD },
		{ "reentrant-signal", required_argument, 0, O_REENTRANT },
		{ "mitigation", required_argument, 0, O_MITIGATION },
		{ "help", no_argument, 0, O_HELP },
		{ 0, 0, 0, 0 },
	};

	memset(o, 0, sizeof(*o));
	o->clients = 8;
	o->duration_s = 10;
	o->pool_bytes = 256ull << 20;
	o->pages = PAGES_4K;
	o->lock = LOCK_TAS;
	o->strategy = STRATEGY_PG;
	o->strategy_parts = 1;
	snprintf(o->numa, sizeof(o->numa), "none");
	o->seed = 1;
	o->instrument = true;
	o->freelist_stride = 1;
	o->lock_timeout_ms = 250;

	bool pages_given = false, lock_given = false, strategy_given = false;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		const char *a = optarg;
		switch (c) {
		case O_CLIENTS: o->clients = (int)parse_long("--clients", a, 1, 4096); break;
		case O_DURATION: o->duration_s = parse_seconds("--duration", a); break;
		case O_WARMUP: o->warmup_s = parse_seconds("--warmup", a); break;
		case O_WORKLOAD:
		{
			const struct vocab_item *it = vocab_find(&vocab_workloads, a, NULL);
			if (!it)
				bad_choice("--workload", a, &vocab_workloads);
			o->workload = (enum workload)it->code;
			break;
		}
		case O_RELATION: o->relation_bytes = parse_size("--relation", a); break;
		case O_POOL: o->pool_bytes = parse_size("--pool", a); break;
		case O_PAGES:
			if (page_policy_parse(a, &o->pages) != 0)
				bad_choice("--pages", a, &vocab_pages);
			pages_given = true;
			break;
		case O_LOCK:
			if (lab_lock_kind_parse(a, &o->lock) != 0)
				bad_choice("--lock", a, &vocab_locks);
			lock_given = true;
			break;
		case O_STRATEGY:
			if (strategy_parse(a, &o->strategy, &o->strategy_parts) != 0) {
				if (vocab_range_error(&vocab_strategies, a))
					bad_value("--strategy", a, vocab_range_error(&vocab_strategies, a));
				bad_choice("--strategy", a, &vocab_strategies);
			}
			strategy_given = true;
			break;
		case O_NUMA:
			if (strcmp(a, "none") && strcmp(a, "local") && strcmp(a, "interleave") &&
			    (strncmp(a, "bind:", 5) || !a[5] || strspn(a + 5, "0123456789") != strlen(a + 5)))
				bad("unknown --numa '%s': expected none, local, interleave or bind:N", a);
			snprintf(o->numa, sizeof(o->numa), "%s", a);
			break;
		case O_RECONNECT: o->reconnect = parse_long("--reconnect", a, 0, 1L << 40); break;
		case O_SEED: o->seed = (uint64_t)parse_long("--seed", a, 0, 1L << 62); break;
		case O_JSON: o->json = a; break;
		case O_UNITCONF:
			if (unit_conf_load(a) != 0) {
				fprintf(stderr, "bufbench: --unit-conf %s: %s\n", a, strerror(errno));
				exit(EXIT_BAD_OPTION);
			}
			break;
		case O_NOINSTR: o->instrument = false; break;
		case O_SEGSIZE: o->print_segment_size = true; break;
		case O_HOLDEV:
			o->hold_events = HOLD_EVENTS_WINDOW;
			if (a && (hold_events_mode_parse(a, &o->hold_events) != 0 ||
				  o->hold_events == HOLD_EVENTS_OFF))
				bad("unknown --hold-events '%s': expected window or in-hold", a);
			break;
		case O_TRACEHOLDS:
			o->trace_holds = a ? (uint32_t)parse_long("--trace-holds", a, 1, 1L << 24) : 65536;
			o->trace_kernel = true;
			break;
		case O_HOLDREC:
			o->trace_holds = a ? (uint32_t)parse_long("--hold-records", a, 1, 1L << 24) : 65536;
			break;
		case O_TRACEDUMP: o->trace_dump = a; break;
		case O_TRACECHAN: o->trace_channel = true; break;
		case O_FREEZEF:
			o->freeze_fault_ns = (uint64_t)parse_long("--freeze-fault-ns", a, 1, 1L << 40);
			break;
		case O_FAULTEV:
			if (strcmp(a, "tracepoint") && strcmp(a, "kprobe"))
				bad("unknown --fault-event '%s': expected tracepoint or kprobe", a);
			o->fault_event = a;
			break;
		case O_STRIDE:
			o->freelist_stride = (uint32_t)parse_long("--freelist-stride", a, 1, 1L << 20);
			break;
		case O_STEADY: o->steady_s = parse_seconds("--steady", a); break;
		case O_LOCKTO:
			o->lock_timeout_ms = (double)parse_long("--lock-timeout-ms", a, 1, 600000);
			break;
		case O_SPD:
			if (!strcmp(a, "adaptive"))
				o->fixed_spins_per_delay = 0;
			else if (!strncmp(a, "fixed:", 6))
				o->fixed_spins_per_delay = (int)parse_long("--spins-per-delay fixed:N",
									   a + 6, 1, SPIN_FIXED_MAX);
			else
				bad("unknown --spins-per-delay '%s': expected adaptive or fixed:N", a);
			break;
		case O_REENTRANT:
			o->reentrant_hz = parse_long("--reentrant-signal", a, 1, 10000);
			break;
		case O_MITIGATION:
			if (mitigation_parse(a, &o->mitigation) != 0) {
				if (vocab_range_error(&vocab_mitigations, a))
					bad_value("--mitigation", a, vocab_range_error(&vocab_mitigations, a));
				bad_choice("--mitigation", a, &vocab_mitigations);
			}
			break;
		case O_HELP: print_usage(stdout); exit(0);
		case ':':
			bad("option %s needs a value", argv[optind - 1]);
		default:
			bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		bad("unexpected argument '%s'", argv[optind]);
	apply_mitigation(o, pages_given, lock_given, strategy_given, argc, argv);
	if (o->hold_events && !o->instrument)
		bad("--hold-events needs the instrumentation that --no-instrument%s removes", "");
	if (o->trace_holds && !o->instrument)
		bad("--trace-holds needs the instrumentation that --no-instrument%s removes", "");
	if (o->fault_event && !o->trace_kernel)
		bad("--fault-event chooses what --trace-holds traces: add --trace-holds%s", "");
	if (o->trace_channel && !o->trace_kernel)
		bad("--trace-channel adds events to what --trace-holds traces: add --trace-holds%s", "");
	if (o->freeze_fault_ns && !o->trace_kernel)
		bad("--freeze-fault-ns sets the census of --trace-holds: add --trace-holds%s", "");
	if (o->trace_dump && !o->trace_kernel)
		bad("--trace-dump keeps what --trace-holds records: add --trace-holds%s", "");
	if (o->pool_bytes < 16 * BLCKSZ)
		bad("--pool %s is too small: at least 128k (16 buffers)", arg_of(argc, argv, "--pool"));
	if (o->pool_bytes / BLCKSZ >= (1u << 30))
		bad("--pool %s is too large: at most 8T (2^30 buffers)", arg_of(argc, argv, "--pool"));
	if (o->relation_bytes == 0)
		o->relation_bytes = o->pool_bytes * 4;
	if (o->relation_bytes < BLCKSZ)
		bad("--relation %s is too small: at least 8k (one block)",
		    arg_of(argc, argv, "--relation"));
	if (o->relation_bytes / BLCKSZ >= UINT32_MAX)
		bad("--relation %s is too large: at most 32T (2^32 blocks)",
		    arg_of(argc, argv, "--relation"));
	if ((uint32_t)o->clients > (o->pool_bytes / BLCKSZ) / 2)
		bad("too many clients for the pool: each can pin a buffer%s; raise --pool", "");
	if (o->freelist_stride > 1 && o->strategy == STRATEGY_PG19)
		bad("--freelist-stride orders a freelist, and --strategy pg19 has none%s", "");
	if (o->reentrant_hz && (o->lock == LOCK_FUTEX || o->lock == LOCK_MCS))
		bad("--reentrant-signal takes the lock from a signal handler: --lock tas, rseq, "
		    "resilient or resilient-late, not %s", lab_lock_kind_name(o->lock));
	if (o->fixed_spins_per_delay && (o->lock == LOCK_FUTEX || o->lock == LOCK_MCS))
		bad("--spins-per-delay sets s_lock's spinning: --lock tas, rseq, resilient or "
		    "resilient-late, not %s", lab_lock_kind_name(o->lock));
	if (o->steady_s > 0 && o->steady_s > o->duration_s)
		bad("--steady %s is longer than --duration: the duration is the run's limit",
		    arg_of(argc, argv, "--steady"));
}
