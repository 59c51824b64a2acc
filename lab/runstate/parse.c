/* A state file's lines (runstate.h), read the way the awk that read them
 * did: fields split at blanks, the first line of a key wins. */
#include "runstate.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

bool rs_digits(const char *s, size_t max)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (s[n] < '0' || s[n] > '9')
			return false;
	return n > 0 && (max == 0 || n <= max);
}

long rs_pid(const char *s)
{
	if (!s || !rs_digits(s, 0))
		return -1;
	long v = 0;
	for (; *s; s++) {
		v = v * 10 + (*s - '0');
		if (v > INT_MAX)
			return -1;
	}
	return v;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Field I (1-based) of the line [P, END), copied; "" when it has fewer. */
static char *field(const char *p, const char *end, int i)
{
	for (int k = 1;; k++) {
		while (p < end && blank(*p))
			p++;
		const char *f = p;
		while (p < end && !blank(*p))
			p++;
		if (f == p)
			return strdup("");
		if (k == i)
			return strndup(f, (size_t)(p - f));
	}
}

/* The line after "KEY " (awk's sub(/^KEY /, "")), else all of it. */
static char *rest(const char *p, const char *end, const char *key)
{
	size_t k = strlen(key);
	if ((size_t)(end - p) > k && memcmp(p, key, k) == 0 && p[k] == ' ')
		p += k + 1;
	return strndup(p, (size_t)(end - p));
}

static int grow(void **arr, size_t n, size_t size)
{
	void *a = realloc(*arr, (n + 1) * size);
	if (!a)
		return -1;
	*arr = a;
	return 0;
}

static int line(struct rs_state *s, const char *p, const char *end)
{
	char *key = field(p, end, 1);
	int rc = 0;
	if (!key)
		return -1;
	if (strcmp(key, "pid") == 0 && !s->pid) {
		s->pid = field(p, end, 2);
		s->pid_start = field(p, end, 3);
		rc = s->pid && s->pid_start ? 0 : -1;
	} else if (strcmp(key, "started") == 0 && !s->started) {
		rc = (s->started = field(p, end, 2)) ? 0 : -1;
	} else if (strcmp(key, "work") == 0 && !s->work) {
		rc = (s->work = rest(p, end, "work")) ? 0 : -1;
	} else if (strcmp(key, "rundir") == 0 && !s->rundir) {
		rc = (s->rundir = rest(p, end, "rundir")) ? 0 : -1;
	} else if (strcmp(key, "unit") == 0) {
		if (grow((void **)&s->units, s->n_units, sizeof(*s->units)) != 0) {
			free(key);
			return -1;
		}
		struct rs_unit *u = &s->units[s->n_units++];
		u->pid = field(p, end, 2);
		u->start = field(p, end, 3);
		u->kind = field(p, end, 4);
		rc = u->pid && u->start && u->kind ? 0 : -1;
	} else if (strcmp(key, "hugepages") == 0) {
		char *kb = field(p, end, 2), *n = field(p, end, 3);
		size_t i = 0;
		while (kb && i < s->n_pages && strcmp(s->pages[i].kb, kb) != 0)
			i++;
		if (!kb || !n) {
			rc = -1;
		} else if (i < s->n_pages) {
			/* The last count of a size wins: hugepages.sh appends a
			 * line at each change, 0 once given back. */
			free(s->pages[i].n);
			free(kb);
			s->pages[i].n = n;
			kb = n = NULL;
		} else if (grow((void **)&s->pages, s->n_pages, sizeof(*s->pages)) == 0) {
			s->pages[s->n_pages++] = (struct rs_pages){ kb, n };
			kb = n = NULL;
		} else {
			rc = -1;
		}
		free(kb);
		free(n);
	}
	free(key);
	return rc;
}

int rs_parse(const char *text, size_t len, struct rs_state *s)
{
	memset(s, 0, sizeof(*s));
	const char *end = text + len;
	for (const char *p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		/* A NUL would cut a path short, into another one. */
		if (!memchr(p, '\0', (size_t)(e - p)) && line(s, p, e) != 0) {
			rs_state_free(s);
			return -1;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

void rs_state_free(struct rs_state *s)
{
	free(s->pid);
	free(s->pid_start);
	free(s->started);
	free(s->work);
	free(s->rundir);
	for (size_t i = 0; i < s->n_units; i++) {
		free(s->units[i].pid);
		free(s->units[i].start);
		free(s->units[i].kind);
	}
	free(s->units);
	for (size_t i = 0; i < s->n_pages; i++) {
		free(s->pages[i].kb);
		free(s->pages[i].n);
	}
	free(s->pages);
	memset(s, 0, sizeof(*s));
}
