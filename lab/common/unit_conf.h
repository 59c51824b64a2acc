/*
 * The unit's plan file (plan/UNIT.plan, "key TAB value" lines, written by
 * lab/plan/write.c), read by the programs the cell runner starts when it
 * passes --unit-conf FILE: the values a child records (the catalog's
 * kernel label, the accelerator, a one-model kernel's model, the icount
 * shift and epoch) reach it from the plan, not from the environment.
 */
#ifndef PREEMPTLAB_UNIT_CONF_H
#define PREEMPTLAB_UNIT_CONF_H

/* Read FILE; 0, or -1 with errno set when it cannot be read. */
int unit_conf_load(const char *path);
/* KEY's value, or NULL when no file was read or it has no such key. */
const char *unit_conf_get(const char *key);

#endif
