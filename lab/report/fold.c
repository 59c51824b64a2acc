/*
 * A hash of stacks to counts.  Profiles of a few seconds hold a few
 * thousand distinct stacks; open addressing with FNV-1a keeps it simple.
 */
#include "fold.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "fold: out of memory\n");
		exit(1);
	}
	return p;
}

static size_t hash(const char *s)
{
	size_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

void fold_init(struct folded *f)
{
	memset(f, 0, sizeof(*f));
}

void fold_free(struct folded *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->e[i].stack);
	free(f->e);
	free(f->slot);
	fold_init(f);
}

static void rehash(struct folded *f)
{
	f->nslot = f->nslot ? f->nslot * 2 : 1024;
	free(f->slot);
	f->slot = calloc(f->nslot, sizeof(*f->slot));
	if (!f->slot)
		exit(1);
	for (size_t i = 0; i < f->n; i++) {
		size_t h = hash(f->e[i].stack) & (f->nslot - 1);
		while (f->slot[h])
			h = (h + 1) & (f->nslot - 1);
		f->slot[h] = i + 1;
	}
}

void fold_add(struct folded *f, const char *stack, double count)
{
	if ((f->n + 1) * 2 > f->nslot)
		rehash(f);
	size_t h = hash(stack) & (f->nslot - 1);
	while (f->slot[h]) {
		struct fold_entry *e = &f->e[f->slot[h] - 1];
		if (!strcmp(e->stack, stack)) {
			e->count += count;
			f->total += count;
			return;
		}
		h = (h + 1) & (f->nslot - 1);
	}
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 256;
		f->e = xrealloc(f->e, f->cap * sizeof(*f->e));
	}
	f->e[f->n].stack = strdup(stack);
	if (!f->e[f->n].stack)
		exit(1);
	f->e[f->n].count = count;
	f->slot[h] = ++f->n;
	f->total += count;
}

/*
 * A count is a decimal integer of at most 15 digits, exact as a double.
 * strtod also took "nan", "inf", "0x10" and "1e3": a NaN total drew an
 * empty graph, and an infinite one NaN coordinates.
 */
static int count_of(const char *s, double *c)
{
	size_t n = strspn(s, "0123456789");
	if (!n || s[n] || n > 15)
		return -1;
	*c = strtod(s, NULL);
	return 0;
}

int fold_read(struct folded *f, FILE *in, const char *name, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long lineno = 0;
	while ((len = getline(&line, &cap, in)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (!len)
			continue;
		char *sp = strrchr(line, ' ');
		double c = 0;
		if (!sp || sp == line || count_of(sp + 1, &c)) {
			snprintf(err, errlen, "%s:%ld: not a folded line (\"frame;frame;... count\", "
				 "the count a decimal integer)", name, lineno);
			free(line);
			return -1;
		}
		*sp = 0;
		fold_add(f, line, c);
	}
	free(line);
	return 0;
}

int fold_read_file(struct folded *f, const char *path, char *err, size_t errlen)
{
	FILE *in = fopen(path, "r");
	if (!in) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	int rc = fold_read(f, in, path, err, errlen);
	fclose(in);
	return rc;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fold_entry *)a)->stack, ((const struct fold_entry *)b)->stack);
}

void fold_sort(struct folded *f)
{
	if (f->n)  /* an empty profile has no array: NULL is not for qsort */
		qsort(f->e, f->n, sizeof(*f->e), entry_cmp);
	size_t ns = f->nslot;
	f->nslot /= 2;  /* rehash doubles it back */
	if (ns)
		rehash(f);
}

void fold_write(const struct folded *f, FILE *out)
{
	for (size_t i = 0; i < f->n; i++)
		fprintf(out, "%s %.0f\n", f->e[i].stack, f->e[i].count);
}

int sym_is_spin(const char *name)
{
	/* PostgreSQL's s_lock/perform_spin_delay and the lab's loops
	 * (buffer_pool/s_lock.c, lab_lock.c, mcs_lock.c).  Kernel spinlocks
	 * are not the strategy lock and rank by their samples like the rest. */
	static const char *pat[] = { "s_lock", "spin_delay", "tas_acquire", "tas_spin",
				     "mcs_acquire", "lab_lock_acquire" };
	size_t l = strlen(name);
	if (l > 4 && !strcmp(name + l - 4, "_[k]"))
		return 0;
	for (size_t i = 0; i < sizeof(pat) / sizeof(pat[0]); i++)
		if (strstr(name, pat[i]))
			return 1;
	return 0;
}

static int sym_cmp(const void *pa, const void *pb)
{
	const struct symstat *a = pa, *b = pb;
	int sa = sym_is_spin(a->name), sb = sym_is_spin(b->name);
	if (sa != sb)
		return sb - sa;
	/* A spin loop's share is what runs under it (total). */
	if (sa && a->total != b->total)
		return a->total < b->total ? 1 : -1;
	if (a->self != b->self)
		return a->self < b->self ? 1 : -1;
	if (a->total != b->total)
		return a->total < b->total ? 1 : -1;
	return strcmp(a->name, b->name);
}

size_t fold_symbols(const struct folded *f, struct symstat **out)
{
	struct folded self, total;
	fold_init(&self);
	fold_init(&total);
	for (size_t i = 0; i < f->n; i++) {
		char *s = strdup(f->e[i].stack);
		if (!s)
			exit(1);
		/* Count a frame once per stack for total, even under recursion. */
		struct folded seen;
		fold_init(&seen);
		char *save = NULL, *last = NULL;
		for (char *tok = strtok_r(s, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
			size_t before = seen.n;
			fold_add(&seen, tok, 1);
			if (seen.n != before)
				fold_add(&total, tok, f->e[i].count);
			last = tok;
		}
		if (last)
			fold_add(&self, last, f->e[i].count);
		fold_free(&seen);
		free(s);
	}
	struct symstat *st = calloc(total.n + 1, sizeof(*st));
	if (!st)
		exit(1);
	for (size_t i = 0; i < total.n; i++) {
		st[i].name = strdup(total.e[i].stack);
		st[i].total = total.e[i].count;
		st[i].self = 0;
	}
	for (size_t j = 0; j < self.n; j++)
		for (size_t i = 0; i < total.n; i++)
			if (!strcmp(st[i].name, self.e[j].stack)) {
				st[i].self = self.e[j].count;
				break;
			}
	size_t n = total.n;
	fold_free(&self);
	fold_free(&total);
	qsort(st, n, sizeof(*st), sym_cmp);
	*out = st;
	return n;
}

void fold_symbols_free(struct symstat *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}
