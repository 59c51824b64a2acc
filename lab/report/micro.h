/*
 * bufmicro's uncontended costs (logs/bufmicro*.json, written by the bench
 * before the matrix): a buffer hit and a lock acquire/release with and
 * without the lab's instrumentation, and one clock read.  They bound what
 * a run can resolve: a hold time shorter than a clock read is noise, and
 * instrumented rates carry the instrumentation's cost per operation.
 */
#ifndef PREEMPTLAB_MICRO_H
#define PREEMPTLAB_MICRO_H

#include <stddef.h>

struct micro_lock {
	char name[24];
	double plain_ns, instrumented_ns;   /* < 0 when absent */
};

struct micro {
	char file[128];        /* logs/<name>, relative to the run */
	char who[160];         /* "host/unknown (6.18.44-fc-v1098)" */
	double iterations, clock_ns, hit_ns, hit_instr_ns;  /* < 0 when absent */
	struct micro_lock lock[8];
	size_t nlock;
};

/* Reads DIR/logs/bufmicro*.json; unreadable files are named on stderr and
 * skipped.  Returns how many were loaded into out[0..max). */
size_t micro_load(const char *dir, struct micro *out, size_t max);

/* "buffer hit 49 (138 instrumented); lock+unlock tas 15 (128), ...;
 * clock read 33" */
void micro_text(const struct micro *m, char *buf, size_t len);

#endif
