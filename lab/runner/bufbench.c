/*
 * A bufbench cell, optionally under perf (a guest's perf record, the
 * host's scripts/profile.sh).
 */
#include "runner.h"
#include "conf.h"
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXARGS 256

/* Profiles.  A guest records with perf here: TCG emulates no PMU, so the
 * event is cpu-clock (an hrtimer, works everywhere); -g unwinds by frame
 * pointers, which bufbench-static is built with; the samples go out as
 * gzipped perf script text after the cell's JSON.  The host profiles
 * through scripts/profile.sh (dwarf unwinding by default), which folds
 * the stacks straight into the run's perf/ directory. */
void profile_probe(void)
{
	R.prof = "off";
	if (strcmp(conf("profile"), "on"))
		return;
	if (!R.guest && !strcmp(R.kind, "host")) {
		R.prof = "host";
		return;
	}
	if (!in_path("perf")) {
		strf(R.prof_why, sizeof(R.prof_why), "no perf here (apt-get install linux-perf on the host)");
		return;
	}
	char out[4096], probe[4096];
	strf(out, sizeof(out), "%s/perf.probe.out", R.work);
	strf(probe, sizeof(probe), "%s/perf.probe", R.work);
	char *argv[] = { "perf", "record", "-N", "-B", "-q", "-e", PERF_EVENT, "-g", "-o", probe, "--", "true", NULL };
	int rc = run(argv, out, 0, NULL);
	if (rc) {
		/* Its first two lines, each ending in a blank. */
		char *s = file_read(out, NULL), msg[1024] = "";
		if (s) {
			text_chomp(s);
			char *nl = strchr(s, '\n');
			if (nl && (nl = strchr(nl + 1, '\n')))
				*nl = '\0';
			strf(msg, sizeof(msg), "%s\n", s);
			text_nl_to_blank(msg);
		}
		free(s);
		strf(R.prof_why, sizeof(R.prof_why), "perf record fails: %s", msg);
	} else {
		R.prof = "on";
	}
	unlink(out);
	unlink(probe);
}

/* The last cell's samples as gzipped perf script text, within the plan's
 * bound (perf_script_timeout_s: a hang in reading /proc/kallsyms must not
 * outlive the cell, whose host timer has stopped). */
static void profile_out(const char *id)
{
	char data[4096], gz[4096], err[4096], tail[1024];
	strf(data, sizeof(data), "%s/perf.data", R.work);
	strf(gz, sizeof(gz), "%s/perf.txt.gz", R.work);
	strf(err, sizeof(err), "%s/perf.err", R.work);
	if (!file_nonempty(data)) {
		log_line("no perf data for %s", id);
		return;
	}
	unlink(gz);
	int p[2], rc = 127;
	fflush(stdout);
	if (pipe(p) == 0) {
		pid_t zip = fork();
		if (zip == 0) {
			int fd = open(gz, O_WRONLY | O_CREAT | O_TRUNC, 0666);
			dup2(p[0], 0);
			if (fd >= 0)
				dup2(fd, 1);
			close(p[1]);
			execlp("gzip", "gzip", "-1", (char *)NULL);
			_exit(127);
		}
		pid_t script = fork();
		if (script == 0) {
			int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
			dup2(p[1], 1);
			if (fd >= 0)
				dup2(fd, 2);
			close(p[0]);
			execlp("timeout", "timeout", conf("perf_script_timeout_s"), "perf", "script", "-i", data,
			       (char *)NULL);
			_exit(127);
		}
		close(p[0]);
		close(p[1]);
		int st;
		while (script > 0 && waitpid(script, &st, 0) < 0 && errno == EINTR)
			;
		if (script > 0)
			rc = text_shell_status(st);
		while (zip > 0 && waitpid(zip, &st, 0) < 0 && errno == EINTR)
			;
	}
	if (rc == 0) {
		log_line("profile of %s: %ld bytes gzipped", id, file_size(gz));
		send_block("PERF", id, gz);
	} else {
		file_tail(err, 2, 1, tail, sizeof(tail));
		log_line("perf script failed for %s (exit %d): %s", id, rc, tail);
	}
	unlink(data);
	unlink(gz);
}

/* One bufbench cell.  The plan says which cells are profiled: a control
 * twin (CONTROLS) and most cells of SCENARIO=overhead run without perf,
 * so their timings are the bare run's. */
void run_bufbench(const char *id, const char *model, const char *pages, const char *args,
		  const char *cell_prof)
{
	char why[1024], json[4096], out[4096], data[4096], dir[4096], tail[1024];
	if (set_model(model, why, sizeof(why))) {
		say("FAIL %s %s", id, why);
		log_line("%s", why);
		return;
	}
	set_hugepages(pages);
	strf(json, sizeof(json), "%s/run.json", R.work);
	strf(out, sizeof(out), "%s/run.log", R.work);
	strf(data, sizeof(data), "%s/perf.data", R.work);
	unlink(json);
	unlink(data);
	const char *cprof = !strcmp(cell_prof, "off") ? "off" : R.prof;
	/* The recorder's words, then bufbench's: ARGV is the planner's, word
	 * for word, split on blanks, no globbing.  perf record and profile.sh
	 * exit with bufbench's status. */
	char rec[8192], *argv[MAXARGS];
	int n = 0;
	if (!strcmp(cprof, "on"))
		strf(rec, sizeof(rec), "perf record -N -B -q -e %s -g -F %s -o %s --", PERF_EVENT,
			 conf("profile_freq"), data);
	else if (!strcmp(cprof, "host"))
		strf(rec, sizeof(rec), "%s/scripts/profile.sh --on --freq %s --callgraph %s %s/%s --", R.top,
			 conf("profile_freq"), conf("profile_callgraph"), conf("perf_dir"), id);
	else
		rec[0] = '\0';
	n = text_words(rec, argv, MAXARGS - 8);
	argv[n++] = (char *)R.bench;
	char words[8192];
	strf(words, sizeof(words), "%s", args);
	n += text_words(words, argv + n, MAXARGS - 6 - n);
	strf(dir, sizeof(dir), "%s", R.conf_path);
	argv[n++] = "--unit-conf";
	argv[n++] = dir;
	argv[n++] = "--json";
	argv[n++] = json;
	argv[n] = NULL;
	int rc = run(argv, out, 0, NULL);
	file_cat(out);
	signal_check();
	if (rc == 0 && file_nonempty(json)) {
		send_block("JSON", id, json);
		if (!strcmp(cprof, "on"))
			profile_out(id);
	} else {
		file_tail(out, 1, 0, tail, sizeof(tail));
		if (R.hp_short[0])
			say("FAIL %s bufbench exit %d: %s (%s)", id, rc, tail, R.hp_short);
		else
			say("FAIL %s bufbench exit %d: %s", id, rc, tail);
	}
}
