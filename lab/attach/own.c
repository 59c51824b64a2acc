/* The run's own files, and the helpers every part of build/attach uses (attach.h). */
#include "attach.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool attach_limit(const char *name, const char *deflt, struct attach_limit *l)
{
	const char *v = getenv(name);
	l->name = name;
	l->text = v && v[0] ? v : deflt;
	l->kb = 0;
	bool digits = l->text[0] != '\0';
	for (const char *p = l->text; *p; p++) {
		if (*p < '0' || *p > '9')
			digits = false;
		/* A limit past 2^44 KiB is no limit: saturate instead of wrapping. */
		else if (l->kb < (1ULL << 44))
			l->kb = l->kb * 10 + (unsigned)(*p - '0');
	}
	if (!digits)
		attach_note("%s=%s is not a number of KiB", name, l->text);
	return digits;
}

void attach_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("preemptlab: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

const char *attach_shown(const char *s)
{
	static char buf[2][PATH_MAX];
	static int turn;
	char *b = buf[turn ^= 1];
	size_t i = 0;
	for (; s[i] && i + 1 < sizeof(buf[0]); i++)
		b[i] = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f ? '?' : s[i];
	b[i] = '\0';
	return b;
}

const char *attach_base(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

char *attach_realpath(const char *path)
{
	char *r = realpath(path, NULL);
	if (r || errno != ENOENT)
		return r;
	/* realpath(1) without -e: the last component need not exist. */
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	char *d = dir ? realpath(dir, NULL) : NULL;
	free(dir);
	if (!d)
		return NULL;
	const char *last = slash ? slash + 1 : path;
	size_t n = strlen(d) + strlen(last) + 2;
	r = malloc(n);
	if (r)
		snprintf(r, n, "%s%s%s", d, strcmp(d, "/") ? "/" : "", last);
	free(d);
	return r;
}

bool attach_own_file(const char *path, const char *under, const struct attach_limit *file_max)
{
	struct stat st;
	const char *name = attach_base(path);
	if (lstat(path, &st) != 0)
		return false;
	if (!S_ISREG(st.st_mode)) {
		attach_note("left out of the attachment: %s is not a regular file (a link, FIFO or device)",
			    attach_shown(name));
		return false;
	}
	/* The manifest lists one name a line, its fields split by tabs: a name
	 * with a newline, a tab or another control character has no place
	 * there (spaces and glob characters are fine, and kept). */
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			attach_note("left out of the attachment: '%s' has a control character (a newline, a tab, an escape) in its name",
				    attach_shown(name));
			return false;
		}
	/* A hard link passes the real path test below wherever its other name
	 * is (ln /etc/shadow RUN/logs/failed-x.txt): a run's own file has one
	 * link. */
	if (st.st_nlink > 1) {
		attach_note("left out of the attachment: %s has %lu hard links, so it may be any file of this machine, not the run's own",
			    attach_shown(name), (unsigned long)st.st_nlink);
		return false;
	}
	char *real = realpath(path, NULL);
	size_t n = strlen(under);
	bool inside = real && !strncmp(real, under, n) && real[n] == '/';
	free(real);
	if (!inside) {
		attach_note("left out of the attachment: %s lies outside %s", name, under);
		return false;
	}
	if ((unsigned long long)st.st_size > file_max->kb * 1024) {
		attach_note("left out of the attachment: %s is over %s=%s", attach_shown(name),
			    file_max->name, file_max->text);
		return false;
	}
	return true;
}

static int by_bytes(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **attach_glob(const char *dir, const char *pattern, size_t *n)
{
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	char **list = NULL;
	size_t cap = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (fnmatch(pattern, e->d_name, FNM_PERIOD) != 0)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			char **l = realloc(list, cap * sizeof(*l));
			if (!l)
				break;
			list = l;
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		if (!(list[*n] = malloc(len)))
			break;
		snprintf(list[*n], len, "%s/%s", dir, e->d_name);
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(list, *n, sizeof(*list), by_bytes);
	return list;
}

void attach_free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}
