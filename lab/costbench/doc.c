/*
 * What every costbench document starts with, whatever its mode: the
 * provenance of one process with no lock or strategy of its own, and the
 * tool and schema before it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "costbench.h"
#include "json.h"
#include "provenance.h"

void cb_provenance(struct provenance *prov, int argc, char **argv, const char *page_policy)
{
	prov_collect(prov, argc, argv);
	snprintf(prov->page_policy, sizeof(prov->page_policy), "%s", page_policy);
	prov->page_size_kb = 4;
	snprintf(prov->lock, sizeof(prov->lock), "none");
	snprintf(prov->strategy, sizeof(prov->strategy), "none");
}

FILE *cb_doc_begin(struct json *j, const char *out, const struct provenance *prov)
{
	FILE *f = out ? fopen(out, "w") : stdout;
	if (!f) {
		fprintf(stderr, "costbench: %s: %s\n", out, strerror(errno));
		return NULL;
	}
	json_init(j, f);
	json_begin_object(j, NULL);
	json_str(j, "tool", "costbench");
	json_str(j, "schema", "preemptlab.costbench/1");
	prov_write(j, prov);
	return f;
}
