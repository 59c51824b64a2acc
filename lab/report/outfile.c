#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"

FILE *out_open(struct outfile *o, const char *dir, const char *name)
{
	o->f = NULL;
	if (snprintf(o->path, sizeof(o->path), "%s/%s", dir, name) >= (int)sizeof(o->path) ||
	    snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.XXXXXX", dir, name) >= (int)sizeof(o->tmp)) {
		txt_printf(stderr, "report: cannot write %s/%s: path too long\n", dir, name);
		return NULL;
	}
	/* mkstemp creates a new file (O_EXCL), never opening what is there. */
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		txt_printf(stderr, "report: cannot write %s: %s\n", o->path, strerror(errno));
		return NULL;
	}
	/* mkstemp makes it 0600; a report is as readable as any file made
	 * with fopen under the user's umask. */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0 || !(o->f = fdopen(fd, "w"))) {
		txt_printf(stderr, "report: cannot write %s: %s\n", o->tmp, strerror(errno));
		close(fd);
		unlink(o->tmp);
		return NULL;
	}
	return o->f;
}

int out_commit(struct outfile *o)
{
	int err = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		err = errno ? errno : EIO;
	if (fclose(o->f) != 0 && !err)
		err = errno;
	o->f = NULL;
	if (!err && rename(o->tmp, o->path) != 0)
		err = errno;
	if (err) {
		txt_printf(stderr, "report: cannot write %s: %s\n", o->path, strerror(err));
		unlink(o->tmp);
		return -1;
	}
	return 0;
}
