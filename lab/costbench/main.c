/*
 * costbench [--batches N] [--fault-pages N] [--hp-pages N] [--syscalls N]
 *           [--json FILE] [--unit-conf FILE]
 * costbench --procs N[,N...] [--procs-pages P] [--json FILE]
 *   instead: N processes fault on one shared object at once, P faults each
 *   (procs.c), per-fault CPU and wall time quantiles per N.
 * costbench --wake-in-fault N [--competitor fifo|fair] [--contend-page alloc|map]
 *           [--trace on] [--json FILE] [--unit-conf FILE]
 *   instead: N trials an arm of a wakeup timed into a holder's page fault
 *   (wake.c): is the holder off CPU before it releases, plain and with an
 *   rseq slice extension requested; the waker SCHED_FIFO, or fair at
 *   nice -20; with --contend-page, does the waker, reading the same page
 *   (one the holder's fault allocates, or one it maps), sleep on the
 *   holder's folio lock; --trace on keeps the trials' trace beside FILE
 *   (FILE less .json, .trace and .holds; costbench-wake.* without --json)
 *   and censuses it (wake_trace.c).
 * costbench --remote-wake N [--trace-ipis on] [--json FILE] [--unit-conf FILE]
 *   instead: N trials an arm of a wakeup from another CPU onto a CPU busy
 *   in user space (remote_wake.c): how long the wakee waits to run; with
 *   --trace-ipis on, which kernel code sent the target its interrupts
 *   (ipi_sources.c; the tracepoints' cost makes it a run of its own).
 * One process, no contention: the cost of a page fault and of a system
 * call under the running kernel and preemption model, as one JSON
 * document (schema preemptlab.costbench/1, docs/json-costbench.md).  The runner runs
 * it once per model per boot (COSTBENCH=on); the report sets the models
 * side by side ("The model's own cost").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "costbench.h"
#include "json.h"
#include "provenance.h"
#include "rseq_slice.h"
#include "unit_conf.h"

static const char *source_name(enum costbench_instr_source s)
{
	return s == CB_INSTR_PERF ? "perf" : s == CB_INSTR_ICOUNT ? "icount" : "none";
}

static void write_summary(struct json *j, const char *key, double *v, int n)
{
	struct costbench_summary s;
	costbench_summarize(v, n, &s);
	json_begin_object(j, key);
	json_double(j, "median", s.median);
	json_double(j, "p25", s.p25);
	json_double(j, "p75", s.p75);
	json_double(j, "min", s.min);
	json_double(j, "max", s.max);
	json_end_object(j);
}

static void write_op(struct json *j, struct costbench_op *op, bool fault)
{
	json_begin_object(j, op->name);
	json_bool(j, "available", op->available);
	if (!op->available) {
		json_str(j, "why", op->why);
		json_end_object(j);
		return;
	}
	json_int(j, "per_batch", op->per_batch);
	json_int(j, "batches", op->nbatches);
	/* Each batch's value, in the order taken: the report's ratio
	 * intervals between models are computed from these. */
	bool instr = op->nbatches > 0 && op->instr[0] >= 0;
	json_begin_array(j, "ns_batches");
	for (int i = 0; i < op->nbatches; i++)
		json_double(j, NULL, op->ns[i]);
	json_end_array(j);
	if (instr) {
		json_begin_array(j, "instructions_batches");
		for (int i = 0; i < op->nbatches; i++)
			json_double(j, NULL, op->instr[i]);
		json_end_array(j);
	}
	write_summary(j, "ns", op->ns, op->nbatches);
	if (instr)
		write_summary(j, "instructions", op->instr, op->nbatches);
	else
		json_null(j, "instructions");
	if (fault) {
		json_double(j, "minflt_per_op", op->minflt_per_op);
		json_bool(j, "each_faulted", op->each_faulted);
	}
	json_end_object(j);
}

static long arg_long(const char *name, const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi) {
		fprintf(stderr, "costbench: %s %s: want an integer in %ld..%ld\n", name, s, lo, hi);
		exit(2);
	}
	return v;
}

static void write_q(struct json *j, const char *key, const struct costbench_procs_q *q)
{
	json_begin_object(j, key);
	json_double(j, "mean", q->mean);
	json_double(j, "p50", q->p50);
	json_double(j, "p90", q->p90);
	json_double(j, "p99", q->p99);
	json_double(j, "max", q->max);
	json_end_object(j);
}

/* --procs LIST: "64,256,1024" into n[]; the count, or -1. */
static int parse_procs(const char *s, int *n)
{
	int k = 0;
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (k == CB_PROCS_MAX)
			return -1;
		n[k++] = (int)arg_long("--procs", t, 1, 4096);
	}
	return k ? k : -1;
}

/* The many-process fault sweep as its own document (procs.c). */
static int procs_main(const int *n, int k, long pages, const char *out, int argc, char **argv)
{
	static struct costbench_procs r[CB_PROCS_MAX];
	int bad = 0;
	for (int i = 0; i < k; i++) {
		if (costbench_procs_run(n[i], pages, &r[i]) != 0) {
			fprintf(stderr, "costbench: --procs %d: %s\n", n[i], r[i].why);
			return 1;
		}
		fprintf(stderr, "costbench: %d processes x %ld faults: cpu p50 %.0f ns, wall p50 %.0f p99 %.0f ns\n",
			n[i], pages, r[i].cpu.p50, r[i].wall.p50, r[i].wall.p99);
		bad |= !r[i].each_faulted;
	}
	struct provenance prov;
	costbench_provenance(&prov, argc, argv, "4k");
	struct json j;
	FILE *f = costbench_doc_begin(&j, out, &prov);
	if (!f)
		return 1;
	json_str(&j, "mode", "procs");
	json_int(&j, "window_bytes", 65536);
	json_begin_array(&j, "procs");
	for (int i = 0; i < k; i++) {
		json_begin_object(&j, NULL);
		json_int(&j, "procs", r[i].procs);
		json_int(&j, "faults_per_proc", r[i].pages);
		json_int(&j, "faults", r[i].faults);
		json_bool(&j, "each_faulted", r[i].each_faulted);
		json_double(&j, "wall_s", r[i].wall_s);
		write_q(&j, "cpu_ns", &r[i].cpu);
		write_q(&j, "wall_ns", &r[i].wall);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
	if (out && fclose(f) != 0)
		return 1;
	if (bad)
		fprintf(stderr, "costbench: --procs: some process did not take exactly one fault per touch\n");
	return bad ? 3 : 0;
}

int main(int argc, char **argv)
{
	/* ~1 s of virtual time per model under icount (docs/evidence.md). */
	struct costbench_config cfg = { 21, 128, 2, 2000 };
	const char *out = NULL;
	int procs[CB_PROCS_MAX], nprocs = 0;
	long procs_pages = 64;
	int remote_trials = 0;
	struct costbench_wake_opts wo = { .competitor = WAKE_FIFO };
	bool trace_ipis = false, trace = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v) {
			fprintf(stderr, "costbench: %s needs a value\n", a);
			return 2;
		}
		if (!strcmp(a, "--batches"))
			cfg.batches = (int)arg_long(a, v, 1, CB_MAX_BATCHES);
		else if (!strcmp(a, "--fault-pages"))
			cfg.fault_pages = arg_long(a, v, 1, 65536);
		else if (!strcmp(a, "--hp-pages"))
			cfg.hp_pages = arg_long(a, v, 1, 512);
		else if (!strcmp(a, "--syscalls"))
			cfg.syscalls = arg_long(a, v, 1, 10000000);
		else if (!strcmp(a, "--json"))
			out = v;
		else if (!strcmp(a, "--unit-conf")) {
			/* The plan's values for the provenance (lab/common/unit_conf.h). */
			if (unit_conf_load(v) != 0) {
				fprintf(stderr, "costbench: --unit-conf %s: %s\n", v, strerror(errno));
				return 2;
			}
		} else if (!strcmp(a, "--procs")) {
			if ((nprocs = parse_procs(v, procs)) < 0) {
				fprintf(stderr, "costbench: --procs %s: a list of 1..%d process counts\n", v,
					CB_PROCS_MAX);
				return 2;
			}
		} else if (!strcmp(a, "--procs-pages"))
			procs_pages = arg_long(a, v, 1, 4096);
		else if (!strcmp(a, "--wake-in-fault"))
			wo.trials = (int)arg_long(a, v, 1, CB_WAKE_MAX);
		else if (!strcmp(a, "--competitor")) {
			if (strcmp(v, "fifo") && strcmp(v, "fair")) {
				fprintf(stderr, "costbench: --competitor %s: fifo or fair\n", v);
				return 2;
			}
			wo.competitor = !strcmp(v, "fair") ? WAKE_FAIR : WAKE_FIFO;
		} else if (!strcmp(a, "--contend-page")) {
			int c = 0;
			while (c < 3 && strcmp(v, contend_page_name[c]))
				c++;
			if (c == 3) {
				fprintf(stderr, "costbench: --contend-page %s: off, alloc or map\n", v);
				return 2;
			}
			wo.contend_page = (enum contend_page)c;
		} else if (!strcmp(a, "--trace")) {
			if (strcmp(v, "on") && strcmp(v, "off")) {
				fprintf(stderr, "costbench: --trace %s: on or off\n", v);
				return 2;
			}
			trace = !strcmp(v, "on");
		} else if (!strcmp(a, "--remote-wake"))
			remote_trials = (int)arg_long(a, v, 1, CB_REMOTE_MAX);
		else if (!strcmp(a, "--trace-ipis")) {
			if (strcmp(v, "on") && strcmp(v, "off")) {
				fprintf(stderr, "costbench: --trace-ipis %s: on or off\n", v);
				return 2;
			}
			trace_ipis = !strcmp(v, "on");
		}
		else {
			fprintf(stderr, "costbench: unknown option %s\n", a);
			return 2;
		}
		i++;
	}

	if ((wo.competitor == WAKE_FAIR || wo.contend_page || trace) && !wo.trials) {
		fprintf(stderr, "costbench: --competitor, --contend-page and --trace are "
			"--wake-in-fault's: add --wake-in-fault N\n");
		return 2;
	}
	/* The trace and its hold records beside the document, so that whoever
	 * keeps the document finds them: FILE.json's FILE.trace, FILE.holds. */
	char prefix[512];
	if (trace) {
		size_t n = out ? strlen(out) : 0;
		if (n > 5 && !strcmp(out + n - 5, ".json"))
			n -= 5;
		snprintf(prefix, sizeof(prefix), "%.*s", (int)n, out ? out : "");
		if (!prefix[0])
			snprintf(prefix, sizeof(prefix), "costbench-wake");
		wo.trace_dump = prefix;
	}
	if (nprocs)
		return procs_main(procs, nprocs, procs_pages, out, argc, argv);
	if (wo.trials) {
		/* Its slice-requested arm registers an rseq area of its own. */
		rseq_slice_reexec(argv, "costbench");
		return costbench_wake_main(&wo, out, argc, argv);
	}
	if (remote_trials)
		return costbench_remote_main(remote_trials, trace_ipis, out, argc, argv);
	struct provenance prov;
	costbench_provenance(&prov, argc, argv, "4k,2m");

	struct costbench_counter ctr;
	costbench_counter_open(&ctr);
	static struct costbench_op ops[7];
	costbench_fault_4k_alloc(&ops[0], &cfg, &ctr);
	costbench_fault_4k_map(&ops[1], &cfg, &ctr);
	costbench_fault_2m_alloc(&ops[2], &cfg, &ctr);
	costbench_fault_2m_map(&ops[3], &cfg, &ctr);
	costbench_getppid(&ops[4], &cfg, &ctr);
	costbench_sched_yield(&ops[5], &cfg, &ctr);
	costbench_pread_4k(&ops[6], &cfg, &ctr);

	struct json j;
	FILE *f = costbench_doc_begin(&j, out, &prov);
	if (!f)
		return 1;
	json_begin_object(&j, "instructions");
	json_str(&j, "source", source_name(ctr.source));
	if (ctr.source == CB_INSTR_ICOUNT)
		json_int(&j, "icount_shift", ctr.icount_shift);
	if (ctr.source != CB_INSTR_PERF)
		json_str(&j, "perf_unavailable", ctr.why);
	json_end_object(&j);
	json_begin_object(&j, "config");
	json_int(&j, "batches", cfg.batches);
	json_int(&j, "fault_pages", cfg.fault_pages);
	json_int(&j, "hp_pages", cfg.hp_pages);
	json_int(&j, "syscalls", cfg.syscalls);
	json_end_object(&j);
	json_begin_object(&j, "ops");
	for (int i = 0; i < 7; i++)
		write_op(&j, &ops[i], i < 4);
	json_end_object(&j);
	json_end_object(&j);
	json_finish(&j);
	int bad = 0;
	for (int i = 0; i < 4; i++)
		if (ops[i].available && !ops[i].each_faulted) {
			fprintf(stderr, "costbench: %s: %.3f faults per touch, not 1: its ns are not one fault's\n",
				ops[i].name, ops[i].minflt_per_op);
			bad = 1;
		}
	if (out && fclose(f) != 0) {
		fprintf(stderr, "costbench: %s: %s\n", out, strerror(errno));
		return 1;
	}
	return bad ? 3 : 0;
}
