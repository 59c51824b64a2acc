/*
 * MODELS on the host: the machine's own preemption model, switched through
 * debugfs (PREEMPT_DYNAMIC).  Checked here, before anything is reserved or
 * run, so a bench that cannot switch stops with the reason instead of
 * failing cell by cell.  The runner switches, reads back and restores.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"

#define PREEMPT_FILE "/sys/kernel/debug/sched/preempt"

/* Why PREEMPT_FILE cannot be read, from the errno of opening it. */
static const char *unreadable_why(int err)
{
	struct stat st;
	if (err == ENOENT && stat("/sys/kernel/debug/sched", &st) != 0)
		return "debugfs is not mounted (as root: mount -t debugfs none /sys/kernel/debug)";
	if (err == ENOENT)
		return "this kernel has no PREEMPT_DYNAMIC (boot one that has, or a kernel per model)";
	if (err == EPERM)
		return "debugfs is locked down (kernel lockdown or debugfs=restricted on the "
		       "kernel command line): boot without it, or compare kernels per boot";
	if (err == EACCES)
		return "only root may read or switch it (run as root)";
	return strerror(err);
}

/* The models the running kernel offers, "none voluntary (full) lazy" -> list. */
static void offered_models(const char *line, struct list *l)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", line);
	l->n = 0;
	for (char *save = NULL, *t = strtok_r(buf, " ()\n", &save); t && l->n < PLAN_MAX_LIST;
	     t = strtok_r(NULL, " ()\n", &save))
		snprintf(l->item[l->n++], PLAN_NAME, "%s", t);
}

void host_models_check(const struct list *models)
{
	bool named = false;
	for (int i = 0; i < models->n; i++)
		named |= strcmp(models->item[i], "current") != 0;
	if (!named)
		return;
	int fd = open(PREEMPT_FILE, O_RDONLY);
	if (fd < 0)
		plan_die("MODELS on the host needs %s, which cannot be read: %s; or leave MODELS "
			 "unset (the model the host runs)", PREEMPT_FILE, unreadable_why(errno));
	char line[256];
	ssize_t n = read(fd, line, sizeof(line) - 1);
	int rerr = errno;
	close(fd);
	if (n <= 0)
		plan_die("MODELS on the host: reading %s failed: %s", PREEMPT_FILE,
			 n < 0 ? unreadable_why(rerr) : "it is empty");
	line[n] = 0;
	line[strcspn(line, "\n")] = 0;
	for (size_t l = strlen(line); l && line[l - 1] == ' '; l--)
		line[l - 1] = 0;
	/* Opening for writing writes nothing; it is what the switch will need. */
	fd = open(PREEMPT_FILE, O_WRONLY);
	if (fd < 0)
		plan_die("MODELS on the host: %s ('%s') cannot be written: %s", PREEMPT_FILE, line,
			 unreadable_why(errno));
	close(fd);
	struct list offered;
	offered_models(line, &offered);
	for (int i = 0; i < models->n; i++) {
		const char *m = models->item[i];
		if (strcmp(m, "current") != 0 && !list_has(&offered, m))
			plan_die("MODELS=%s: this kernel offers '%s' (%s), not %s; ask among those, "
				 "or boot a kernel that has %s", m, line, PREEMPT_FILE, m, m);
	}
	plan_note("MODELS on the host: switched through %s (now '%s'), restored afterwards",
		  PREEMPT_FILE, line);
}
