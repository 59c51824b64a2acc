#include "doc_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

struct doc_row *doc_row_named(const void *rows, size_t n, size_t size, const char *kernel,
			      const char *model)
{
	for (size_t i = 0; i < n; i++) {
		struct doc_row *c = (struct doc_row *)((const char *)rows + i * size);
		if (!strcmp(c->kernel, kernel) && !strcmp(c->model, model))
			return c;
	}
	return NULL;
}

struct doc_row *doc_row_find(void *rows, size_t n, size_t size, const struct json_read_val *j)
{
	return doc_row_named(rows, n, size, json_read_str(j, "provenance.kernel_label", "?"),
			     json_read_str(j, "provenance.preempt_model", "?"));
}

struct doc_row *doc_row_of(void **rows, size_t *n, size_t size, const struct json_read_val *j,
			   const char *prefix, const char *name)
{
	struct doc_row *d = doc_row_find(*rows, *n, size, j);
	if (!d) {
		const char *kernel = json_read_str(j, "provenance.kernel_label", "?");
		const char *model = json_read_str(j, "provenance.preempt_model", "?");
		char *g = realloc(*rows, (*n + 1) * size);
		if (!g)
			return NULL;
		*rows = g;
		d = (struct doc_row *)(g + (*n)++ * size);
		memset(d, 0, size);
		snprintf(d->kernel, sizeof(d->kernel), "%s", kernel);
		snprintf(d->model, sizeof(d->model), "%s", model);
	}
	if (d->ndocs++) {
		snprintf(d->file, sizeof(d->file), "logs/%s%.60s-%.30s*.json", prefix, d->kernel, d->model);
		return d;
	}
	snprintf(d->release, sizeof(d->release), "%s", json_read_str(j, "provenance.kernel_release", "?"));
	snprintf(d->virt, sizeof(d->virt), "%s", json_read_str(j, "provenance.virtualization", "?"));
	snprintf(d->file, sizeof(d->file), "logs/%s", name);
	json_read_num(j, "provenance.cpus", &d->cpus);
	d->icount_shift = -1;
	json_read_num(j, "provenance.icount_shift", &d->icount_shift);
	json_read_num(j, "provenance.kernel_hz", &d->hz);
	return d;
}

int doc_row_cmp(const void *a, const void *b)
{
	const struct doc_row *x = a, *y = b;
	int c = strverscmp(x->kernel, y->kernel);
	return c ? c : model_rank(x->model) - model_rank(y->model);
}

void doc_row_source(const struct doc_row *d, char *buf, size_t len)
{
	char shift[32] = "";
	if (d->icount_shift >= 0)
		snprintf(shift, sizeof(shift), " (icount shift %.0f)", d->icount_shift);
	snprintf(buf, len, "%s/%s: %s, %s (%d document%s), %s%s, %.0f CPU%s", d->kernel, d->model,
		 d->release, d->file, d->ndocs, d->ndocs == 1 ? "" : "s", d->virt, shift, d->cpus,
		 d->cpus == 1 ? "" : "s");
}

double doc_num(const struct json_read_val *v, const char *path)
{
	double x = 0;
	return json_read_num(v, path, &x) ? x : 0;
}
