/*
 * The kernel knobs a unit sets (lab/plan/knobs.c): one row a knob, from
 * which the planner writes the unit's `knob` lines and guest/runner.sh's
 * one loop sets, reads back, logs and restores them (issue 39).
 */
#ifndef PREEMPTLAB_PLAN_KNOBS_H
#define PREEMPTLAB_PLAN_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plan.h"
#include "json.h"

struct knob {
	const char *var;	/* the make variable (lab/common/variables.def) */
	size_t off;		/* its long field in struct plan; 0 there: the kernel's own */
	const char *path;	/* the file the kernel reads it from */
	long scale;		/* the file's value: the variable's x scale */
	bool skip_missing;	/* a kernel without the file: said and skipped, not fatal */
	bool restore_host;	/* on the host, the old value goes back when the unit ends */
	const char *needs;	/* what a kernel needs to have the file */
};

extern const struct knob knobs[];	/* ended by a row with no var */

/* UNIT.conf's knob lines: "knob TAB PATH VALUE fail|skip restore|keep VAR=V NEEDS". */
void knobs_write(FILE *f, const struct plan *p, bool host);
/* plan.json's "knobs" array, the same rows. */
void knobs_json(struct json *j, const struct plan *p, bool host);

#endif
