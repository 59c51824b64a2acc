/* The sweep of dead runs (runstate.h): each state file of a run that is
 * gone, trusted only when private and then only for what the run provably
 * owned; then the tracefs instances of dead bufbenches. */
#include "runstate.h"

#include "evidence/tracefs_reap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A state file is a few hundred bytes; a bigger one is not a run's. */
#define RS_MAX_STATE (1 << 20)

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names run-*.state in DIR_FD, sorted (as the shell's glob had them);
 * NULL-terminated, malloc'd. */
static char **state_names(int dir_fd)
{
	int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	char **names = calloc(1, sizeof(*names));
	size_t n = 0;
	struct dirent *de;
	while (d && names && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 10 || strncmp(de->d_name, "run-", 4) != 0 ||
		    strcmp(de->d_name + len - 6, ".state") != 0)
			continue;
		char **more = realloc(names, (n + 2) * sizeof(*names));
		if (!more)
			break;
		names = more;
		if (!(names[n] = strdup(de->d_name)))
			break;
		names[++n] = NULL;
	}
	if (d)
		closedir(d);
	else if (fd >= 0)
		close(fd);
	if (names)
		qsort(names, n, sizeof(*names), by_name);
	return names;
}

/* The state file NAME's text, when it is a private regular file; NULL
 * after saying why it is left alone (or when it vanished). */
static char *read_private(const struct rs_ctx *c, int dir_fd, const char *name, const char *shown,
			  size_t *len)
{
	static const char *const what = "the run-state file";
	struct stat st;
	char *text = NULL;
	int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return NULL;
	if (fd < 0 && errno == ELOOP)
		rs_say(c->say, "%s %s is a symbolic link: refused", what, shown);
	else if (fd < 0 || fstat(fd, &st) != 0)
		rs_say(c->say, "%s %s cannot be read: refused", what, shown);
	else if (S_ISREG(st.st_mode) && rs_check_private(&st, shown, what, c->say) == 0 &&
		 st.st_size <= RS_MAX_STATE && (text = malloc((size_t)st.st_size + 1))) {
		ssize_t n = read(fd, text, (size_t)st.st_size);
		if (n < 0) {
			free(text);
			text = NULL;
		} else {
			*len = (size_t)n;
		}
	}
	if (fd >= 0)
		close(fd);
	if (!text)
		rs_say(c->say, "  %s is not a private file of yours: left alone (remove it yourself)", shown);
	return text;
}

/* The run of S still runs: its pid started when recorded, or, in a file
 * from before start times were, is a live run-plan.sh. */
static bool alive(const struct rs_state *s)
{
	long pid = rs_pid(s->pid);
	if (*s->pid_start)
		return rs_same(pid, s->pid_start);
	return pid >= 0 && kill((pid_t)pid, 0) == 0 && rs_cmdline_has(pid, "run-plan.sh");
}

static void undo(const struct rs_ctx *c, const struct rs_state *s, const char *shown)
{
	rs_say(c->say, "a run killed outright (pid %s, %s) left state behind (%s); undoing it:", s->pid,
	       s->started ? s->started : "", shown);
	struct rs_work w = { -1, -1, NULL };
	bool work_ok = s->work && *s->work && rs_work_check(s->work, c->tmp, &w, c->say) == 0;
	if (work_ok)
		rs_stop_units(c, s, s->work);
	rs_give_back(c, s);
	rs_mark(c, s->rundir);
	int gone = work_ok && w.fd >= 0 ? rs_remove_work(&w) : 1;
	if (gone == 0)
		rs_say(c->say, "  its work directory %s: removed", s->work);
	else if (gone < 0)
		rs_say(c->say, "  its work directory %s could not be removed: %s", s->work,
		       strerror(errno));
	rs_work_close(&w);
}

/* tracefs_reap speaks as the bufbench that reaps its predecessors'
 * instances ("bufbench: ..."); here the runner does. */
static void reap(const struct rs_ctx *c, const char *root)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return;
	tracefs_reap(root, m);
	fclose(m);
	for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		rs_say(c->say, "%s", strncmp(line, "bufbench: ", 10) == 0 ? line + 10 : line);
	}
	free(text);
}

void rs_recover(const struct rs_ctx *c, int dir_fd, const char *dir)
{
	char **names = state_names(dir_fd);
	for (size_t i = 0; names && names[i]; i++) {
		char *shown = NULL, *text;
		size_t len = 0;
		struct rs_state s;
		if (asprintf(&shown, "%s/%s", dir, names[i]) < 0)
			break;
		text = read_private(c, dir_fd, names[i], shown, &len);
		if (text && rs_parse(text, len, &s) == 0) {
			if (!s.pid || !rs_digits(s.pid, 0)) {
				unlinkat(dir_fd, names[i], 0);
			} else if (!alive(&s)) {
				undo(c, &s, shown);
				unlinkat(dir_fd, names[i], 0);
			}
			rs_state_free(&s);
		}
		free(text);
		free(shown);
	}
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
	/* bufbench --trace-holds killed outright leaves instances/preemptlab-PID
	 * tracing into a 16 MB-per-CPU buffer. */
	for (size_t i = 0; c->tracefs && c->tracefs[i]; i++)
		reap(c, c->tracefs[i]);
}
