#include "profiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "json_read.h"

void cell_slug(const struct cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "C%d-%s-%s-%s-%ldk-%s-c%ld", c->id, c->tool, c->kernel_label,
		 c->model, c->page_kb, c->lock, c->clients);
	for (char *s = buf; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '-' || *s == '_'))
			*s = '_';
}

void profiles_load(struct profiles *ps, const struct results *r)
{
	ps->p = calloc(r->ncells + 1, sizeof(*ps->p));
	ps->n = 0;
	if (!ps->p)
		exit(1);
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		struct profile *p = &ps->p[ps->n];
		fold_init(&p->f);
		p->cell = c;
		p->files = 0;
		for (size_t i = 0; i < c->nruns; i++) {
			char path[4096], err[512];
			snprintf(path, sizeof(path), "%s/perf/%s.folded", r->dir, c->runs[i]->name);
			if (access(path, R_OK))
				continue;
			/* A run's own file (json_read_open_own): its stacks reach the
			 * flame graphs and the attachment. */
			int fd = json_read_open_own(path, err, sizeof(err));
			FILE *in = fd < 0 ? NULL : fdopen(fd, "r");
			if (fd >= 0 && !in) {
				snprintf(err, sizeof(err), "%.400s: cannot read", path);
				close(fd);
			}
			if (!in || fold_read(&p->f, in, path, err, sizeof(err)))
				txt_printf(stderr, "report: skipping profile %s\n", err);
			else
				p->files++;
			if (in)
				fclose(in);
		}
		if (p->files && p->f.total > 0) {
			fold_sort(&p->f);
			ps->n++;
		} else {
			fold_free(&p->f);
		}
	}
}

void profiles_free(struct profiles *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		fold_free(&ps->p[i].f);
	free(ps->p);
}

const struct profile *profile_of(const struct profiles *ps, const struct cell *c)
{
	for (size_t i = 0; i < ps->n; i++)
		if (ps->p[i].cell == c)
			return &ps->p[i];
	return NULL;
}
