/* What a state file may make a run believe (runstate.h): private files and
 * directories, the work directory's place, the state directory. */
#include "runstate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void rs_say(FILE *say, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("preemptlab: ", say);
	vfprintf(say, fmt, ap);
	fputc('\n', say);
	va_end(ap);
	fflush(say);
}

/* A state directory in /tmp made or opened up by another user would let
 * that user write what this run then kills and removes. */
int rs_check_private(const struct stat *st, const char *shown, const char *what, FILE *say)
{
	if (S_ISLNK(st->st_mode)) {
		rs_say(say, "%s %s is a symbolic link: refused", what, shown);
		return -1;
	}
	if (st->st_uid != geteuid()) {
		rs_say(say, "%s %s belongs to uid %u, not to you (uid %u): refused", what, shown,
		       (unsigned)st->st_uid, (unsigned)geteuid());
		return -1;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		rs_say(say, "%s %s is writable by its group or by others (mode %o): refused", what,
		       shown, (unsigned)(st->st_mode & 07777));
		return -1;
	}
	return 0;
}

int rs_open_private(int at, const char *name, const char *shown, const char *what, FILE *say)
{
	/* O_PATH|O_NOFOLLOW opens a symbolic link itself: what is checked is
	 * what is then used, not what a name leads to a moment later. */
	struct stat st;
	int fd = openat(at, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		rs_say(say, "%s %s cannot be read: refused", what, shown);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (rs_check_private(&st, shown, what, say) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

char *rs_tmp(void)
{
	const char *t = getenv("TMPDIR");
	char *s = strdup(t && *t ? t : "/tmp");
	if (!s)
		return NULL;
	for (size_t n = strlen(s); n > 1 && s[n - 1] == '/'; n--)
		s[n - 1] = '\0';
	return s;
}

void rs_work_close(struct rs_work *w)
{
	if (w->fd >= 0)
		close(w->fd);
	if (w->tmp_fd >= 0)
		close(w->tmp_fd);
	w->fd = w->tmp_fd = -1;
}

int rs_work_check(const char *work, const char *tmp, struct rs_work *w, FILE *say)
{
	static const char *const alone = "left alone, and no process is stopped by it";
	w->fd = w->tmp_fd = -1;
	char *real = realpath(tmp, NULL);
	const char *tr = real ? real : tmp;
	const char *slash = strrchr(work, '/');
	const char *n = slash ? slash + 1 : work;
	size_t tl = strlen(tmp), rl = strlen(tr);
	/* What mktemp -d makes: tmp.* right in $TMPDIR, as given or resolved;
	 * tmp.X/../../victim is not. */
	bool named = strncmp(n, "tmp.", 4) == 0 &&
		     ((strncmp(work, tmp, tl) == 0 && work[tl] == '/' && work + tl + 1 == n) ||
		      (strncmp(work, tr, rl) == 0 && work[rl] == '/' && work + rl + 1 == n));
	if (!named) {
		rs_say(say, "  its work directory '%s' is not a tmp.* directory right in %s: %s", work,
		       tmp, alone);
		free(real);
		return -1;
	}
	w->name = n;
	w->tmp_fd = open(tr, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(real);
	struct stat st;
	int r = w->tmp_fd >= 0 ? fstatat(w->tmp_fd, n, &st, AT_SYMLINK_NOFOLLOW) : lstat(work, &st);
	if (r != 0 && errno == ENOENT)
		return 0; /* gone already: its processes may still run */
	if (r != 0 || w->tmp_fd < 0 || !S_ISDIR(st.st_mode)) {
		rs_say(say, "  its work directory %s is not a directory of its own (a symbolic link?): %s",
		       work, alone);
		rs_work_close(w);
		return -1;
	}
	w->fd = rs_open_private(w->tmp_fd, n, work, "  its work directory", say);
	if (w->fd < 0) {
		rs_say(say, "  so it is %s", alone);
		rs_work_close(w);
		return -1;
	}
	return 0;
}

/* mkdir -p under umask 077: the parents made private too. */
static int mkdirs(const char *path)
{
	char *p = strdup(path);
	if (!p)
		return -1;
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	int rc = mkdir(p, 0700) != 0 && errno != EEXIST ? -1 : 0;
	free(p);
	return rc;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *rs_state_dir(const char *tmp, int *fd, FILE *say)
{
	const char *env = getenv("PREEMPTLAB_STATE_DIR");
	char *d = NULL;
	struct stat st;
	*fd = -1;
	if (env && *env) {
		if (!is_dir(env) && (mkdirs(env) != 0 || !is_dir(env))) {
			rs_say(say, "cannot create the state directory %s (PREEMPTLAB_STATE_DIR)", env);
			return NULL;
		}
		d = strdup(env);
	} else if ((is_dir("/run/preemptlab") ||
		    (mkdir("/run/preemptlab", 0700) == 0 && chmod("/run/preemptlab", 0700) == 0)) &&
		   stat("/run/preemptlab", &st) == 0 && st.st_uid == geteuid()) {
		/* Taken only when it is this user's: a root run's is not another
		 * user's. */
		d = strdup("/run/preemptlab");
	} else {
		if (asprintf(&d, "%s/preemptlab-state-%u", tmp, (unsigned)geteuid()) < 0)
			return NULL;
		if (!is_dir(d) && mkdir(d, 0700) != 0) {
			rs_say(say, "cannot create the state directory %s", d);
			free(d);
			return NULL;
		}
	}
	if (!d)
		return NULL;
	*fd = rs_open_private(AT_FDCWD, d, d, "the run-state directory", say);
	if (*fd < 0) {
		rs_say(say, "a run's state there could be forged: make it yours and private (chmod 700) "
			    "or set PREEMPTLAB_STATE_DIR");
		free(d);
		return NULL;
	}
	return d;
}
