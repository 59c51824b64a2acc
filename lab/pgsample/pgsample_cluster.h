/*
 * The options of one private PostgreSQL cluster (scripts/pg-run.sh),
 * checked before anything touches the machine: a bad one costs an
 * initdb, a server start and a pgbench -i before pgbench itself says so.
 * The limits are PostgreSQL's (fillfactor 10..100, shared_buffers at
 * least 128 kB) or the lab's (pg_buffercache sampled no faster than
 * every 100 ms, where the sampler's own queries would start to show).
 */
#ifndef PREEMPTLAB_PGSAMPLE_CLUSTER_H
#define PREEMPTLAB_PGSAMPLE_CLUSTER_H

#include <stddef.h>

struct cluster_opts {
	const char *huge_pages, *shared_buffers, *scale, *duration, *fillfactor;
	const char *cold, *buffercache_ms, *pg_version, *max_connections;
};

/*
 * 0 with shared_buffers in kB, or -1 with the option's complaint in err.
 * warn gets a note ("" when none): a scale whose tables fit in
 * shared_buffers, so nothing is ever evicted.
 */
int cluster_opts_check(const struct cluster_opts *o, long *sb_kb, char *err, size_t errlen,
		       char *warn, size_t warnlen);

/* pgsample cluster-options --huge-pages V ... (the names above, dashed). */
int cluster_main(int argc, char **argv);

#endif
