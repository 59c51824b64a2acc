/*
 * A profile arrives gzipped and is unpacked by `gzip -dc`, a child
 * process: no library for it.  A guest's gzip may unpack to anything (100
 * MB from 97 KB, issue 28), so at most max bytes plus one are kept and the
 * rest is read and dropped: gzip still checks the whole stream, and its
 * status says whether it was whole and valid, as `gzip -t` did first when
 * scripts/qemu-channel.sh did this.
 */
#include "channel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* An unlinked temporary file in dir holding data, at its start: gzip's
 * stdin.  A pipe would need a writer beside the reader. */
static int input_file(const char *dir, const unsigned char *data, size_t n)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof(tmp), "%s/.gz.XXXXXX", dir) >= (int)sizeof(tmp))
		return -1;
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -1;
	unlink(tmp);
	for (size_t done = 0; done < n;) {
		ssize_t w = write(fd, data + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static pid_t spawn_gzip(int in, int out)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	int null = open("/dev/null", O_WRONLY);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || null < 0 || dup2(null, 2) < 0)
		_exit(127);
	signal(SIGPIPE, SIG_DFL);
	execlp("gzip", "gzip", "-dc", (char *)NULL);
	_exit(127);
}

int chan_gunzip(const unsigned char *data, size_t n, const char *dir, const char *name,
		uint64_t max)
{
	int in = input_file(dir, data, n);
	if (in < 0) {
		fprintf(stderr, "preemptlab: channel: cannot write in %s: %s\n", dir, strerror(errno));
		return -1;
	}
	int p[2];
	/* Close-on-exec: gzip's end is dup2'd to its stdout, which clears it. */
	if (pipe2(p, O_CLOEXEC) != 0) {
		fprintf(stderr, "preemptlab: channel: pipe: %s\n", strerror(errno));
		close(in);
		return -1;
	}
	char tmp[4096];
	int out = chan_tmp_open(tmp, sizeof(tmp), dir, name);
	if (out >= 0)
		fcntl(out, F_SETFD, FD_CLOEXEC);
	pid_t pid = out < 0 ? -1 : spawn_gzip(in, p[1]);
	close(in);
	close(p[1]);
	if (pid < 0) {
		if (out >= 0) {
			fprintf(stderr, "preemptlab: channel: cannot run gzip: %s\n", strerror(errno));
			chan_tmp_drop(out, tmp);
		}
		close(p[0]);
		return -1;
	}
	uint64_t got = 0;
	int werr = 0;
	char buf[65536];
	for (;;) {
		ssize_t r = read(p[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		/* Kept: up to max + 1 bytes, enough to tell "over the cap". */
		uint64_t room = got > max ? 0 : max + 1 - got;
		size_t keep = (uint64_t)r < room ? (size_t)r : (size_t)room;
		for (size_t done = 0; done < keep && !werr;) {
			ssize_t w = write(out, buf + done, keep - done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				werr = w < 0 ? errno : EIO;
			else
				done += (size_t)w;
		}
		got += (uint64_t)r;
	}
	close(p[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (werr) {
		fprintf(stderr, "preemptlab: channel: cannot write %s: %s\n", tmp, strerror(werr));
		chan_tmp_drop(out, tmp);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		chan_tmp_drop(out, tmp);
		return 1;
	}
	if (got > max) {
		chan_tmp_drop(out, tmp);
		return 2;
	}
	return chan_tmp_commit(out, tmp, dir, name);
}
