/*
 * The cell runner (runner.h): carries out one unit of a plan, in a guest
 * (started by guest/init) or on the host (started by
 * scripts/run-plan.sh).
 *
 * Usage: runner CONF CELLS CHANNEL WORKDIR
 *   (a guest runs it as runner /plan/unit.conf /plan/cells /dev/ttyS1 /tmp)
 * CONF: "key TAB value" lines: kind (host|guest), label, duration,
 *   hugepages_2m, hugepages_64k, profile, profile_freq, profile_callgraph, pg_shared_buffers,
 *   pg_scale, pg_duration, pg_fillfactor, pg_cold, pg_buffercache_ms,
 *   pg_run (a pgbench cell's runs), repro_min, costbench_run, pg_version,
 *   bufbench, top,
 *   virt, perf_dir, repro_min_bin, costbench_bin, icount_shift,
 *   icount_epoch, static_model, kernel_config (where a guest finds its
 *   kernel's config, read by the programs): all the planner's (lab/plan/write.c);
 *   pg_root and pg_package, what scripts/run-plan.sh fetched for PG_VERSION;
 *   pg_root.VERSION.BUILD and pg_package.VERSION.BUILD, each MITIGATIONS
 *   cell's server (scripts/pg-roots.sh).
 *   Every program started here records its provenance (kernel label,
 *   accelerator, icount shift and epoch, a one-model kernel's model) from
 *   this same file, given as --unit-conf: nothing reaches it through the
 *   environment.
 * CELLS: TAB-separated lines from the planner (lab/plan/write.c):
 *   bufbench ID MODEL PAGES OPTIONAL PROFILE ARGV
 *                                     ARGV: bufbench's options; PROFILE
 *                                     on|off: perf record around this cell
 *   pgbench ID HUGE_PAGES MODELS CLIENTS REPEAT  one cluster, comma lists
 *           [MITIGATION VERSION BUILD]  under MITIGATIONS: whose server
 * Channel lines, all starting with "@@PL ":
 *   READY <release> <models line>     once started
 *   START <id>                        a cell begins
 *   JSON <id> <bytes> <sha256>        then base64 lines, then END <id>
 *   LOG <name> <bytes> <sha256>       a log file for the host's logs/, the
 *                                     same way (pgbench progress, server)
 *   PROFILE on <event> <hz> | PROFILE off <reason>
 *                                     whether bufbench cells are profiled
 *   PERF <id> <bytes> <sha256>        a cell's `perf script` text, gzipped,
 *                                     the same way, after its JSON
 *   PASS <id> <documents>             a pgbench cell ended well (its
 *                                     documents were sent as JSON blocks)
 *   FAIL <id> <reason>                the cell produced no (full) result
 *   DONE                              every cell was tried
 */
#include "runner.h"
#include "conf.h"
#include "text.h"

#include <glob.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

struct runner R;

void log_line(const char *fmt, ...)
{
	va_list ap;
	fputs("runner: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* INT, TERM and HUP restore the model and knobs, then end the runner
 * with 128 + the signal; acted on once the program it waits for has
 * ended, as the shell runner's traps were. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

void signal_check(void)
{
	if (got_signal)
		exit(128 + got_signal); /* atexit: restore_model */
}

static void restore_at_exit(void)
{
	restore_model();
}

/* No cell can run here. */
static void fail_all(const char *why)
{
	log_line("%s", why);
	FILE *f = fopen(R.cells, "r");
	char line[8192];
	while (f && fgets(line, sizeof(line), f)) {
		char *w[3];
		text_read_fields(line, "\t\n", w, 3);
		say("FAIL %s %s", w[1], why);
	}
	if (f)
		fclose(f);
	say("DONE");
	exit(0);
}

/* Whatever else the kernel still runs after boot takes CPU from the
 * first cells (the crypto self-tests did, before the command line turned
 * them off): name it, so a slow first run has its reason in the console
 * log. */
static void log_busy(void)
{
	glob_t g;
	char busy[4096] = "";
	size_t used = 0;
	if (glob("/proc/[0-9]*/stat", 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char stat[1024], *w[4];
		if (file_get(g.gl_pathv[i], stat, sizeof(stat)))
			continue;
		if (text_read_fields(stat, " \t\n", w, 4) < 3)
			continue;
		if (strcmp(w[2], "R") && strcmp(w[2], "D"))
			continue;
		/* The runner's own work, not the kernel's. */
		if (strstr(w[1], "(sh)") || strstr(w[1], "(awk)") || strstr(w[1], "(cat)") ||
		    strstr(w[1], "(runner"))
			continue;
		strf(busy + used, sizeof(busy) - used, "%s ", w[1]);
		used = strlen(busy);
	}
	globfree(&g);
	if (busy[0])
		log_line("running beside the cells at their start: %s", busy);
}

static int ncpus(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return CPU_COUNT(&set);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: %s CONF CELLS CHANNEL WORKDIR\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	R.conf_path = argv[1];
	R.cells = argv[2];
	R.work = argv[4];
	conf_load(R.conf_path);
	R.kind = conf("kind");
	R.guest = !strcmp(R.kind, "guest");
	R.label = conf("label");
	R.top = conf("top");
	R.bench = conf("bufbench");
	R.static_model = conf("static_model");
	if (chan_open(argv[3])) {
		perror(argv[3]);
		return 2;
	}
	restore_init();
	atexit(restore_at_exit);
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	profile_probe();
	struct utsname u;
	char line[512], why[2048], mem[128] = "", hp1g[64];
	uname(&u);
	model_line(line, sizeof(line));
	say("READY %s %s", u.release, line);
	if (strcmp(R.prof, "off"))
		say("PROFILE on %s %s", PERF_EVENT, conf("profile_freq"));
	else if (!strcmp(conf("profile"), "on")) {
		say("PROFILE off %s", R.prof_why);
		log_line("PROFILE=on, but %s", R.prof_why);
	}
	FILE *mi = fopen("/proc/meminfo", "r");
	char ml[256];
	while (mi && fgets(ml, sizeof(ml), mi))
		if (!strncmp(ml, "MemTotal:", 9)) {
			strf(mem, sizeof(mem), "%s", ml + 9 + strspn(ml + 9, " "));
			text_chomp(mem);
		}
	if (mi)
		fclose(mi);
	log_line("%s %s: kernel %s, models: %s, %d CPUs, %s", R.kind, R.label, u.release, line, ncpus(), mem);
	if (R.guest) {
		if (file_get("/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages", hp1g, sizeof(hp1g)))
			strf(hp1g, sizeof(hp1g), "none");
		log_line("1 GB pages reserved: %s", hp1g);
	}
	if (models_usable(why, sizeof(why)))
		fail_all(why);
	log_busy();
	if (set_knobs(why, sizeof(why)))
		fail_all(why);

	FILE *cells = fopen(R.cells, "r");
	char *cell = NULL;
	size_t cap = 0;
	while (cells && getline(&cell, &cap, cells) >= 0) {
		/* tool id f3 f4 _ f6 f7: f7 the rest (ARGV, or the servers). */
		char *f[7];
		text_read_fields(cell, "\t\n", f, 7);
		if (!f[1][0])
			continue;
		say("START %s", f[1]);
		log_line("cell %s", f[1]);
		if (!strcmp(f[0], "pgbench"))
			run_pg(f[1], f[2], f[6]);
		else if (!strcmp(f[0], "bufbench"))
			run_bufbench(f[1], f[2], f[3], f[6], f[5]);
		else
			say("FAIL %s unknown tool '%s' in the plan", f[1], f[0]);
		signal_check();
	}
	free(cell);
	if (cells)
		fclose(cells);
	run_costbench();
	run_repro_min();
	set_hugepages("4k");
	restore_model();
	say("DONE");
	return 0;
}
