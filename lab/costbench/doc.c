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

void costbench_provenance(struct provenance *prov, int argc, char **argv, const char *page_policy)
{
	prov_collect(prov, argc, argv);
	snprintf(prov->page_policy, sizeof(prov->page_policy), "%s", page_policy);
	prov->page_size_kb = 4;
	snprintf(prov->lock, sizeof(prov->lock), "none");
	snprintf(prov->strategy, sizeof(prov->strategy), "none");
}

FILE *costbench_doc_begin(struct json *j, const char *out, const struct provenance *prov)
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

FILE *costbench_mode_begin(struct json *j, const char *out, int argc, char **argv, const char *mode,
		    const char *why)
{
	struct provenance prov;
	costbench_provenance(&prov, argc, argv, "4k");
	FILE *f = costbench_doc_begin(j, out, &prov);
	if (!f)
		return NULL;
	json_str(j, "mode", mode);
	json_bool(j, "available", why == NULL);
	if (why)
		json_str(j, "why", why);
	return f;
}

int costbench_doc_end(struct json *j, FILE *f, const char *out, int rc)
{
	json_end_object(j);
	json_finish(j);
	if (out && fclose(f) != 0) {
		fprintf(stderr, "costbench: %s: %s\n", out, strerror(errno));
		return 1;
	}
	return rc != 0;
}
