/*
 * Models, knobs and huge pages: the kernel files the cell runner writes
 * and reads back (runner.h).
 */
#include "runner.h"
#include "conf.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A kernel built with one model and no PREEMPT_DYNAMIC (Debian's arm64
 * kernels) has no debugfs file: its model is the catalog's
 * (static_model), which the programs read from the plan file where
 * debugfs has none. */
void model_line(char *out, size_t size)
{
	if (!file_exists(PREEMPT) && R.static_model[0]) {
		strf(out, size, "(%s)", R.static_model);
		return;
	}
	if (file_get(PREEMPT, out, size))
		strf(out, size, "unreadable");
}

/* The current model is the one in parentheses: "none voluntary (full) lazy". */
void model_now(char *out, size_t size)
{
	char line[512];
	model_line(line, sizeof(line));
	text_model_now(line, out, size);
}

/* Switch to M and read back; "current" keeps what the kernel booted. */
int set_model(const char *m, char *why, size_t size)
{
	char now[64], line[512];
	if (!strcmp(m, "current"))
		return 0;
	model_now(now, sizeof(now));
	if (!strcmp(now, m))
		return 0;
	if (access(PREEMPT, W_OK)) {
		strf(why, size, "no writable %s (kernel without PREEMPT_DYNAMIC, debugfs not mounted or locked down)", PREEMPT);
		return -1;
	}
	file_put(PREEMPT, m);
	model_now(now, sizeof(now));
	if (strcmp(now, m)) {
		model_line(line, sizeof(line));
		strf(why, size, "model %s not accepted: debugfs reads '%s'", m, line);
		return -1;
	}
	return 0;
}

/* Every model the cells ask for (the plan's models line) can be set
 * here, or the reason it cannot; checked before any cell runs. */
int models_usable(char *why, size_t size)
{
	char list[512], line[512], *m[64];
	strf(list, sizeof(list), "%s", conf("models"));
	int n = text_words(list, m, 64);
	for (int i = 0; i < n; i++) {
		if (!strcmp(m[i], "current"))
			continue;
		if (!strcmp(m[i], R.static_model) && !file_exists(PREEMPT))
			continue;
		if (access(PREEMPT, W_OK)) {
			strf(why, size, "model %s asked, but %s is not writable (no PREEMPT_DYNAMIC, debugfs not mounted, or locked down)", m[i], PREEMPT);
			return -1;
		}
		model_line(line, sizeof(line));
		if (!text_has_word(line, m[i], 1)) {
			strf(why, size, "model %s asked, but this kernel offers only: %s", m[i], line);
			return -1;
		}
	}
	return 0;
}

/* A host's model is the machine's, not the lab's: where the plan says so
 * (restore_model: a host unit that switches it), it goes back on every
 * exit, and so does every knob whose plan line says restore (set_knobs),
 * kept in WORK/knobs.restore as "PATH OLD" lines. */
static char orig_model[64];
static char restore_file[4096];

void restore_init(void)
{
	strf(restore_file, sizeof(restore_file), "%s/knobs.restore", R.work);
	FILE *f = fopen(restore_file, "w");
	if (f)
		fclose(f);
	if (!strcmp(conf("restore_model"), "1"))
		model_now(orig_model, sizeof(orig_model));
}

void restore_model(void)
{
	char now[64];
	if (orig_model[0]) {
		model_now(now, sizeof(now));
		if (strcmp(now, orig_model))
			file_put(PREEMPT, orig_model);
	}
	FILE *f = fopen(restore_file, "r");
	char line[4096], cur[4096];
	while (f && fgets(line, sizeof(line), f)) {
		char *w[2];
		if (text_read_fields(line, " \t\n", w, 2) < 1)
			continue;
		if (file_get(w[0], cur, sizeof(cur)) || strcmp(cur, w[1]))
			file_put(w[0], w[1]);
	}
	if (f)
		fclose(f);
}

/* The unit's kernel knobs, one plan line each (lab/plan/knobs.c: PATH
 * VALUE fail|skip restore|keep VAR=V NEEDS), in order.  Each value is
 * written and read back, or found among the file's words (a value the
 * kernel changed would be measured under another name, so it fails the
 * unit with the reason in WHY); a file the kernel lacks fails the unit
 * or, where the plan says skip, is said and passed over; a restore
 * line's old value is kept for restore_model. */
int set_knobs(char *why, size_t size)
{
	char path[4096];
	strf(path, sizeof(path), "%s/knobs", R.work);
	FILE *list = fopen(path, "w");
	for (int i = 0; list && conf_all("knob", i); i++)
		fprintf(list, "%s\n", conf_all("knob", i));
	if (list)
		fclose(list);
	const char *v;
	for (int i = 0; (v = conf_all("knob", i)); i++) {
		char line[4096], now[4096];
		char *f[6]; /* path value missing restore name needs */
		strf(line, sizeof(line), "%s", v);
		text_read_fields(line, " \t\n", f, 6);
		if (!file_exists(f[0])) {
			strf(why, size, "%s not applied: this kernel has no %s (%s)", f[4], f[0], f[5]);
			if (strcmp(f[2], "skip"))
				return -1;
			log_line("%s", why);
			continue;
		}
		if (!strcmp(f[3], "restore")) {
			file_get(f[0], now, sizeof(now));
			FILE *r = fopen(restore_file, "a");
			if (r) {
				fprintf(r, "%s %s\n", f[0], now);
				fclose(r);
			}
		}
		file_put(f[0], f[1]);
		file_get(f[0], now, sizeof(now));
		/* A file of words (sched/features) lists the switch it took. */
		if (!text_has_word(now, f[1], 0)) {
			strf(why, size, "%s not accepted: %s reads '%s'", f[4], f[0], now);
			return -1;
		}
		log_line("knob %s: %s %s", f[4], f[0], now);
	}
	return 0;
}

/* A guest reserves its 2 MB pages here, only while 2 MB cells run, so
 * 4 KB cells get that memory back; 1 GB pages come from its kernel
 * command line.  On the host scripts/run-plan.sh reserves them, by
 * difference, for the whole unit. */
void set_hugepages(const char *pages)
{
	static const char hp64[] = "/sys/kernel/mm/hugepages/hugepages-64kB/nr_hugepages";
	char got[64];
	long have, want;
	R.hp_short[0] = '\0';
	if (!R.guest)
		return;
	/* 64 KB pages (arm64's contiguous PTEs): as much memory as the 2 MB
	 * reservation, where the kernel has that size. */
	if (file_exists(hp64)) {
		const char *w64 = !strcmp(pages, "64k") ? conf("hugepages_64k") : "0";
		file_put(hp64, w64);
		if (file_get(hp64, got, sizeof(got)))
			strf(got, sizeof(got), "0");
		if (text_int(got, &have) || text_int(w64, &want) || have < want) {
			strf(R.hp_short, sizeof(R.hp_short),
				 "the guest could reserve only %s of %s 64 KB pages: give it more memory (MEM_MB)", got, w64);
			log_line("%s", R.hp_short);
		}
	}
	const char *w = !strcmp(pages, "2m") || !strcmp(pages, "try-2m") ? conf("hugepages_2m") : "0";
	file_put(NR_HUGEPAGES, w);
	if (file_get(NR_HUGEPAGES, got, sizeof(got)))
		strf(got, sizeof(got), "0");
	if (!text_int(got, &have) && !text_int(w, &want) && have >= want)
		return;
	strf(R.hp_short, sizeof(R.hp_short),
		 "the guest could reserve only %s of %s 2 MB pages: give it more memory (MEM_MB)", got, w);
	log_line("%s", R.hp_short);
	/* bufbench decides: 2m fails clearly (exit 3), try-2m falls back. */
}
