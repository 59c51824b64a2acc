/*
 * Every file build/channel writes is written to a new temporary file in
 * its directory and renamed over its name: a reader (the report, the
 * runner's next look) never sees half a run, and a signal (Ctrl-C reaches
 * this program too while run-plan.sh waits for it) removes the temporary
 * file instead of leaving it in RUNS, LOGS or PERF.
 */
#include "channel.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file now being written, for the signal handler. */
static char pending[4096];
static volatile sig_atomic_t have_pending;

static void on_signal(int sig)
{
	if (have_pending)
		unlink(pending);
	signal(sig, SIG_DFL);
	raise(sig);
}

void chan_tmp_signals(void)
{
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

int chan_tmp_open(char *tmp, size_t size, const char *dir, const char *name)
{
	if (snprintf(tmp, size, "%s/.%s.XXXXXX", dir, name) >= (int)size ||
	    strlen(tmp) >= sizeof(pending)) {
		fprintf(stderr, "preemptlab: channel: cannot write %s/%s: path too long\n", dir, name);
		return -1;
	}
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	/* mkstemp creates a new file (O_EXCL), never opening what is there. */
	int fd = mkstemp(tmp);
	if (fd >= 0) {
		memcpy(pending, tmp, strlen(tmp) + 1);
		have_pending = 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		fprintf(stderr, "preemptlab: channel: cannot write in %s: %s\n", dir, strerror(errno));
		return -1;
	}
	/* mkstemp makes it 0600; the file is as readable as one the shell's
	 * mv left under the user's umask. */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0) {
		fprintf(stderr, "preemptlab: channel: cannot write %s: %s\n", tmp, strerror(errno));
		chan_tmp_drop(fd, tmp);
		return -1;
	}
	return fd;
}

void chan_tmp_drop(int fd, const char *tmp)
{
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	have_pending = 0;
}

int chan_tmp_commit(int fd, const char *tmp, const char *dir, const char *name)
{
	char path[4096];
	int err = 0;
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		err = ENAMETOOLONG;
	if (close(fd) != 0 && !err)
		err = errno;
	if (!err && rename(tmp, path) != 0)
		err = errno;
	if (err) {
		fprintf(stderr, "preemptlab: channel: cannot write %s/%s: %s\n", dir, name, strerror(err));
		chan_tmp_drop(-1, tmp);
		return -1;
	}
	have_pending = 0;
	return 0;
}

int chan_write(const char *dir, const char *name, const unsigned char *data, size_t n)
{
	char tmp[4096];
	int fd = chan_tmp_open(tmp, sizeof(tmp), dir, name);
	if (fd < 0)
		return -1;
	for (size_t done = 0; done < n;) {
		ssize_t w = write(fd, data + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fprintf(stderr, "preemptlab: channel: cannot write %s: %s\n", tmp,
				strerror(w < 0 ? errno : EIO));
			chan_tmp_drop(fd, tmp);
			return -1;
		}
		done += (size_t)w;
	}
	return chan_tmp_commit(fd, tmp, dir, name);
}

int chan_mkdirs(const char *path)
{
	char p[4096];
	if (!*path || snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p)) {
		fprintf(stderr, "preemptlab: channel: cannot create '%s': %s\n", path,
			*path ? "path too long" : "no such directory");
		return -1;
	}
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char was = *s;
		*s = '\0';
		struct stat st;
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			fprintf(stderr, "preemptlab: channel: cannot create %s: %s\n", p, strerror(errno));
			return -1;
		}
		if (was == '\0') {
			if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
				fprintf(stderr, "preemptlab: channel: cannot create %s: not a directory\n", p);
				return -1;
			}
			return 0;
		}
		*s = was;
	}
}
