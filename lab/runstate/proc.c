/* Which process a pid is now (runstate.h): its start time, its state and
 * its arguments, from /proc. */
#include "runstate.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* /proc/PID/FILE into BUF (NUL-terminated); its length, or -1. */
static ssize_t proc_read(long pid, const char *file, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/%s", pid, file);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = 0;
	for (;;) {
		ssize_t r = read(fd, buf + n, len - 1 - n);
		if (r <= 0) {
			close(fd);
			if (r < 0)
				return -1;
			break;
		}
		n += (size_t)r;
		if (n == len - 1) {
			close(fd);
			break;
		}
	}
	buf[n] = '\0';
	return (ssize_t)n;
}

/* Field I (1-based) of /proc/PID/stat after the command name into OUT: the
 * name (field 2) may hold blanks and parentheses, so the fields are counted
 * after its last ')'.  -1 when PID is gone. */
static int stat_field(long pid, int i, char *out, size_t len)
{
	char buf[1024];
	if (pid <= 0 || proc_read(pid, "stat", buf, sizeof(buf)) < 0)
		return -1;
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return -1;
	p += 2;
	for (int k = 1; k < i && p; k++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p)
		return -1;
	size_t n = strcspn(p, " \n");
	if (n == 0 || n >= len)
		return -1;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

void rs_start(long pid, char *buf, size_t len)
{
	/* Field 22 of the whole line is the 20th after the name. */
	if (stat_field(pid, 20, buf, len) != 0)
		buf[0] = '\0';
}

bool rs_same(long pid, const char *start)
{
	char state[8], now[32];
	if (!rs_digits(start, 0))
		return false;
	/* A run killed outright whose parent has not waited for it yet (a
	 * shell that started it in the background) keeps its /proc entry and
	 * start time, and would otherwise be taken for a live run and its
	 * state left alone. */
	if (stat_field(pid, 1, state, sizeof(state)) != 0 || strcmp(state, "Z") == 0 ||
	    strcmp(state, "X") == 0)
		return false;
	rs_start(pid, now, sizeof(now));
	return strcmp(now, start) == 0;
}

/* PID's arguments, NUL-separated, into a malloc'd buffer; its length. */
static char *cmdline(long pid, size_t *len)
{
	size_t cap = 1 << 16;
	char *buf = malloc(cap);
	ssize_t n = buf && pid > 0 ? proc_read(pid, "cmdline", buf, cap) : -1;
	if (n < 0) {
		free(buf);
		return NULL;
	}
	*len = (size_t)n;
	return buf;
}

bool rs_is(long pid, const char *start, const char *work)
{
	size_t len, w = strlen(work);
	if (!rs_same(pid, start) || w == 0)
		return false;
	char *buf = cmdline(pid, &len);
	bool found = false;
	/* The cell runner's plan file, QEMU's initrd: WORK or a path in it. */
	for (size_t i = 0; buf && i < len && !found; i += strlen(buf + i) + 1)
		found = strncmp(buf + i, work, w) == 0 && (buf[i + w] == '\0' || buf[i + w] == '/');
	free(buf);
	return found;
}

bool rs_cmdline_has(long pid, const char *text)
{
	size_t len;
	char *buf = cmdline(pid, &len);
	if (!buf)
		return false;
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	bool found = strstr(buf, text) != NULL;
	free(buf);
	return found;
}
