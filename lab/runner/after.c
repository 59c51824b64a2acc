/*
 * What runs once per unit after every cell (so it changes nothing they
 * measure): costbench's runs and repro-min.
 */
#include "runner.h"
#include "conf.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* costbench's runs (lab/costbench; the plan's costbench_run lines, NAME
 * ARGS), once per model of the unit after every cell: the model's own
 * cost per fault and system call (issue 24), then a wakeup timed into a
 * fault (issue 36).  One process with nothing to contend with, so the
 * models' documents differ only by the model.  They go to the host's
 * logs/ as NAME-<kernel>-<model>[-b<boot>].json. */
void run_costbench(void)
{
	char runs[4096], log[4096];
	strf(runs, sizeof(runs), "%s/costbench.runs", R.work);
	strf(log, sizeof(log), "%s/costbench.log", R.work);
	FILE *rf = fopen(runs, "w");
	for (int i = 0; rf && conf_all("costbench_run", i); i++)
		fprintf(rf, "%s\n", conf_all("costbench_run", i));
	if (rf)
		fclose(rf);
	if (!conf_all("costbench_run", 0))
		return;
	const char *bin = conf("costbench_bin");
	if (access(bin, X_OK)) {
		log_line("COSTBENCH=on, but no %s (make build-all)", bin);
		return;
	}
	const char *boot = conf("boot");
	long b;
	char tail[64] = "";
	if (!text_int(boot[0] ? boot : "1", &b) && b > 1)
		strf(tail, sizeof(tail), "-b%s", boot);
	/* Its 2 MB faults need free huge pages: a guest owns its pool and
	 * reserves the plan's count; the host's reservation is the
	 * machine's, and without one they are reported unavailable. */
	if (R.guest)
		file_put(NR_HUGEPAGES, conf("costbench_hp2m"));
	char list[512], *m[64];
	strf(list, sizeof(list), "%s", conf("models"));
	int nm = text_words(list, m, 64);
	for (int i = 0; i < nm; i++) {
		char why[1024], model[64];
		if (set_model(m[i], why, sizeof(why))) {
			log_line("costbench under %s not run: %s", m[i], why);
			continue;
		}
		model_now(model, sizeof(model));
		const char *line;
		for (int r = 0; (line = conf_all("costbench_run", r)); r++) {
			char words[4096], *f[2], *argv[128], out[4096], kept[2][4096], last[1024];
			strf(words, sizeof(words), "%s", line);
			text_read_fields(words, " \t\n", f, 2);
			strf(out, sizeof(out), "%s/%s-%s-%s%s.json", R.work, f[0], R.label,
				 model[0] ? model : "unknown", tail);
			/* With --trace on it keeps its trace and hold records beside the document. */
			strf(kept[0], sizeof(kept[0]), "%.*s.trace", (int)strlen(out) - 5, out);
			strf(kept[1], sizeof(kept[1]), "%.*s.holds", (int)strlen(out) - 5, out);
			unlink(out);
			unlink(kept[0]);
			unlink(kept[1]);
			int n = 0;
			argv[n++] = (char *)bin;
			n += text_words(f[1], argv + n, 120);
			argv[n++] = "--unit-conf";
			argv[n++] = (char *)R.conf_path;
			argv[n++] = "--json";
			argv[n++] = out;
			argv[n] = NULL;
			int rc = run(argv, log, 0, NULL);
			file_cat(log);
			signal_check();
			/* Exit 3 (a touch that was not one fault) still sends its
			 * document: each_faulted says so, and the report leaves
			 * those ops out. */
			if (file_nonempty(out)) {
				log_line("%s under %s: exit %d", f[0], model[0] ? model : m[i], rc);
				send_block("LOG", strrchr(out, '/') + 1, out);
				for (int k = 0; k < 2; k++)
					if (file_regular(kept[k]))
						send_block("LOG", strrchr(kept[k], '/') + 1, kept[k]);
			} else {
				file_tail(log, 1, 0, last, sizeof(last));
				log_line("%s under %s failed (exit %d): %s", f[0], m[i], rc, last);
			}
		}
	}
	if (R.guest)
		file_put(NR_HUGEPAGES, "0");
}

/* repro/repro-min.c on this kernel, once per unit and after every cell
 * (so it changes nothing they measure), for the attachment
 * (scripts/attach.sh).  A guest owns its huge pages; the host reserves
 * them by difference. */
void run_repro_min(void)
{
	const char *bin = conf("repro_min_bin");
	if (strcmp(conf("repro_min"), "on"))
		return;
	if (access(bin, X_OK)) {
		log_line("REPRO_MIN=on, but no %s (make build-all)", bin);
		return;
	}
	char model[64], out[4096];
	struct utsname u;
	uname(&u);
	model_now(model, sizeof(model));
	strf(out, sizeof(out), "%s/repro-min-%s-%s.txt", R.work, R.label, model[0] ? model : "unknown");
	log_line("repro-min (4 KB and 2 MB) on %s", u.release);
	/* The pool's size and its 2 MB reservation are the plan's
	 * (lab/plan/runner_policy.c: a quarter of the pool under TCG). */
	if (R.guest) {
		char *n = (char *)conf("repro_min_descriptors");
		char *a4[] = { (char *)bin, "-p", "4k", "-n", n, NULL };
		char *a2[] = { (char *)bin, "-p", "2m", "-n", n, NULL };
		run(a4, out, 0, NULL);
		if (conf_all("repro_min_hp2m", 0))
			file_put(NR_HUGEPAGES, conf("repro_min_hp2m"));
		run(a2, out, 1, NULL);
		file_put(NR_HUGEPAGES, "0");
	} else {
		char script[4096], env[4200];
		strf(script, sizeof(script), "%s/scripts/repro-min.sh", R.top);
		strf(env, sizeof(env), "REPRO_MIN=%s", bin);
		char *a[] = { script, NULL };
		run(a, out, 0, env);
	}
	signal_check();
	file_cat(out);
	send_block("LOG", strrchr(out, '/') + 1, out);
}
