/*
 * The unit's plan file for the cell runner's children (unit_conf.h).  A
 * small fixed table: the file has a few dozen keys, read once at start.
 */
#include "unit_conf.h"

#include <stdio.h>
#include <string.h>

#define UNIT_CONF_MAX 96

static struct {
	char key[48];
	char val[512];
} conf[UNIT_CONF_MAX];
static int nconf;

int unit_conf_load(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	nconf = 0;
	while (fgets(line, sizeof(line), f) && nconf < UNIT_CONF_MAX) {
		char *tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = '\0';
		tab[1 + strcspn(tab + 1, "\r\n")] = '\0';
		/* A longer key is no key of ours; a longer value is cut. */
		if (strlen(line) >= sizeof(conf[nconf].key))
			continue;
		memcpy(conf[nconf].key, line, strlen(line) + 1);
		snprintf(conf[nconf].val, sizeof(conf[nconf].val), "%.*s",
			 (int)sizeof(conf[nconf].val) - 1, tab + 1);
		nconf++;
	}
	fclose(f);
	return 0;
}

const char *unit_conf_get(const char *key)
{
	/* The first line with the key wins, as the runner's own conf() reads it. */
	for (int i = 0; i < nconf; i++)
		if (!strcmp(conf[i].key, key))
			return conf[i].val;
	return NULL;
}
