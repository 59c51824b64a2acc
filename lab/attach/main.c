/*
 * build/attach: make attach's decisions, one a subcommand, in the order
 * scripts/attach.sh asks them (attach.h):
 *
 *   attach limits                       ATTACH_MAX_KB, ATTACH_FILE_MAX_KB are numbers
 *   attach stage RUNDIR STAGE CACHE     the files to copy ("SOURCE TAB NAME"),
 *                                       config excerpts written into STAGE
 *   attach rev DOC...                   the run's revision, or unknown
 *   attach source RUNDIR REV COMMIT TOP three lines: dirty (true|false), the
 *                                       patch to enclose or "", what the
 *                                       source lacks or ""
 *   attach reproduce RUN REV SHA PATCH CMD   reproduce.sh
 *   attach fit STAGE BYTES              nothing when BYTES is under ATTACH_MAX_KB;
 *                                       else drops an optional file and names it
 *
 * Environment: ATTACH_MAX_KB (1024), ATTACH_FILE_MAX_KB (65536),
 * ATTACH_FULL_CONFIG=1 (whole configs too).  Exit 1 with the reason on
 * stderr, 2 on bad usage.
 */
#include "attach.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: attach limits | stage RUNDIR STAGE CACHE | rev DOC... | "
			"source RUNDIR REV COMMIT TOP | reproduce RUN REV SHA PATCH CMD | fit STAGE BYTES\n");
	return 2;
}

static int fit(const char *stage, const char *bytes)
{
	struct attach_limit max;
	if (!attach_limit("ATTACH_MAX_KB", "1024", &max))
		return 1;
	long long size = atoll(bytes), victim_bytes;
	if ((unsigned long long)size < max.kb * 1024)
		return 0;
	char *victim = attach_victim(stage, &victim_bytes);
	if (!victim) {
		/* The source is never dropped: name what is large instead. */
		char big[8192];
		attach_largest(stage, big, sizeof(big));
		attach_note("attachment is %lld KiB even without optional files, over ATTACH_MAX_KB=%s; the largest files (before compression): %s; raise the limit (ATTACH_MAX_KB=%lld) or leave such files out of the run",
			    size / 1024, max.text, big, size / 1024 + 1);
		return 1;
	}
	const char *name = attach_base(victim);
	attach_note("dropping %s (%lld bytes) to stay under %s KiB", name, victim_bytes, max.text);
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", stage, victim);
	unlink(path);
	snprintf(path, sizeof(path), "%s/report.md", stage);
	if (attach_mark_dropped(path, name) != 0) {
		attach_note("cannot rewrite %s", path);
		return 1;
	}
	printf("%s\n", victim);
	free(victim);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	struct attach_limit file_max;
	if (!strcmp(cmd, "limits") && argc == 2) {
		struct attach_limit max;
		return attach_limit("ATTACH_MAX_KB", "1024", &max) &&
				       attach_limit("ATTACH_FILE_MAX_KB", "65536", &file_max)
			       ? 0
			       : 1;
	}
	if (!strcmp(cmd, "stage") && argc == 5) {
		if (!attach_limit("ATTACH_FILE_MAX_KB", "65536", &file_max))
			return 1;
		const char *full = getenv("ATTACH_FULL_CONFIG");
		int rc = attach_stage(argv[2], argv[3], argv[4], &file_max, full && !strcmp(full, "1"),
				      stdout);
		return rc || fflush(stdout) ? 1 : 0;
	}
	if (!strcmp(cmd, "rev") && argc >= 2) {
		char *rev = attach_doc_revision(argv + 2, argc - 2);
		printf("%s\n", rev);
		free(rev);
		return 0;
	}
	if (!strcmp(cmd, "source") && argc == 6) {
		if (!attach_limit("ATTACH_FILE_MAX_KB", "65536", &file_max))
			return 1;
		char patch[4096];
		snprintf(patch, sizeof(patch), "%s/logs/lab-dirty.patch", argv[2]);
		char *real = realpath(argv[2], NULL);
		struct attach_source s;
		attach_source(argv[3], argv[4], argv[5], patch, real ? real : "/nonexistent", &file_max,
			      &s);
		free(real);
		if (s.note[0])
			attach_note("%s", s.note);
		printf("%s\n%s\n%s\n", s.dirty ? "true" : "false", s.patch, s.note);
		return 0;
	}
	if (!strcmp(cmd, "reproduce") && argc == 7) {
		char *name = strdup(argv[2]);
		if (!name)
			return 1;
		attach_run_name(name);
		attach_reproduce(stdout, name, argv[3], argv[4], argv[5], argv[6]);
		free(name);
		return fflush(stdout) ? 1 : 0;
	}
	if (!strcmp(cmd, "fit") && argc == 4)
		return fit(argv[2], argv[3]);
	return usage();
}
