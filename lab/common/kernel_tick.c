#include "kernel_tick.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int kernel_tick_parse(FILE *f, struct kernel_tick *t)
{
	char line[512];
	int full = 0, idle = 0, periodic = 0;
	t->hz = -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		/* CONFIG_HZ_250=y also starts with CONFIG_HZ: only the value line counts. */
		if (!strncmp(line, "CONFIG_HZ=", 10)) {
			char *end;
			long v = strtol(line + 10, &end, 10);
			if (end != line + 10 && !*end && v > 0 && v <= 100000)
				t->hz = (int)v;
		}
		/* The tick's Kconfig choice: exactly one of the three is set. */
		full |= !strcmp(line, "CONFIG_NO_HZ_FULL=y");
		idle |= !strcmp(line, "CONFIG_NO_HZ_IDLE=y");
		periodic |= !strcmp(line, "CONFIG_HZ_PERIODIC=y");
	}
	snprintf(t->nohz, sizeof(t->nohz), "%s",
		 full ? "full" : idle ? "idle" : periodic ? "periodic" : "unknown");
	return t->hz > 0 ? 0 : -1;
}

/* PATH's text through gzip -dc (/proc/config.gz), without a shell. */
static int parse_gzip(const char *path, struct kernel_tick *t, char *why, size_t len)
{
	int fd[2], status = 0;
	if (pipe(fd) != 0) {
		snprintf(why, len, "%s: pipe: %s", path, strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], 1);
		execlp("gzip", "gzip", "-dc", path, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		snprintf(why, len, "%s: fork: %s", path, strerror(errno));
		return -1;
	}
	FILE *f = fdopen(fd[0], "r");
	int rc = -1;
	if (f) {
		rc = kernel_tick_parse(f, t);
		fclose(f);
	} else {
		close(fd[0]);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(why, len, "%s: gzip -dc failed (%s)", path,
			 WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "no gzip" : "exit status");
		t->hz = -1;
		return -1;
	}
	if (rc != 0)
		snprintf(why, len, "%s has no CONFIG_HZ", path);
	return rc;
}

int kernel_tick_read(const char *const *paths, struct kernel_tick *t)
{
	char why[512] = "";
	size_t wl = 0;
	t->hz = -1;
	snprintf(t->nohz, sizeof(t->nohz), "unknown");
	for (size_t i = 0; paths[i]; i++) {
		const char *p = paths[i];
		char one[300];
		size_t n = strlen(p);
		FILE *f = fopen(p, "r");
		int rc;
		if (!f) {
			snprintf(one, sizeof(one), "%s: %s", p, strerror(errno));
		} else if (n > 3 && !strcmp(p + n - 3, ".gz")) {
			fclose(f);
			rc = parse_gzip(p, t, one, sizeof(one));
			if (rc == 0) {
				snprintf(t->source, sizeof(t->source), "%s", p);
				return 0;
			}
		} else {
			rc = kernel_tick_parse(f, t);
			fclose(f);
			if (rc == 0) {
				snprintf(t->source, sizeof(t->source), "%s", p);
				return 0;
			}
			snprintf(one, sizeof(one), "%s has no CONFIG_HZ", p);
		}
		/* Every path tried, and why it gave nothing: "unknown" says where it looked. */
		if (wl < sizeof(why))
			wl += (size_t)snprintf(why + wl, sizeof(why) - wl, "%s%s", wl ? "; " : "", one);
	}
	t->hz = -1;
	snprintf(t->nohz, sizeof(t->nohz), "unknown");
	snprintf(t->source, sizeof(t->source), "unknown: %s", wl ? why : "no config named");
	return -1;
}
