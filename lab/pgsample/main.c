/*
 * pgsample: runs one pgbench measurement against a running PostgreSQL
 * server, samples pg_stat_activity every 10 ms while pgbench runs, and
 * writes the whole result document (docs/json.md, tool "pgbench").
 *
 * It starts pgbench itself so that the sampling window is exactly
 * pgbench's lifetime and so that no jq is needed: the same binary works in
 * a busybox guest.  `pgsample run-as USER PROG...` is the uid switch the
 * scripts use to run initdb and the server as a non-root user.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "interrupts.h"
#include "json.h"
#include "mitigation_rows.h"
#include "pgsample_buffill.h"
#include "pgsample_pages.h"
#include "pgsample_pgbench.h"
#include "pgsample_cluster.h"
#include "pgsample_hugepages.h"
#include "pgsample_runas.h"
#include "pgsample_sampler.h"
#include "pgsample_tally.h"
#include "provenance.h"
#include "unit_conf.h"
#include "size.h"

static const char *pg_mitigation_usage(void);

struct opts {
	const char *host, *port, *user, *dbname;
	const char *pgbench, *builtin, *protocol, *huge_pages, *pgdata, *out_dir;
	const char *pg_package;	/* where the server came from (pg-run.sh) */
	const char *pg_patch;	/* the lab's patch of a source build, or NULL */
	const char *mitigation;	/* MITIGATIONS' cell this run is, or NULL */
	long clients, threads, duration, rep;
	bool warm;		/* a warm-up run: named -warm, which the report leaves out */
	double interval_ms;
	double buffercache_ms;	/* 0: do not follow the fill */
};

struct run {
	struct opts o;
	struct provenance prov;
	struct wait_tally tally;
	struct pgbench_result pgb;
	struct buffill fill;
	char name[512];
	char progress_log[4096], output_log[4096];
	char shared_buffers[32];
	/* Non-default settings a PostgreSQL bug report must name. */
	char sync_commit[16], max_conn[16], dsm_type[16];
	long shared_buffers_kb;
	double sampling_s, max_gap_ms, query_us_sum;
	/* The machine's interrupts over pgbench's life: how its wakeups
	 * reached busy CPUs (a rescheduling IPI, none under lazy). */
	struct irq_counts irqs;
	int pgbench_status;
	int complete;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	stop_requested = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pgsample --host SOCKDIR --port N --pgbench PATH --builtin select-only|simple-update\n"
		"                --clients N --threads N --duration S --huge-pages off|on|try\n"
		"                --pgdata DIR --out-dir RUNDIR [--rep N] [--user U] [--dbname D]\n"
		"                [--protocol prepared|extended|simple] [--interval-ms MS]\n"
		"                [--buffercache-ms MS]   follow the fill of shared_buffers\n"
		"                [--pg-package TEXT]     the server's Debian package, for provenance\n"
		"                [--unit-conf FILE]      the unit's plan file (label, accelerator, icount)\n"
		"                [--pg-patch NAME]       the lab's patch the server was built with\n"
		"                [--mitigation NAME]     the MITIGATIONS cell (none prefault\n"
		"                                        touch-before-lock hugepages pg19)\n"
		"                [--warm]                a warm-up run (PG_WARMUP): its document\n"
		"                                        ends -warm.json and is not compared\n"
		"       pgsample run-as USER PROGRAM [ARGS...]\n");
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int bad(const char *msg, const char *val)
{
	fprintf(stderr, "pgsample: %s%s%s\n", msg, val ? ": " : "", val ? val : "");
	return 2;
}

static long parse_long(const char *s, long min, int *ok)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < min)
		*ok = 0;
	return v;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "host", 1, 0, 'h' }, { "port", 1, 0, 'p' }, { "user", 1, 0, 'U' },
		{ "dbname", 1, 0, 'd' }, { "pgbench", 1, 0, 'B' }, { "builtin", 1, 0, 'b' },
		{ "protocol", 1, 0, 'M' }, { "huge-pages", 1, 0, 'H' }, { "pgdata", 1, 0, 'D' },
		{ "out-dir", 1, 0, 'o' }, { "clients", 1, 0, 'c' }, { "threads", 1, 0, 'j' },
		{ "duration", 1, 0, 'T' }, { "rep", 1, 0, 'r' }, { "interval-ms", 1, 0, 'i' },
		{ "buffercache-ms", 1, 0, 'F' }, { "pg-package", 1, 0, 'P' },
		{ "unit-conf", 1, 0, 'u' },
		{ "pg-patch", 1, 0, 'Q' }, { "mitigation", 1, 0, 'm' }, { "warm", 0, 0, 'W' },
		{ "help", 0, 0, '?' }, { 0, 0, 0, 0 }
	};
	int c, ok = 1;

	*o = (struct opts){ .port = "5432", .user = "postgres", .dbname = "postgres",
			    .protocol = "prepared", .rep = 1, .interval_ms = 10,
			    .clients = -1, .threads = -1, .duration = -1 };
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'h': o->host = optarg; break;
		case 'p': o->port = optarg; break;
		case 'U': o->user = optarg; break;
		case 'd': o->dbname = optarg; break;
		case 'B': o->pgbench = optarg; break;
		case 'b': o->builtin = optarg; break;
		case 'M': o->protocol = optarg; break;
		case 'H': o->huge_pages = optarg; break;
		case 'D': o->pgdata = optarg; break;
		case 'o': o->out_dir = optarg; break;
		case 'c': o->clients = parse_long(optarg, 1, &ok); break;
		case 'j': o->threads = parse_long(optarg, 1, &ok); break;
		case 'T': o->duration = parse_long(optarg, 1, &ok); break;
		case 'r': o->rep = parse_long(optarg, 0, &ok); break;
		case 'W': o->warm = true; break;
		case 'i': o->interval_ms = atof(optarg); break;
		case 'F': o->buffercache_ms = parse_long(optarg, 0, &ok); break;
		case 'P': o->pg_package = optarg; break;
		case 'u':
			/* The plan's values for the provenance (lab/common/unit_conf.h). */
			if (unit_conf_load(optarg) != 0)
				return bad("cannot read the unit's plan file", optarg);
			break;
		case 'Q': o->pg_patch = optarg; break;
		case 'm': o->mitigation = optarg; break;
		case '?':
			usage(stderr);
			return 2;
		default:
			usage(stderr);
			return 2;
		}
		if (!ok)
			return bad("not a positive number", optarg);
	}
	if (optind != argc)
		return bad("unexpected argument", argv[optind]);
	if (!o->host || !o->pgbench || !o->builtin || !o->huge_pages || !o->pgdata ||
	    !o->out_dir || o->clients < 0 || o->threads < 0 || o->duration < 0) {
		usage(stderr);
		return bad("missing option (need --host --pgbench --builtin --clients --threads "
			   "--duration --huge-pages --pgdata --out-dir)", NULL);
	}
	if (strcmp(o->builtin, "select-only") && strcmp(o->builtin, "simple-update") &&
	    strcmp(o->builtin, "tpcb-like"))
		return bad("--builtin must be select-only, simple-update or tpcb-like", o->builtin);
	if (strcmp(o->huge_pages, "off") && strcmp(o->huge_pages, "on") && strcmp(o->huge_pages, "try"))
		return bad("--huge-pages must be off, on or try", o->huge_pages);
	if (strcmp(o->protocol, "prepared") && strcmp(o->protocol, "extended") &&
	    strcmp(o->protocol, "simple"))
		return bad("--protocol must be prepared, extended or simple", o->protocol);
	/* Repetition 0 is the warm-up's alone (pg_runs.c): a measured run is 1 or more. */
	if (o->rep == 0 && !o->warm)
		return bad("--rep must be a positive number (0 only with --warm)", NULL);
	if (o->interval_ms < 0.1 || o->interval_ms > 10000)
		return bad("--interval-ms must be between 0.1 and 10000", NULL);
	if (o->buffercache_ms != 0 && (o->buffercache_ms < 100 || o->buffercache_ms > 60000))
		return bad("--buffercache-ms must be 0 (off) or between 100 and 60000", NULL);
	if (o->mitigation && !mitigation_in_pg(o->mitigation))
		return bad(pg_mitigation_usage(), o->mitigation);
	if (o->pg_patch && (!*o->pg_patch || strlen(o->pg_patch) > 31 || strchr(o->pg_patch, '/')))
		return bad("--pg-patch must be a patch name (pg/patches/MAJOR/NAME.patch)", o->pg_patch);
	if (o->threads > o->clients)
		return bad("--threads must not exceed --clients (pgbench refuses it)", NULL);
	return 0;
}

/* "16MB", "128kB", "1GB" (SHOW's units) to KiB; -1 when unknown (SHOW
 * always names a unit for a memory setting: a bare number is not one). */
static long pg_size_kb(const char *s)
{
	uint64_t bytes;
	size_t n = strlen(s);
	if (!n || s[n - 1] != 'B' || size_parse(s, &bytes) != SIZE_OK)
		return -1;
	return (long)(bytes / 1024);
}

static void make_name(struct run *r)
{
	char kernel[64];
	snprintf(kernel, sizeof(kernel), "%s", r->prov.kernel_label);
	for (char *c = kernel; *c; c++)
		if (*c == '/' || *c == ' ' || *c == '-')
			*c = '_';
	/* Dashes separate fields, so labels like "7.0-rc1" become "7.0_rc1". */
	/* A mitigation's runs beside none's: the cell's name says which. */
	char mit[48] = "";
	if (r->o.mitigation)
		snprintf(mit, sizeof(mit), "-mit_%s", r->o.mitigation);
	snprintf(r->name, sizeof(r->name), "pgbench-%s-%s-hp%s-s_lock-%s%s-c%ld-r%ld%s", kernel,
		 r->prov.preempt_model, r->o.huge_pages, r->o.builtin, mit, r->o.clients, r->o.rep,
		 r->o.warm ? "-warm" : "");
	snprintf(r->progress_log, sizeof(r->progress_log), "%s/logs/%s.progress.log", r->o.out_dir,
		 r->name);
	snprintf(r->output_log, sizeof(r->output_log), "%s/logs/%s.out.log", r->o.out_dir, r->name);
}

static pid_t start_pgbench(struct run *r)
{
	const struct opts *o = &r->o;
	char c[24], j[24], t[24];
	pid_t pid;

	snprintf(c, sizeof(c), "%ld", o->clients);
	snprintf(j, sizeof(j), "%ld", o->threads);
	snprintf(t, sizeof(t), "%ld", o->duration);
	pid = fork();
	if (pid != 0)
		return pid;
	int out = open(r->output_log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int err = open(r->progress_log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) {
		fprintf(stderr, "pgsample: cannot open %s/logs: %s\n", o->out_dir, strerror(errno));
		_exit(126);
	}
	execl(o->pgbench, o->pgbench, "-h", o->host, "-p", o->port, "-U", o->user,
	      "-M", o->protocol, "-b", o->builtin, "-c", c, "-j", j, "-T", t, "-P", "1",
	      o->dbname, (char *)NULL);
	fprintf(stderr, "pgsample: cannot run %s: %s\n", o->pgbench, strerror(errno));
	_exit(127);
}

/*
 * Sample on an absolute 10 ms grid until pgbench exits.  A late sample
 * does not shift the grid, so the count stays one per interval unless the
 * sampler falls far behind, which max_gap_ms then shows.
 */
static int sample_loop(struct run *r, struct sampler *s, pid_t child)
{
	long long step = (long long)(r->o.interval_ms * 1e6);
	struct timespec next;
	double t0 = now_s(), last = -1;
	char err[512];

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		int status;
		pid_t w = waitpid(child, &status, WNOHANG);
		if (w == child) {
			r->pgbench_status = status;
			break;
		}
		if (stop_requested) {
			kill(child, SIGINT);
			waitpid(child, &r->pgbench_status, 0);
			break;
		}
		double t = now_s();
		if (last >= 0 && (t - last) * 1e3 > r->max_gap_ms)
			r->max_gap_ms = (t - last) * 1e3;
		last = t;
		if (sampler_sample(s, &r->tally, err, sizeof(err)) != 0) {
			fprintf(stderr, "pgsample: %s\n", err);
			kill(child, SIGINT);
			waitpid(child, &r->pgbench_status, 0);
			r->sampling_s = now_s() - t0;
			return -1;
		}
		r->query_us_sum += (now_s() - t) * 1e6;
		buffill_poll(&r->fill, now_s() - t0);
		next.tv_nsec += step % 1000000000LL;
		next.tv_sec += step / 1000000000LL + next.tv_nsec / 1000000000L;
		next.tv_nsec %= 1000000000L;
		/* More than 100 intervals behind: restart the grid instead of bursting. */
		double behind = now_s() - ((double)next.tv_sec + next.tv_nsec / 1e9);
		if (behind > 100 * r->o.interval_ms / 1e3)
			clock_gettime(CLOCK_MONOTONIC, &next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR &&
		       !stop_requested)
			;
	}
	r->sampling_s = now_s() - t0;
	return 0;
}

/*
 * results.phase.fill: pgbench's throughput while shared_buffers filled,
 * the regime the strategy lock's freelist pops live in, as bufbench's
 * documents have it (the report's fill tps reads the same path).  The mean
 * of pgbench's per-second progress tps over the seconds before
 * pg_buffercache first saw every buffer in use; the whole run when it
 * never did ("filled": false).  Nothing without pg_buffercache: then the
 * boundary is unknown.
 */
static void fill_phase_write(struct json *j, const struct run *r)
{
	const struct pgbench_result *p = &r->pgb;
	if (r->o.buffercache_ms <= 0 || !p->nprogress)
		return;
	bool filled = r->fill.fill_s >= 0;
	size_t n = p->nprogress;
	if (filled) {
		size_t k = (size_t)ceil(r->fill.fill_s);
		n = k < 1 ? 1 : k < n ? k : n;
	}
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += p->progress_tps[i];
	json_begin_object(j, "phase");
	json_begin_object(j, "fill");
	json_double(j, "tps", sum / (double)n);
	json_uint(j, "seconds", n);
	json_bool(j, "filled", filled);
	json_end_object(j);
	json_end_object(j);
}

static void write_doc(struct json *j, const struct run *r)
{
	const struct pgbench_result *p = &r->pgb;
	const struct wait_tally *t = &r->tally;

	json_begin_object(j, NULL);
	json_str(j, "tool", "pgbench");
	json_str(j, "schema", "preemptlab.pgbench/1");
	json_bool(j, "complete", r->complete);
	json_begin_object(j, "config");
	json_int(j, "clients", r->o.clients);
	json_int(j, "threads", r->o.threads);
	json_int(j, "duration_s", r->o.duration);
	json_int(j, "scale", p->scale);
	json_str(j, "builtin", r->o.builtin);
	json_str(j, "protocol", r->o.protocol);
	json_str(j, "shared_buffers", r->shared_buffers);
	json_int(j, "shared_buffers_kb", r->shared_buffers_kb);
	json_str(j, "huge_pages", r->o.huge_pages);
	json_int(j, "repetition", r->o.rep);
	if (r->o.warm)
		json_bool(j, "warmup", true);
	if (r->o.mitigation)
		json_str(j, "mitigation", r->o.mitigation);
	json_str(j, "pg_patch", r->o.pg_patch ? r->o.pg_patch : "none");
	json_begin_object(j, "settings");
	json_str(j, "synchronous_commit", r->sync_commit);
	json_str(j, "max_connections", r->max_conn);
	json_str(j, "dynamic_shared_memory_type", r->dsm_type);
	json_end_object(j);
	json_end_object(j);
	prov_write(j, &r->prov);
	json_begin_object(j, "results");
	json_double(j, "tps", p->tps);
	json_int(j, "transactions", p->transactions);
	json_int(j, "failed", p->failed);
	json_double(j, "latency_ms_avg", p->latency_ms_avg);
	json_double(j, "latency_ms_stddev", p->latency_ms_stddev);
	json_double(j, "initial_connection_ms", p->initial_connection_ms);
	json_begin_array(j, "progress_tps");
	for (size_t i = 0; i < p->nprogress; i++)
		json_double(j, NULL, p->progress_tps[i]);
	json_end_array(j);
	/* Relative to the run directory: guest paths mean nothing on the host. */
	json_str(j, "progress_log", r->progress_log + strlen(r->o.out_dir) + 1);
	if (r->o.buffercache_ms > 0)
		buffill_write(j, &r->fill);
	fill_phase_write(j, r);
	if (r->irqs.known) {
		json_begin_object(j, "interrupts");
		json_int(j, "resched", r->irqs.resched);
		json_int(j, "call_function", r->irqs.call_function);
		if (r->irqs.local_timer >= 0)
			json_int(j, "local_timer", r->irqs.local_timer);
		json_end_object(j);
	}
	json_end_object(j);
	json_begin_object(j, "sampler");
	json_double(j, "interval_ms", r->o.interval_ms);
	json_uint(j, "samples", t->samples);
	json_double(j, "sampling_s", r->sampling_s);
	json_double(j, "interval_ms_achieved",
		    t->samples ? r->sampling_s * 1e3 / (double)t->samples : 0);
	json_double(j, "max_gap_ms", r->max_gap_ms);
	json_double(j, "query_us_mean", t->samples ? r->query_us_sum / (double)t->samples : 0);
	json_double(j, "active_backends_mean",
		    t->samples ? (double)t->active_sum / (double)t->samples : 0);
	json_uint(j, "active_backend_samples", t->active_sum);
	json_uint(j, "on_cpu_samples", t->on_cpu);
	json_uint(j, "spindelay_samples", t->spindelay);
	tally_write_events(j, t);
	json_end_object(j);
	json_end_object(j);
	json_finish(j);
}

/* Write to a temporary name first so a reader never sees half a document. */
static int save_doc(const struct run *r, const char *path)
{
	char tmp[4200];
	FILE *f;
	struct json j;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "pgsample: cannot write %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	json_init(&j, f);
	write_doc(&j, r);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		fprintf(stderr, "pgsample: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void read_pgbench_logs(struct run *r)
{
	FILE *f = fopen(r->output_log, "r");
	pgbench_parse_file(&r->pgb, f);
	if (f)
		fclose(f);
	f = fopen(r->progress_log, "r");
	pgbench_parse_file(&r->pgb, f);
	if (f)
		fclose(f);
}

/* The last lines pgbench wrote, so a failure explains itself. */
static void show_tail(const char *path)
{
	char line[512];
	char keep[8][512];
	int n = 0;
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "progress:", 9) != 0)
			snprintf(keep[n++ % 8], sizeof(keep[0]), "%s", line);
	if (f)
		fclose(f);
	for (int i = n > 8 ? n - 8 : 0; i < n; i++)
		fprintf(stderr, "  %s", keep[i % 8]);
}

static int measure(struct run *r, int argc, char **argv)
{
	char conninfo[1024], err[512], path[4200], source[96];
	struct sigaction sa = { .sa_handler = on_signal };
	struct sampler *s;
	pid_t child, pm;
	int rc = 0;

	prov_collect(&r->prov, argc, argv);
	snprintf(r->prov.page_policy, sizeof(r->prov.page_policy), "huge_pages=%s", r->o.huge_pages);
	snprintf(r->prov.lock, sizeof(r->prov.lock), "s_lock");
	snprintf(r->prov.strategy, sizeof(r->prov.strategy), "postgresql");
	make_name(r);

	snprintf(conninfo, sizeof(conninfo),
		 "host='%s' port='%s' user='%s' dbname='%s' application_name='preemptlab-pgsample'",
		 r->o.host, r->o.port, r->o.user, r->o.dbname);
	s = sampler_open(conninfo, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "pgsample: %s\n", err);
		return 1;
	}
	snprintf(r->prov.postgresql, sizeof(r->prov.postgresql), "%s", sampler_server_version(s));
	if (r->o.pg_package)
		snprintf(r->prov.postgresql_package, sizeof(r->prov.postgresql_package), "%s",
			 r->o.pg_package);
	if (r->o.pg_patch)
		snprintf(r->prov.postgresql_patch, sizeof(r->prov.postgresql_patch), "%s", r->o.pg_patch);
	if (sampler_show(s, "shared_buffers", r->shared_buffers, sizeof(r->shared_buffers)) == 0)
		r->shared_buffers_kb = pg_size_kb(r->shared_buffers);
	sampler_show(s, "synchronous_commit", r->sync_commit, sizeof(r->sync_commit));
	sampler_show(s, "max_connections", r->max_conn, sizeof(r->max_conn));
	sampler_show(s, "dynamic_shared_memory_type", r->dsm_type, sizeof(r->dsm_type));

	r->fill.fill_s = -1;
	if (r->o.buffercache_ms > 0 &&
	    buffill_open(&r->fill, conninfo, r->o.buffercache_ms / 1e3, err, sizeof(err)) != 0) {
		fprintf(stderr, "pgsample: --buffercache-ms: %s\n", err);
		sampler_close(s);
		return 1;
	}

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct irq_counts irq_before = irq_counts_read(-1);
	child = start_pgbench(r);
	if (child < 0) {
		fprintf(stderr, "pgsample: fork: %s\n", strerror(errno));
		sampler_close(s);
		return 1;
	}
	if (sample_loop(r, s, child) != 0)
		rc = 1;
	r->irqs = irq_counts_delta(irq_before, irq_counts_read(-1));
	sampler_close(s);
	buffill_close(&r->fill);

	/* The server is still up: read the segment's page size now. */
	pm = pages_postmaster_pid(r->o.pgdata);
	r->prov.page_size_kb = pages_detect(pm, source, sizeof(source));
	snprintf(r->prov.page_size_source, sizeof(r->prov.page_size_source), "%s", source);

	read_pgbench_logs(r);
	r->complete = !stop_requested && rc == 0 && WIFEXITED(r->pgbench_status) &&
		      WEXITSTATUS(r->pgbench_status) == 0 && r->pgb.have_tps;
	if (r->complete) {
		snprintf(path, sizeof(path), "%s/runs/%s.json", r->o.out_dir, r->name);
		if (save_doc(r, path) != 0)
			return 1;
		/*
		 * The caller's summary comes from here, not from the document:
		 * the runner ships documents away as soon as they appear.
		 */
		printf("%s\t%.1f\t%llu\t%ld\n", path, r->pgb.tps,
		       (unsigned long long)r->tally.spindelay, r->prov.page_size_kb);
		return 0;
	}
	/* Keep what was measured, out of runs/ so no report mistakes it for a result. */
	snprintf(path, sizeof(path), "%s/logs/%s.incomplete.json", r->o.out_dir, r->name);
	save_doc(r, path);
	if (stop_requested) {
		fprintf(stderr, "pgsample: interrupted; partial result in %s\n", path);
		return 128 + (int)stop_requested;
	}
	fprintf(stderr, "pgsample: pgbench failed (%s %d); its output:\n",
		WIFEXITED(r->pgbench_status) ? "exit" : "signal",
		WIFEXITED(r->pgbench_status) ? WEXITSTATUS(r->pgbench_status)
					      : WTERMSIG(r->pgbench_status));
	show_tail(r->output_log);
	show_tail(r->progress_log);
	return 1;
}

/* "--mitigation must be one of ...": the names whose row PostgreSQL has. */
static const char *pg_mitigation_usage(void)
{
	static char msg[512];
	char names[256];
	mitigation_pg_names(names, sizeof(names));
	snprintf(msg, sizeof(msg), "--mitigation must be one of %s (the others are bufbench's: "
		 "PostgreSQL has no such thing)", names);
	return msg;
}

int main(int argc, char **argv)
{
	static struct run r;
	int rc;

	if (argc > 1 && strcmp(argv[1], "run-as") == 0)
		return runas_main(argc, argv);
	if (argc > 1 && strcmp(argv[1], "huge-pages") == 0)
		return hugepages_main(argc, argv);
	if (argc > 1 && strcmp(argv[1], "cluster-options") == 0)
		return cluster_main(argc, argv);
	/* pgsample mitigation NAME: whether a PostgreSQL run may carry NAME
	 * (scripts/pg-run.sh asks before it touches the machine). */
	if (argc == 3 && strcmp(argv[1], "mitigation") == 0) {
		if (mitigation_in_pg(argv[2]))
			return 0;
		fprintf(stderr, "pgsample: %s (got '%s')\n", pg_mitigation_usage(), argv[2]);
		return 2;
	}
	rc = parse_opts(argc, argv, &r.o);
	if (rc != 0)
		return rc;
	tally_init(&r.tally);
	pgbench_result_init(&r.pgb);
	rc = measure(&r, argc, argv);
	pgbench_result_free(&r.pgb);
	return rc;
}
