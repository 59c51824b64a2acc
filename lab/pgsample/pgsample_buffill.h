/*
 * The fill of shared_buffers over a pgbench run, from pg_buffercache: how
 * many buffers hold a page, sampled on its own connection beside the
 * wait-event sampler.  The query runs asynchronously, so a slow scan of a
 * large pool delays only the next fill sample, never a wait-event sample.
 * PostgreSQL's freelist (15-18) is non-empty until the count reaches the
 * total: the fill phase the lab is about.
 */
#ifndef PREEMPTLAB_PGSAMPLE_BUFFILL_H
#define PREEMPTLAB_PGSAMPLE_BUFFILL_H

#include <stdbool.h>
#include <stddef.h>

#include "json.h"

#define BUFFILL_MAX 4096

struct buffill {
	void *conn;		/* PGconn */
	bool busy;
	double step_s, next_s;
	size_t n;
	double t_s[BUFFILL_MAX];
	long used[BUFFILL_MAX];
	long total;
	double fill_s;		/* first sample with every buffer used; -1 */
	char error[256];	/* why sampling stopped, or "" */
};

/* Connect and check the extension is there; -1 with a message. */
int buffill_open(struct buffill *b, const char *conninfo, double step_s, char *err, size_t len);
/* Collect a finished sample and start the next when due; t_s since the run's start. */
void buffill_poll(struct buffill *b, double t_s);
void buffill_close(struct buffill *b);
/* results.buffer_fill (docs/json.md). */
void buffill_write(struct json *j, const struct buffill *b);

#endif
