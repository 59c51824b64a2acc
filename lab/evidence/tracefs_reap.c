/* Instances of dead bufbench runs, removed (tracefs_reap.h). */
#include "tracefs_reap.h"

#include "trace_join.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Write VAL to an existing file (tracefs creates none on write). */
static void put_existing(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, val, strlen(val)) < 0) {
		/* Nothing to do: the instance goes anyway. */
	}
	close(fd);
}

int tracefs_reap(const char *root, FILE *say)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/instances", root);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int removed = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		int pid;
		char extra, p[PATH_MAX + 300];
		if (sscanf(de->d_name, "preemptlab-%d%c", &pid, &extra) != 1 || pid <= 0)
			continue;
		/* Alive, or not ours to judge (EPERM): left alone. */
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		if (snprintf(p, sizeof(p), "%s/%s/tracing_on", dir, de->d_name) >= (int)sizeof(p))
			continue;
		put_existing(p, "0");
		if (snprintf(p, sizeof(p), "%s/%s", dir, de->d_name) >= (int)sizeof(p))
			continue;
		if (rmdir(p) == 0) {
			removed++;
			fprintf(say, "bufbench: removed the tracefs instance %s of a run killed "
				     "outright (pid %d is gone)\n", p, pid);
		} else {
			fprintf(say, "bufbench: cannot remove the tracefs instance %s of a run "
				     "killed outright (pid %d): %s\n", p, pid, strerror(errno));
		}
		/* Its kprobe events, if it defined any (arm64's faults, --trace-channel's folios). */
		static const char *const ours[] = { TRACE_KPROBE_FAULT, TRACE_FOLIO_WAIT,
						    TRACE_FOLIO_UNLOCK };
		for (int i = 0; i < 3; i++) {
			char undef[96];
			snprintf(undef, sizeof(undef), "-:preemptlab_%d/%s\n", pid, ours[i]);
			if (snprintf(p, sizeof(p), "%s/kprobe_events", root) < (int)sizeof(p))
				put_existing(p, undef);
		}
	}
	closedir(d);
	return removed;
}
