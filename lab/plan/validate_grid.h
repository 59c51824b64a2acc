/* The model's validation grids as tables for build/predict --predictions-grid
 * and build/capacity --write (scripts/model-validate.sh grid and capacity). */
#ifndef PREEMPTLAB_PLAN_VALIDATE_GRID_H
#define PREEMPTLAB_PLAN_VALIDATE_GRID_H

/* build/plan --validation-grid INPUTS KERNEL [MODELS]: the table on
 * stdout (validate_grid.c says its columns); 0, or plan_die (exit 2). */
int validation_grid(const char *inputs, const char *kernel, const char *models);
/* build/plan --capacity-grid [KERNEL]: the lock-capacity law's grid. */
int capacity_grid(const char *kernel);

#endif
