#include "flame_cells.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "outfile.h"

struct names {
	char **v;
	size_t n, cap;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The stems of RUNDIR/perf/NAME.folded, sorted. */
static void list_profiles(const char *rundir, struct names *out)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/perf", rundir);
	DIR *d = opendir(path);
	struct dirent *e;
	memset(out, 0, sizeof(*out));
	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len <= 7 || strcmp(e->d_name + len - 7, ".folded") != 0 || e->d_name[0] == '.')
			continue;
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 16;
			out->v = realloc(out->v, out->cap * sizeof(*out->v));
			if (!out->v)
				abort();
		}
		out->v[out->n++] = strndup(e->d_name, len - 7);
	}
	closedir(d);
	qsort(out->v, out->n, sizeof(*out->v), by_name);
}

static void names_free(struct names *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
}

/* s with every '/' turned into c. */
static char *slashes(const char *s, char c)
{
	char *t = strdup(s);
	for (char *p = t; *p; p++)
		if (*p == '/')
			*p = c;
	return t;
}

/*
 * One side: every profile whose name holds "-SPEC-" (slashes as dashes),
 * summed, so 7.0/full matches each page size, lock and repetition of it.
 */
static int load_side(const char *rundir, const struct names *all, const char *side,
		     const char *spec, struct folded *f)
{
	char *dashed = slashes(spec, '-'), pat[512], path[4096], err[512];
	size_t used = 0;
	snprintf(pat, sizeof(pat), "-%s-", dashed);
	free(dashed);
	fold_init(f);
	for (size_t i = 0; i < all->n; i++) {
		if (!strstr(all->v[i], pat))
			continue;
		snprintf(path, sizeof(path), "%s/perf/%s.folded", rundir, all->v[i]);
		if (fold_read_file(f, path, err, sizeof(err)) != 0) {
			fprintf(stderr, "preemptlab: %s\n", err);
			return -1;
		}
		used++;
	}
	if (!used) {
		fprintf(stderr, "preemptlab: DIFF: no profile matches '%s'; profiles here: ", spec);
		for (size_t i = 0; i < all->n; i++)
			fprintf(stderr, "%s ", all->v[i]);
		fprintf(stderr, "\n");
		return -1;
	}
	fold_sort(f);
	fprintf(stderr, "preemptlab: DIFF side %s (%s): %zu profile(s)\n", side, spec, used);
	return 0;
}

int flame_diff_cells(const char *rundir, const char *spec, const struct flame_opts *base)
{
	const char *comma = strchr(spec, ',');
	if (!comma) {
		fprintf(stderr, "preemptlab: DIFF=%s: give two cells, DIFF=KERNEL/MODEL,KERNEL/MODEL "
			"(e.g. DIFF=6.12/none,7.0/lazy)\n", spec);
		return 1;
	}
	char *a = strndup(spec, (size_t)(comma - spec)), *b = strdup(comma + 1);
	char *ua = slashes(a, '_'), *ub = slashes(b, '_');
	char name[1024], title[1024], sub[1024];
	struct names all;
	struct folded fa, fb;
	struct outfile out;
	struct flame_opts o = *base;
	int rc = 1;

	list_profiles(rundir, &all);
	if (load_side(rundir, &all, "a", a, &fa) != 0)
		goto done_a;
	if (load_side(rundir, &all, "b", b, &fb) != 0)
		goto done_b;
	snprintf(name, sizeof(name), "flame-diff-%s-vs-%s.svg", ua, ub);
	snprintf(title, sizeof(title), "Differential flame graph: %s against %s", b, a);
	snprintf(sub, sizeof(sub), "shape of %s; red = larger share of samples than in %s, "
		 "blue = smaller", b, a);
	o.title = o.title ? o.title : title;
	o.subtitle = o.subtitle ? o.subtitle : sub;
	if (out_open(&out, rundir, name)) {
		long frames = flame_diff_svg(out.f, &fa, &fb, &o);
		if (out_commit(&out) == 0) {
			fprintf(stderr, "flamegraph: %ld frames\n", frames);
			printf("%s\n", out.path);
			rc = 0;
		}
	}
	fold_free(&fb);
done_b:
	fold_free(&fa);
done_a:
	names_free(&all);
	free(a);
	free(b);
	free(ua);
	free(ub);
	return rc;
}
