#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgsample_cluster.h"
#include "size.h"

/* A whole number above zero, digits only (what a shell's test takes). */
static int positive(const char *s, long *out)
{
	char *end;
	if (!s || !*s || strspn(s, "0123456789") != strlen(s))
		return 0;
	*out = strtol(s, &end, 10);
	return *out > 0;
}

static int one_of(const char *s, const char *a, const char *b, const char *c)
{
	return s && (!strcmp(s, a) || !strcmp(s, b) || (c && !strcmp(s, c)));
}

/* system, or a major 1..99 written without a leading zero. */
static int major_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (s && !strcmp(s, "system"))
		return 1;
	return (n == 1 || n == 2) && s[0] >= '1' && s[0] <= '9' && strspn(s, "0123456789") == n;
}

int cluster_opts_check(const struct cluster_opts *o, long *sb_kb, char *err, size_t errlen,
		       char *warn, size_t warnlen)
{
	long dur, conn, scale, ff, ms;
	uint64_t bytes;

	warn[0] = '\0';
#define BAD(...) return snprintf(err, errlen, __VA_ARGS__), -1
	if (!one_of(o->huge_pages, "off", "on", "try"))
		BAD("--huge-pages must be off, on or try (got '%s')", o->huge_pages);
	if (!positive(o->duration, &dur))
		BAD("--duration must be a positive number of seconds (got '%s')", o->duration);
	if (!positive(o->max_connections, &conn))
		BAD("the runs name no max_connections (got '%s')", o->max_connections);
	if (!o->scale || !*o->scale)
		BAD("--scale is required (build/plan sizes it: tables about 2x shared_buffers on "
		    "the host, 1.06x in a guest)");
	if (!positive(o->scale, &scale))
		BAD("--scale must be a positive number (got '%s')", o->scale);
	if (!positive(o->fillfactor, &ff) || ff < 10 || ff > 100)
		BAD("--fillfactor must be 10..100 (got '%s')", o->fillfactor);
	if (!one_of(o->cold, "on", "off", NULL))
		BAD("--cold must be on or off (got '%s')", o->cold);
	if (!o->buffercache_ms || (strcmp(o->buffercache_ms, "0") &&
				   (!positive(o->buffercache_ms, &ms) || ms < 100)))
		BAD("--buffercache-ms must be 0 or at least 100 (got '%s')", o->buffercache_ms);
	if (!major_ok(o->pg_version))
		BAD("--pg-version must be a major (15, 17 ...) or system (got '%s')", o->pg_version);
	if (!o->shared_buffers || size_parse(o->shared_buffers, &bytes) != SIZE_OK)
		BAD("--shared-buffers must be a size like 16M or 1G (got '%s')", o->shared_buffers);
	*sb_kb = (long)(bytes / 1024);
	if (*sb_kb < 128)
		BAD("--shared-buffers must be at least 128k (PostgreSQL's minimum)");
#undef BAD
	/*
	 * pgbench_accounts takes about 15 MB per scale unit; tables that fit
	 * in shared_buffers never make a backend evict, and eviction is what
	 * runs StrategyGetBuffer and its spinlock.
	 */
	if (scale * 15360 <= *sb_kb)
		snprintf(warn, warnlen, "warning: scale %ld (~%ld MB) fits in shared_buffers (%ld MB): "
			 "no evictions", scale, scale * 15, *sb_kb / 1024);
	return 0;
}

int cluster_main(int argc, char **argv)
{
	static const char *names[] = { "--huge-pages", "--shared-buffers", "--scale", "--duration",
				       "--fillfactor", "--cold", "--buffercache-ms", "--pg-version",
				       "--max-connections" };
	struct cluster_opts o = { 0 };
	const char **slot[] = { &o.huge_pages, &o.shared_buffers, &o.scale, &o.duration,
				&o.fillfactor, &o.cold, &o.buffercache_ms, &o.pg_version,
				&o.max_connections };
	char err[512], warn[256];
	long sb_kb;

	for (int i = 2; i < argc; i += 2) {
		size_t k = 0;
		while (k < sizeof(names) / sizeof(names[0]) && strcmp(argv[i], names[k]))
			k++;
		if (k == sizeof(names) / sizeof(names[0]) || i + 1 >= argc) {
			fprintf(stderr, "pgsample cluster-options: unknown option or no value: %s\n",
				argv[i]);
			return 2;
		}
		*slot[k] = argv[i + 1];
	}
	if (cluster_opts_check(&o, &sb_kb, err, sizeof(err), warn, sizeof(warn)) != 0) {
		fprintf(stderr, "preemptlab: %s\n", err);
		return 2;
	}
	if (warn[0])
		fprintf(stderr, "preemptlab: %s\n", warn);
	printf("%ld\n", sb_kb);
	return 0;
}
