#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The document is written into an unnamed file (O_TMPFILE) in the target's
 * directory, so that a bufbench killed with SIGKILL leaves nothing behind;
 * it gets a name only when complete.  Filesystems without O_TMPFILE get a
 * named temporary file instead.
 */
int out_open(struct out_file *o, const char *path)
{
	struct stat st;
	char dir[4096];

	memset(o, 0, sizeof(*o));
	o->target = path ? path : "stdout";
	if (!path) {
		o->f = stdout;
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "w");
		return o->f ? 0 : -1;
	}
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.%d", path, (int)getpid()) >=
	    sizeof(o->tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	int fd = open(dirname(dir), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	o->unnamed = fd >= 0;
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			if (!o->unnamed)
				unlink(o->tmp);
		}
		errno = e;
		o->tmp[0] = '\0';
		return -1;
	}
	return 0;
}

int out_commit(struct out_file *o)
{
	int failed = fflush(o->f) != 0 || ferror(o->f);
	int e = errno;
	if (!failed && o->tmp[0] && o->unnamed) {
		char proc[64];
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fileno(o->f));
		if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) != 0) {
			failed = 1;
			e = errno;
			o->tmp[0] = '\0';	/* nothing was named */
		}
	}
	if (o->f != stdout && fclose(o->f) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	o->f = NULL;
	if (!failed && o->tmp[0] && rename(o->tmp, o->target) != 0) {
		failed = 1;
		e = errno;
	}
	if (failed && o->tmp[0] && (!o->unnamed || access(o->tmp, F_OK) == 0))
		unlink(o->tmp);
	o->tmp[0] = '\0';
	errno = e;
	return failed ? -1 : 0;
}

void out_abandon(struct out_file *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0] && !o->unnamed)
		unlink(o->tmp);
	o->tmp[0] = '\0';
}
