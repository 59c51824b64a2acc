/* Fitting ATTACH_MAX_KB: which optional file goes next, and the report's
 * word for it (attach.h). */
#include "attach.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static long long bytes_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
}

/* The optional pieces: per-cell flame graphs (flame-C*.svg), the other
 * flame graphs, full kernel configs (not their excerpts).  The largest of
 * them all goes first; of two the same size, the one whose name sorts
 * last (as sort -rn of "BYTES NAME" lines had it). */
static const struct {
	const char *dir, *pattern, *except;
} optional[] = {
	{ "", "flame-C*.svg", NULL },
	{ "", "flame-*.svg", "flame-C*" },
	{ "kernel-configs/", "*", "*.excerpt" },
};

char *attach_victim(const char *stage, long long *bytes)
{
	char *best = NULL;
	*bytes = -1;
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++) {
		char dir[4096];
		snprintf(dir, sizeof(dir), "%s/%s", stage, optional[i].dir);
		size_t n;
		char **l = attach_glob(dir, optional[i].pattern, &n);
		for (size_t k = 0; k < n; k++) {
			const char *name = attach_base(l[k]);
			long long b = bytes_of(l[k]);
			if (b < 0 || (optional[i].except && !fnmatch(optional[i].except, name, 0)))
				continue;
			char rel[4096];
			snprintf(rel, sizeof(rel), "%s%s", optional[i].dir, name);
			if (b > *bytes || (b == *bytes && strcmp(rel, best) > 0)) {
				free(best);
				best = strdup(rel);
				*bytes = b;
			}
		}
		attach_free_list(l, n);
	}
	return best;
}

int attach_mark_dropped(const char *report, const char *name)
{
	FILE *f = fopen(report, "r");
	if (!f)
		return -1;
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);
	char buf[65536];
	size_t got;
	while (mem && (got = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, got, mem);
	fclose(f);
	if (!mem || fclose(mem))
		return -1;
	f = fopen(report, "w");
	if (!f) {
		free(text);
		return -1;
	}
	/* Each line's first NAME, taken as literal text (the shell's sed needed
	 * every character of it quoted: a '|' ended the pattern and let the
	 * rest be sed flags, its e command among them). */
	size_t nlen = strlen(name);
	for (char *p = text, *end = text + size; p < end;) {
		char *eol = memchr(p, '\n', (size_t)(end - p));
		char *stop = eol ? eol + 1 : end;
		char *hit = nlen ? memmem(p, (size_t)(stop - p), name, nlen) : NULL;
		if (hit) {
			fwrite(p, 1, (size_t)(hit - p), f);
			fputs("(dropped from the attachment) ", f);
			p = hit;
		}
		fwrite(p, 1, (size_t)(stop - p), f);
		p = stop;
	}
	free(text);
	return fclose(f) ? -1 : 0;
}

struct sized {
	char *name;
	long long bytes;
};

static int larger(const void *a, const void *b)
{
	const struct sized *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return strcmp(y->name, x->name);
}

/* Every file under DIR (REL its name in the stage) onto *L. */
static void walk(const char *dir, const char *rel, struct sized **l, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char path[4096], name[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		snprintf(name, sizeof(name), "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
		struct stat st;
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(path, name, l, n, cap);
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		if (*n == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			struct sized *m = realloc(*l, *cap * sizeof(**l));
			if (!m)
				break;
			*l = m;
		}
		(*l)[(*n)++] = (struct sized){ strdup(name), (long long)st.st_size };
	}
	closedir(d);
}

void attach_largest(const char *stage, char *buf, size_t len)
{
	struct sized *l = NULL;
	size_t n = 0, cap = 0, used = 0;
	walk(stage, "", &l, &n, &cap);
	if (n)
		qsort(l, n, sizeof(*l), larger);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (i < 5 && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s (%lld KiB)", i ? ", " : "",
						 l[i].name ? l[i].name : "?", l[i].bytes / 1024);
		free(l[i].name);
	}
	free(l);
}
