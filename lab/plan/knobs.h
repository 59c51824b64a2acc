/*
 * The kernel knobs a unit sets: the variable table's rows with a .knob
 * (lab/common/variables.def), from which the planner writes the unit's
 * knob lines and the cell runner's one loop (set_knobs, lab/runner/) sets, reads back,
 * logs and restores them, knowing none by name (issue 39).  A new knob is
 * its row, a test and the measurement made with it.
 */
#ifndef PREEMPTLAB_PLAN_KNOBS_H
#define PREEMPTLAB_PLAN_KNOBS_H

#include <stdbool.h>
#include <stdio.h>

#include "json.h"
#include "plan.h"

/* UNIT.plan's knob lines: "knob TAB PATH VALUE fail|skip restore|keep VAR=V NEEDS". */
void knobs_write(FILE *f, const struct plan *p, bool host);
/* plan.json's "knobs" array, the same rows. */
void knobs_json(struct json *j, const struct plan *p, bool host);

#endif
