#include "logs_each.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void logs_each(const char *dir, const char *prefix,
	       void (*fn)(void *ctx, const char *dir, const char *name), void *ctx)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/logs", dir);
	DIR *dh = opendir(path);
	if (!dh)
		return;
	char *names[256];
	size_t nn = 0, np = strlen(prefix);
	struct dirent *de;
	while ((de = readdir(dh)) && nn < 256) {
		size_t l = strlen(de->d_name);
		if (!strncmp(de->d_name, prefix, np) && l > 5 && !strcmp(de->d_name + l - 5, ".json"))
			if ((names[nn] = strdup(de->d_name)))
				nn++;
	}
	closedir(dh);
	qsort(names, nn, sizeof(*names), name_cmp);
	for (size_t i = 0; i < nn; i++) {
		fn(ctx, dir, names[i]);
		free(names[i]);
	}
}

void logs_each_run(const struct results *r, const char *prefix,
		   void (*fn)(void *ctx, const char *dir, const char *name), void *ctx)
{
	if (!r->nsources) {
		logs_each(r->dir, prefix, fn, ctx);
		return;
	}
	for (size_t i = 0; i < r->nsources; i++)
		logs_each(r->sources[i].dir, prefix, fn, ctx);
}
