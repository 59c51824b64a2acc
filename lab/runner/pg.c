/*
 * A pgbench cell: a private cluster through scripts/pg-run.sh, whose
 * documents and logs go out as they appear.
 */
#include "runner.h"
#include "conf.h"
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The documents and logs of a pgbench cell, in PG_DIR. */
static char pg_dir[4096];
static int pg_sent;

/* Every finished pgbench document, at once and only once, with the
 * progress (-P 1) and output logs its progress_log field names.
 * pgsample writes NAME.json.tmp and renames it, so *.json is always whole. */
static void send_pg_docs(void)
{
	char pat[4096];
	glob_t g;
	strf(pat, sizeof(pat), "%s/runs/*.json", pg_dir);
	if (glob(pat, 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *f = g.gl_pathv[i];
		if (!file_regular(f))
			continue;
		char name[1024], l[4096];
		const char *b = strrchr(f, '/') + 1;
		strf(name, sizeof(name), "%.*s", (int)(strlen(b) - 5), b);
		send_block("JSON", name, f);
		unlink(f);
		pg_sent++;
		static const char *const kinds[] = { "progress", "out" };
		for (int k = 0; k < 2; k++) {
			strf(l, sizeof(l), "%s/logs/%s.%s.log", pg_dir, name, kinds[k]);
			if (file_regular(l)) {
				send_block("LOG", strrchr(l, '/') + 1, l);
				unlink(l);
			}
		}
	}
	globfree(&g);
}

/* The cell's other logs (initdb, server, pgbench -i, settings, incomplete
 * runs); names without the kernel get the cell's id in front, since
 * every kernel's cluster writes initdb-hpoff.log. */
static void send_pg_logs(const char *id)
{
	char pat[4096];
	glob_t g;
	strf(pat, sizeof(pat), "%s/logs/*", pg_dir);
	if (glob(pat, 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *l = g.gl_pathv[i], *b = strrchr(l, '/') + 1;
		char name[2048];
		if (!file_regular(l))
			continue;
		if (!fnmatch("pgbench-*-*-hp*", b, 0))
			strf(name, sizeof(name), "%s", b);
		else
			strf(name, sizeof(name), "%s-%s", id, b);
		send_block("LOG", name, l);
	}
	globfree(&g);
}

/* pg-run.sh's output, to the console and to WORK/pg.out, until it ends;
 * the documents polled every second so each reaches the host as soon as
 * it is written, not when the cell ends.  Its status. */
static int pg_follow(char *const argv[], const char *copy)
{
	int p[2];
	fflush(stdout);
	if (pipe(p))
		return 127;
	pid_t pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		if (in >= 0)
			dup2(in, 0);
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	FILE *out = fopen(copy, "w");
	time_t last = 0;
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		if (time(NULL) != last) {
			send_pg_docs();
			last = time(NULL);
		}
		int r = poll(&pf, 1, 1000);
		/* A signal ends the runner here, as the shell runner's trap did
		 * after its one-second sleep: pg-run.sh, in the same process
		 * group, has it too. */
		if (r < 0 && errno == EINTR) {
			signal_check();
			continue;
		}
		if (r > 0) {
			char buf[4096];
			ssize_t n = read(p[0], buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			fwrite(buf, 1, (size_t)n, stdout);
			fflush(stdout);
			if (out) {
				fwrite(buf, 1, (size_t)n, out);
				fflush(out);
			}
		}
	}
	close(p[0]);
	if (out)
		fclose(out);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return text_shell_status(st);
}

/* One private cluster (scripts/pg-run.sh) carrying out the runs the plan
 * lists for the cell (its pg_run lines).  SERVERS: "MITIGATION TAB
 * VERSION TAB BUILD" under MITIGATIONS, else "". */
void run_pg(const char *id, const char *huge_pages, const char *servers)
{
	char script[4096], runs[4096], out[4096], rcfile[4096];
	strf(script, sizeof(script), "%s/scripts/pg-run.sh", R.top);
	if (!R.top[0] || !file_regular(script)) {
		say("FAIL %s no PostgreSQL here (scripts/pg-guest-files.sh missing when the initramfs was built?)", id);
		return;
	}
	set_hugepages("4k"); /* bufbench's 2 MB pages back; pg-run.sh reserves its own */
	strf(pg_dir, sizeof(pg_dir), "%s/pg", R.work);
	strf(rcfile, sizeof(rcfile), "%s/pg.rc", R.work);
	remove_tree(pg_dir);
	unlink(rcfile);
	mkdir(pg_dir, 0777);
	pg_sent = 0;
	char pgv[256], pgroot[4096], mit[256] = "", build[256];
	strf(pgv, sizeof(pgv), "%s", conf("pg_version"));
	strf(pgroot, sizeof(pgroot), "%s", conf("pg_root"));
	/* MITIGATIONS: the cell's own server, which the host fetched or built
	 * (scripts/pg-roots.sh) and named in the conf; empty for system's own. */
	if (servers[0]) {
		char key[600];
		text_cut_field(servers, 1, mit, sizeof(mit));
		text_cut_field(servers, 2, pgv, sizeof(pgv));
		text_cut_field(servers, 3, build, sizeof(build));
		strf(key, sizeof(key), "pg_root.%s.%s", pgv, build);
		strf(pgroot, sizeof(pgroot), "%s", conf(key));
		if (!pgroot[0] && strcmp(key, "pg_root.system.debian")) {
			say("FAIL %s no PostgreSQL %s (%s) in this unit's conf: scripts/run-plan.sh did not provide it", id, pgv, build);
			return;
		}
	}
	strf(runs, sizeof(runs), "%s/pg.runs", R.work);
	FILE *rf = fopen(runs, "w");
	const char *v;
	size_t il = strlen(id);
	for (int i = 0; rf && (v = conf_all("pg_run", i)); i++)
		if (!strncmp(v, id, il) && v[il] == ' ')
			fprintf(rf, "%s\n", v + il + 1);
	if (rf)
		fclose(rf);
	/* The console shows pg-run.sh's lines as they come; the file keeps
	 * them for the reason of a failure.  Its stdin is not the cells file. */
	const char *argv[40];
	int n = 0;
	argv[n++] = "sh";
	argv[n++] = script;
	argv[n++] = "--unit-conf";
	argv[n++] = R.conf_path;
	argv[n++] = "--huge-pages";
	argv[n++] = huge_pages;
	argv[n++] = "--pg-version";
	argv[n++] = pgv[0] ? pgv : "system";
	if (pgroot[0]) {
		argv[n++] = "--pg-root";
		argv[n++] = pgroot;
	}
	argv[n++] = "--shared-buffers";
	argv[n++] = conf("pg_shared_buffers");
	if (conf("pg_scale")[0]) {
		argv[n++] = "--scale";
		argv[n++] = conf("pg_scale");
	}
	argv[n++] = "--runs";
	argv[n++] = runs;
	argv[n++] = "--duration";
	argv[n++] = conf("pg_duration");
	argv[n++] = "--fillfactor";
	argv[n++] = conf("pg_fillfactor");
	argv[n++] = "--cold";
	argv[n++] = conf("pg_cold");
	argv[n++] = "--buffercache-ms";
	argv[n++] = conf("pg_buffercache_ms");
	if (mit[0]) {
		argv[n++] = "--mitigation";
		argv[n++] = mit;
	}
	argv[n++] = pg_dir;
	argv[n] = NULL;
	strf(out, sizeof(out), "%s/pg.out", R.work);
	int rc = pg_follow((char *const *)argv, out);
	FILE *rcf = fopen(rcfile, "w");
	if (rcf) {
		fprintf(rcf, "%d\n", rc);
		fclose(rcf);
	}
	send_pg_docs();
	send_pg_logs(id);
	if (rc == 0 && pg_sent > 0) {
		say("PASS %s %d", id, pg_sent);
		signal_check();
		return;
	}
	/* What the host cannot read from here: the tails of the setup logs. */
	static const char *const setup[] = { "initdb-*.log", "pg_ctl-*.log", "pgbench-init-*.log", "postgres-*.log" };
	for (int s = 0; s < 4; s++) {
		char pat[4096];
		glob_t g;
		strf(pat, sizeof(pat), "%s/logs/%s", pg_dir, setup[s]);
		if (glob(pat, 0, NULL, &g))
			continue;
		for (size_t i = 0; i < g.gl_pathc; i++) {
			if (!file_regular(g.gl_pathv[i]))
				continue;
			size_t len;
			char *t = file_read(g.gl_pathv[i], &len);
			log_line("--- last lines of %s", g.gl_pathv[i]);
			if (t) {
				fputs(text_tail(t, len, 15), stdout);
				fflush(stdout);
			}
			free(t);
		}
		globfree(&g);
	}
	/* The reason pg-run.sh gave last, a "preemptlab: " line. */
	char why[2048] = "";
	size_t len;
	char *o = file_read(out, &len);
	for (char *line = o, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (!strncmp(line, "preemptlab: ", 12))
			strf(why, sizeof(why), "%s", line);
	}
	free(o);
	say("FAIL %s pg-run.sh exit %d after %d document(s): %s", id, rc, pg_sent, why[0] ? why : "see the console log");
	signal_check();
}
