/*
 * The unit's plan file (conf.h).
 */
#include "conf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char **lines;
static int nlines;

int conf_load(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) >= 0) {
		if (n > 0 && line[n - 1] == '\n')
			line[n - 1] = '\0';
		char **grown = realloc(lines, (size_t)(nlines + 1) * sizeof(*lines));
		if (!grown)
			break;
		lines = grown;
		if (!(lines[nlines] = strdup(line)))
			break;
		nlines++;
	}
	free(line);
	fclose(f);
	return 0;
}

const char *conf_all(const char *key, int i)
{
	size_t kl = strlen(key);
	for (int l = 0; l < nlines; l++)
		if (!strncmp(lines[l], key, kl) && lines[l][kl] == '\t' && i-- == 0)
			return lines[l] + kl + 1;
	return NULL;
}

const char *conf(const char *key)
{
	const char *v = conf_all(key, 0);
	return v ? v : "";
}
