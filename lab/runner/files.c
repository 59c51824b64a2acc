/*
 * Small file chores of the cell runner (runner.h), each the shell
 * command it stands for.
 */
#include "runner.h"
#include "text.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void strf(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, size, fmt, ap);
	va_end(ap);
}

char *file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t n = 0, cap = 4096, r;
	char *s = malloc(cap + 1);
	while (s && (r = fread(s + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			char *g = realloc(s, cap * 2 + 1);
			if (!g) {
				free(s);
				s = NULL;
				break;
			}
			s = g;
			cap *= 2;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (!s || bad) {
		free(s);
		return NULL;
	}
	s[n] = '\0';
	if (len)
		*len = n;
	return s;
}

int file_get(const char *path, char *out, size_t size)
{
	char *s = file_read(path, NULL);
	if (!s) {
		out[0] = '\0';
		return -1;
	}
	text_chomp(s);
	strf(out, size, "%s", s);
	free(s);
	return 0;
}

int file_put(const char *path, const char *value)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	/* One write: a kernel file takes its value from the first. */
	int bad = fprintf(f, "%s\n", value) < 0;
	return fclose(f) || bad ? -1 : 0;
}

void file_cat(const char *path)
{
	size_t len;
	char *s = file_read(path, &len);
	if (!s)
		return;
	fflush(stdout);
	fwrite(s, 1, len, stdout);
	fflush(stdout);
	free(s);
}

void file_tail(const char *path, int n, int blanks, char *out, size_t size)
{
	size_t len;
	char *s = file_read(path, &len);
	out[0] = '\0';
	if (!s)
		return;
	strf(out, size, "%s", text_tail(s, len, n));
	free(s);
	if (blanks)
		text_nl_to_blank(out);
	else
		text_chomp(out);
}

int file_exists(const char *path)
{
	struct stat st;
	return !stat(path, &st);
}

int file_regular(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int file_nonempty(const char *path)
{
	struct stat st;
	return !stat(path, &st) && st.st_size > 0;
}

long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) ? 0 : (long)st.st_size;
}

void remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st))
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char sub[4096];
			strf(sub, sizeof(sub), "%s/%s", path, e->d_name);
			remove_tree(sub);
		}
		if (d)
			closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}
