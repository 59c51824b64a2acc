/*
 * build/runstate: a run's state file and the sweep of dead runs' (see
 * runstate.h); scripts/run-state.sh's functions call it.
 *
 *   runstate dir                    the state directory, checked (made
 *                                   when missing); exit 1 when not private
 *   runstate recover DIR SELF       undo what runs killed outright left
 *                                   (their state files in DIR); SELF is the
 *                                   pid of the run that undoes, for the mark
 *   runstate begin SELF WORK RUNDIR recover, then create the state file of
 *                                   the run SELF; its path on stdout
 *   runstate unit FILE PID KIND     record the unit PID (host|guest), with
 *                                   its start time
 *
 * Messages go to stderr as "preemptlab: ..." lines; usage errors exit 2.
 */
#include "runstate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing",
					     NULL };

static int usage(void)
{
	fprintf(stderr, "usage: runstate dir | recover DIR SELF | begin SELF WORK RUNDIR | "
			"unit FILE PID host|guest\n");
	return 2;
}

static struct rs_ctx context(const char *tmp, const char *self)
{
	return (struct rs_ctx){ .tmp = tmp, .hp_root = "/sys/kernel/mm/hugepages",
				.tracefs = tracefs_roots, .self = rs_pid(self), .term_wait_s = 1,
				.say = stderr };
}

static int recover(const char *tmp, const char *dir, const char *self)
{
	struct rs_ctx c = context(tmp, self);
	/* Checked again: the directory is named by the caller. */
	int fd = rs_open_private(AT_FDCWD, dir, dir, "the run-state directory", stderr);
	if (fd < 0) {
		rs_say(stderr, "a run's state there could be forged: make it yours and private "
			       "(chmod 700) or set PREEMPTLAB_STATE_DIR");
		return 1;
	}
	rs_recover(&c, fd, dir);
	close(fd);
	return 0;
}

static int begin(const char *tmp, const char *self, const char *work, const char *rundir)
{
	struct rs_ctx c = context(tmp, self);
	int dfd;
	char *dir = rs_state_dir(tmp, &dfd, stderr), name[64], start[32], now[32];
	if (!dir)
		return 1;
	rs_recover(&c, dfd, dir);
	rs_start(c.self, start, sizeof(start));
	time_t t = time(NULL);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	snprintf(name, sizeof(name), "run-%s.state", self);
	/* Created anew, never through a link; private whatever the umask. */
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	bool ok = f && fprintf(f, "pid %s %s\nstarted %s\nwork %s\nrundir %s\n", self, start, now,
			       work, rundir) > 0;
	ok = f ? fclose(f) == 0 && ok : false;
	if (!ok) {
		rs_say(stderr, "cannot create the run-state file %s/%s (one is already there?)", dir, name);
		free(dir);
		close(dfd);
		return 1;
	}
	printf("%s/%s\n", dir, name);
	free(dir);
	close(dfd);
	return 0;
}

/* A unit started by this run, with its start time so that a later run
 * knows it from a process that reused the pid.  PID is a child not yet
 * waited for, so its /proc entry is still its own. */
static int unit(const char *file, const char *pid, const char *kind)
{
	char start[32];
	rs_start(rs_pid(pid), start, sizeof(start));
	int fd = open(file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "a");
	bool ok = f && fprintf(f, "unit %s %s %s\n", pid, start, kind) > 0;
	ok = f ? fclose(f) == 0 && ok : false;
	if (!ok) {
		rs_say(stderr, "cannot record the unit %s in the run-state file %s: %s", pid, file,
		       strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	char *tmp = rs_tmp();
	int rc;
	if (!tmp)
		return 1;
	if (strcmp(argv[1], "dir") == 0 && argc == 2) {
		int fd;
		char *dir = rs_state_dir(tmp, &fd, stderr);
		rc = dir ? 0 : 1;
		if (dir) {
			printf("%s\n", dir);
			close(fd);
		}
		free(dir);
	} else if (strcmp(argv[1], "recover") == 0 && argc == 4 && rs_pid(argv[3]) > 0) {
		rc = recover(tmp, argv[2], argv[3]);
	} else if (strcmp(argv[1], "begin") == 0 && argc == 5 && rs_pid(argv[2]) > 0) {
		rc = begin(tmp, argv[2], argv[3], argv[4]);
	} else if (strcmp(argv[1], "unit") == 0 && argc == 5 && rs_pid(argv[3]) > 0 &&
		   (strcmp(argv[4], "host") == 0 || strcmp(argv[4], "guest") == 0)) {
		rc = unit(argv[2], argv[3], argv[4]);
	} else {
		rc = usage();
	}
	free(tmp);
	return rc;
}
