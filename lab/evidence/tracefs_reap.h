/*
 * bufbench --trace-holds killed outright (SIGKILL) leaves its tracefs
 * instance, instances/preemptlab-PID, tracing into a 16 MB-per-CPU buffer,
 * and its kprobe event defined (issue 28, D9).  The next bufbench that
 * traces removes those of processes that are gone, and says so.
 */
#ifndef PREEMPTLAB_TRACEFS_REAP_H
#define PREEMPTLAB_TRACEFS_REAP_H

#include <stdio.h>

/* Under ROOT (a tracefs mount): remove every instances/preemptlab-PID whose
 * PID no longer exists, one line on SAY for each; how many were removed. */
int tracefs_reap(const char *root, FILE *say);

#endif
