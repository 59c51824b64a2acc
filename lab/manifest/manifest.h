/*
 * build/manifest: results/RUN/manifest.json ("preemptlab.manifest/1",
 * docs/json.md), composed from the plan (plan.json) and what the runner
 * saw (logs/outcomes.tsv).  The one writer of that file; build/report is
 * its reader.
 */
#ifndef PREEMPTLAB_MANIFEST_H
#define PREEMPTLAB_MANIFEST_H

#include <jansson.h>
#include <stddef.h>

#define MANIFEST_SCHEMA "preemptlab.manifest/1"

/* logs/outcomes.tsv, grouped: run facts, and per unit, boot and cell. */
struct outcomes {
	json_t *run;    /* object: key -> value */
	json_t *units;  /* array of objects, "unit" first, in order of appearance */
	json_t *boots;  /* ... "tag" first */
	json_t *cells;  /* ... "id" first */
};

/* 0, or -1 with err set (a line that is not four fields, an unknown record). */
int outcomes_read(const char *path, struct outcomes *oc, char *err, size_t errlen);
void outcomes_free(struct outcomes *oc);

/* The manifest of rundir (its plan.json and logs/outcomes.tsv), or NULL
 * with err set. */
json_t *manifest_compose(const char *rundir, char *err, size_t errlen);

#endif
