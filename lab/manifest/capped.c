/* Capped readers of the manifest tools' files (capped.h). */
#include "capped.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An fd on PATH, a regular file within the cap; -1 with why in ERR. */
static int capped_fd(const char *path, size_t *size, char *err, size_t errlen)
{
	/* O_NONBLOCK: a FIFO named as a document must not block the open. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > CAPPED_MAX_FILE) {
		snprintf(err, errlen, "%s: %s", path,
			 S_ISREG(st.st_mode) ? "larger than 64 MiB: not one of the lab's documents"
					     : "not a regular file");
		close(fd);
		return -1;
	}
	*size = (size_t)st.st_size;
	return fd;
}

json_t *capped_load(const char *path, size_t flags, char *err, size_t errlen)
{
	size_t size;
	int fd = capped_fd(path, &size, err, errlen);
	if (fd < 0)
		return NULL;
	/* One byte past its size: a file that grew past the cap since is refused too. */
	size_t room = size + 1;
	char *buf = malloc(room);
	size_t got = 0;
	ssize_t r = 0;
	while (buf && (r = read(fd, buf + got, room - got)) > 0) {
		got += (size_t)r;
		if (got == room && room <= CAPPED_MAX_FILE) {
			room = room * 2 > CAPPED_MAX_FILE + 1 ? CAPPED_MAX_FILE + 1 : room * 2;
			char *b = realloc(buf, room);
			if (!b) {
				free(buf);
				buf = NULL;
			}
			buf = b;
		}
		if (got > CAPPED_MAX_FILE)
			break;
	}
	close(fd);
	if (!buf || r < 0 || got > CAPPED_MAX_FILE) {
		snprintf(err, errlen, "%s: %s", path,
			 !buf  ? "out of memory"
			 : r < 0 ? strerror(errno)
				 : "larger than 64 MiB: not one of the lab's documents");
		free(buf);
		return NULL;
	}
	json_error_t je;
	json_t *doc = json_loadb(buf, got, flags, &je);
	free(buf);
	if (!doc)
		snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
	return doc;
}

FILE *capped_open(const char *path, char *err, size_t errlen)
{
	size_t size;
	int fd = capped_fd(path, &size, err, errlen);
	if (fd < 0)
		return NULL;
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	FILE *f = fdopen(fd, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}
