/*
 * The unit's plan file as the cell runner reads it ("key TAB value"
 * lines, lab/plan/write.c): every line kept, since some keys come once a
 * line (knob, costbench_run, pg_run).  lab/common/unit_conf.c is the
 * children's reader: the first value of each key only.
 */
#ifndef PREEMPTLAB_RUNNER_CONF_H
#define PREEMPTLAB_RUNNER_CONF_H

/* Read FILE (a missing one reads as empty); 0, or -1 when unreadable. */
int conf_load(const char *path);
/* The first value of KEY, "" where the plan has none. */
const char *conf(const char *key);
/* The I-th (0-based) value of KEY, NULL past the last. */
const char *conf_all(const char *key, int i);

#endif
