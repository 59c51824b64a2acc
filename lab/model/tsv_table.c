#include "tsv_table.h"

#include <stdlib.h>
#include <string.h>

static char *slurp(FILE *f)
{
	size_t len = 0, cap = 4096;
	char *s = malloc(cap);
	size_t n;
	while (s && (n = fread(s + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			char *t = realloc(s, cap *= 2);
			if (!t)
				free(s);
			s = t;
		}
	}
	if (s)
		s[len] = '\0';
	return s;
}

/* The fields of the line at *P, TAB-cut in place; *P moved past it. */
static int cut_line(char **p, char **out, int max)
{
	char *s = *p, *end = strchr(s, '\n');
	if (end)
		*end = '\0';
	*p = end ? end + 1 : s + strlen(s);
	int n = 0;
	for (char *f = s;; f++) {
		if (n < max)
			out[n] = f;
		n++;
		if (!(f = strchr(f, '\t')))
			break;
		*f = '\0';
	}
	return n;
}

int tsv_table_read(FILE *f, struct tsv_table *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	if (!(t->text = slurp(f))) {
		snprintf(err, errlen, "the table could not be read");
		return -1;
	}
	int lines = 0;
	for (const char *c = t->text; *c; c++)
		lines += *c == '\n' || (c[1] == '\0');
	if (lines == 0) {
		snprintf(err, errlen, "the table is empty: no line naming its columns");
		free(t->text);
		t->text = NULL;
		return -1;
	}
	t->ncols = 1;
	for (const char *c = t->text; *c && *c != '\n'; c++)
		t->ncols += *c == '\t';
	char *p = t->text;
	t->field = calloc((size_t)lines * (size_t)t->ncols, sizeof(char *));
	if (!t->field) {
		snprintf(err, errlen, "the table could not be read");
		tsv_table_free(t);
		return -1;
	}
	for (int row = 0; *p; row++) {
		int n = cut_line(&p, t->field + (size_t)row * (size_t)t->ncols, t->ncols);
		if (n != t->ncols) {
			snprintf(err, errlen, "the table's line %d has %d fields, its header %d", row + 1, n,
				 t->ncols);
			tsv_table_free(t);
			return -1;
		}
		t->nrows = row;
	}
	return 0;
}

int tsv_table_col(const struct tsv_table *t, const char *name, char *err, size_t errlen)
{
	for (int c = 0; c < t->ncols; c++)
		if (strcmp(t->field[c], name) == 0)
			return c;
	snprintf(err, errlen, "the table has no column %s", name);
	return -1;
}

const char *tsv_table_get(const struct tsv_table *t, int row, int col)
{
	return t->field[(size_t)(row + 1) * (size_t)t->ncols + (size_t)col];
}

void tsv_table_free(struct tsv_table *t)
{
	free(t->field);
	free(t->text);
	memset(t, 0, sizeof(*t));
}
