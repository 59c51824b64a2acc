/* What a run killed outright left, undone (runstate.h): its units stopped,
 * its huge pages given back, its results marked, its work directory
 * removed. */
#include "runstate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void rs_stop_units(const struct rs_ctx *c, const struct rs_state *s, const char *work)
{
	for (size_t i = 0; i < s->n_units; i++) {
		const struct rs_unit *u = &s->units[i];
		if (!rs_digits(u->pid, 0))
			continue;
		if (!*u->kind) {
			/* An old state file: "unit PID KIND", no start time. */
			rs_say(c->say, "  its unit pid %s has no start time recorded: not stopped "
				       "(check it yourself)", u->pid);
			continue;
		}
		long pid = rs_pid(u->pid);
		if (pid < 0 || kill((pid_t)pid, 0) != 0)
			continue;
		if (pid <= 1 || !rs_is(pid, u->start, work)) {
			rs_say(c->say, "  pid %s is not its unit (another start time, or not running "
				       "in %s): not stopped", u->pid, work);
			continue;
		}
		if (strcmp(u->kind, "host") == 0) {
			rs_say(c->say, "  its cell runner, process group %s, still ran: stopped", u->pid);
			kill(-(pid_t)pid, SIGTERM);
			sleep(c->term_wait_s);
			/* While the group exists its id is taken; the leader gone,
			 * what is left of the group is still the runner's. */
			if (rs_same(pid, u->start) || kill((pid_t)pid, 0) != 0)
				kill(-(pid_t)pid, SIGKILL);
		} else if (strcmp(u->kind, "guest") == 0) {
			rs_say(c->say, "  its guest, QEMU pid %s, still ran: stopped", u->pid);
			kill((pid_t)pid, SIGKILL);
		}
	}
}

/* A count from a one-line sysfs file, or -1. */
static long read_count(const char *path)
{
	char buf[32], *end;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	errno = 0;
	long v = strtol(buf, &end, 10);
	return errno || end == buf || v < 0 || (*end && *end != '\n') ? -1 : v;
}

static int write_count(const char *path, long v)
{
	char buf[32];
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int len = snprintf(buf, sizeof(buf), "%ld\n", v);
	ssize_t n = write(fd, buf, (size_t)len);
	return close(fd) == 0 && n == len ? 0 : -1;
}

void rs_give_back(const struct rs_ctx *c, const struct rs_state *s)
{
	for (size_t i = 0; i < s->n_pages; i++) {
		const struct rs_pages *p = &s->pages[i];
		if (!rs_digits(p->kb, 8))
			continue;
		if (!rs_digits(p->n, 8)) {
			rs_say(c->say, "  huge pages of %s kB: '%s' is not a count: left alone", p->kb, p->n);
			continue;
		}
		long n = strtol(p->n, NULL, 10);
		if (n <= 0)
			continue;
		char pool[512];
		snprintf(pool, sizeof(pool), "%s/hugepages-%skB/nr_hugepages", c->hp_root, p->kb);
		long now = read_count(pool);
		if (now < 0)
			continue;
		/* By difference, as scripts/hugepages.sh gives back its own: a
		 * job beside it that reserved pages meanwhile keeps them; but
		 * never more than there are. */
		if (n > now)
			rs_say(c->say, "  %s huge pages of %s kB it had reserved: more than the pool "
				       "holds (%ld): left alone", p->n, p->kb, now);
		else if (write_count(pool, now - n) == 0)
			rs_say(c->say, "  %s huge pages of %s kB it had reserved: given back (%ld -> %ld)",
			       p->n, p->kb, now, read_count(pool));
		else
			rs_say(c->say, "  %s huge pages of %s kB it had reserved: could not give them "
				       "back (%s)", p->n, p->kb, pool);
	}
}

void rs_mark(const struct rs_ctx *c, const char *rundir)
{
	static const char *const what = "  its results directory";
	struct stat st;
	char *logs = NULL, *manifest = NULL;
	if (!rundir || !*rundir || asprintf(&logs, "%s/logs", rundir) < 0)
		return;
	if (asprintf(&manifest, "%s/manifest.json", rundir) < 0)
		manifest = NULL;
	bool unfinished = manifest && stat(logs, &st) == 0 && S_ISDIR(st.st_mode) &&
			  !(stat(manifest, &st) == 0 && S_ISREG(st.st_mode));
	free(manifest);
	if (!unfinished) {
		free(logs);
		return;
	}
	/* Only into this user's own real directories, as a new file: never
	 * through a symbolic link. */
	int rfd = rs_open_private(AT_FDCWD, rundir, rundir, what, c->say);
	int lfd = rfd < 0 ? -1 : rs_open_private(rfd, "logs", logs, what, c->say);
	free(logs);
	if (lfd < 0) {
		rs_say(c->say, "  so its results are not marked");
	} else {
		int fd = openat(lfd, "killed-outright.txt",
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		char text[128];
		int len = snprintf(text, sizeof(text),
				   "killed outright: no manifest; found and undone by the run of pid %ld\n",
				   c->self);
		if (fd >= 0 && write(fd, text, (size_t)len) == len && close(fd) == 0)
			rs_say(c->say, "  its results %s have no manifest: marked (logs/killed-outright.txt)",
			       rundir);
		else
			rs_say(c->say, "  its results %s have no manifest; logs/killed-outright.txt already "
				       "exists (or cannot be created): not written", rundir);
	}
	if (rfd >= 0)
		close(rfd);
	if (lfd >= 0)
		close(lfd);
}

/* Empty the directory AT (its entries' links never followed, no other file
 * system entered); 0, or -1 with errno of the first failure. */
static int empty_dir(int at, dev_t dev)
{
	int fd = openat(at, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int err = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		struct stat st;
		if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0)
			continue;
		if (fstatat(fd, n, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			if (errno != ENOENT)
				err = err ? err : errno;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			int sub = st.st_dev == dev ? openat(fd, n, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
			if (sub < 0) {
				err = err ? err : st.st_dev == dev ? errno : EXDEV;
				continue;
			}
			if (empty_dir(sub, dev) != 0)
				err = err ? err : errno;
			close(sub);
		}
		if (unlinkat(fd, n, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) != 0 && errno != ENOENT)
			err = err ? err : errno;
	}
	closedir(d);
	errno = err;
	return err ? -1 : 0;
}

int rs_remove_work(const struct rs_work *w)
{
	struct stat st, now;
	if (w->fd < 0 || fstat(w->fd, &st) != 0)
		return -1;
	if (empty_dir(w->fd, st.st_dev) != 0)
		return -1;
	/* Its name still the directory emptied, not one put there since; or
	 * gone already (its stopped runner removed it). */
	if (fstatat(w->tmp_fd, w->name, &now, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 1 : -1;
	if (now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
		errno = ESTALE;
		return -1;
	}
	return unlinkat(w->tmp_fd, w->name, AT_REMOVEDIR);
}
