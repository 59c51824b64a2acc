/*
 * The documents a runner sent to a run's logs/ (costbench's, the wakeup
 * test's), by file name prefix, in name order.
 */
#ifndef PREEMPTLAB_REPORT_LOGS_EACH_H
#define PREEMPTLAB_REPORT_LOGS_EACH_H

/* fn(ctx, dir, name) for each DIR/logs/PREFIX*.json (at most 256). */
void logs_each(const char *dir, const char *prefix,
	       void (*fn)(void *ctx, const char *dir, const char *name), void *ctx);
/* The same over a run: each of its sources' directories (make compare),
 * else its own. */
struct results;
void logs_each_run(const struct results *r, const char *prefix,
		   void (*fn)(void *ctx, const char *dir, const char *name), void *ctx);

#endif
