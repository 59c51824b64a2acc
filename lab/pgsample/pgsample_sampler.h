/*
 * The libpq side of the wait-event sampler: one connection that polls
 * pg_stat_activity through a prepared statement, so each sample costs one
 * round trip and no planning.
 */
#ifndef PREEMPTLAB_PGSAMPLE_SAMPLER_H
#define PREEMPTLAB_PGSAMPLE_SAMPLER_H

#include <stddef.h>

#include "pgsample_tally.h"

struct sampler;

/* Connect and prepare; NULL with a message in err on failure. */
struct sampler *sampler_open(const char *conninfo, char *err, size_t errlen);

/* Take one snapshot into t.  Returns 0, or -1 with a message. */
int sampler_sample(struct sampler *s, struct wait_tally *t, char *err, size_t errlen);

/* SHOW name into out; returns 0 or -1. */
int sampler_show(struct sampler *s, const char *name, char *out, size_t outlen);

/* The server's SELECT version() (its server_version if that fails). */
const char *sampler_server_version(struct sampler *s);

void sampler_close(struct sampler *s);

#endif
