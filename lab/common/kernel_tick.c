#include "kernel_tick.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/wait.h>
#include <time.h>
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
	/* Cut to the field: "unknown: " and as much of why as fits. */
	snprintf(t->source, sizeof(t->source), "unknown: %.*s", (int)(sizeof(t->source) - 10),
		 wl ? why : "no config named");
	return -1;
}

/* "now at N nsecs" and the first "jiffies: N" of a timer_list text. */
static int timer_list_point(const char *text, double *now_ns, double *jiffies)
{
	const char *n = strstr(text, "now at ");
	const char *j = strstr(text, "\njiffies: ");
	if (!n || !j)
		return -1;
	*now_ns = strtod(n + 7, NULL);
	*jiffies = strtod(j + 10, NULL);
	return 0;
}

double kernel_tick_rate(const char *before, const char *after)
{
	double n0, j0, n1, j1;
	if (timer_list_point(before, &n0, &j0) || timer_list_point(after, &n1, &j1) || n1 <= n0)
		return -1;
	return (j1 - j0) / ((n1 - n0) / 1e9);
}

/* The whole of /proc/timer_list (a few KB a CPU), malloc'd; NULL when unreadable. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 16, len = 0, got;
	char *buf = f ? malloc(cap) : NULL;
	if (!buf) {
		if (f)
			fclose(f);
		return NULL;
	}
	while ((got = fread(buf + len, 1, cap - 1 - len, f)) > 0) {
		len += got;
		if (len + 1 == cap) {
			char *more = realloc(buf, cap * 2);
			if (!more)
				break;
			buf = more;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

int kernel_tick_measure(struct kernel_tick *t, const char *why)
{
	static const int choice[] = { 100, 250, 300, 1000 };
	const char *path = "/proc/timer_list";
	struct timespec gap = { 0, 200 * 1000 * 1000 };
	double rate = -1;
	t->hz = -1;
	snprintf(t->nohz, sizeof(t->nohz), "unknown");
	/*
	 * A text's "now at" is printed before its "jiffies:" lines, in the
	 * same read but perhaps another seq_file chunk: a reader preempted in
	 * between skews the pair by its time off CPU (10 ms is 5% of the
	 * gap).  A rate within 5% of no CONFIG_HZ choice is taken again, up
	 * to three times, before the tick is called unknown.
	 */
	for (int attempt = 0; attempt < 3; attempt++) {
		char *a = slurp(path);
		if (a)
			nanosleep(&gap, NULL);
		char *b = a ? slurp(path) : NULL;
		rate = a && b ? kernel_tick_rate(a, b) : -1;
		free(a);
		free(b);
		if (rate < 0) {
			snprintf(t->source, sizeof(t->source),
				 "unknown: %s; %s gave no jiffies rate", why, path);
			return -1;
		}
		for (size_t i = 0; i < sizeof(choice) / sizeof(choice[0]); i++)
			if (fabs(rate - choice[i]) <= 0.05 * choice[i]) {
				t->hz = choice[i];
				snprintf(t->source, sizeof(t->source),
					 "measured: %.1f jiffies/s over 200 ms of %s (no config: %s)",
					 rate, path, why);
				return 0;
			}
	}
	snprintf(t->source, sizeof(t->source),
		 "unknown: %s; %s: %.1f jiffies/s, within 5%% of no CONFIG_HZ choice", why, path, rate);
	return -1;
}
