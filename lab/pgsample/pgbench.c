#include "pgsample_pgbench.h"

#include <stdlib.h>
#include <string.h>

void pgbench_result_init(struct pgbench_result *r)
{
	memset(r, 0, sizeof(*r));
	r->scale = r->clients = r->threads = -1;
	r->latency_ms_stddev = -1;
	r->initial_connection_ms = -1;
}

void pgbench_result_free(struct pgbench_result *r)
{
	free(r->progress_tps);
	r->progress_tps = NULL;
	r->nprogress = r->progress_cap = 0;
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void add_progress(struct pgbench_result *r, double tps)
{
	if (r->nprogress == r->progress_cap) {
		size_t cap = r->progress_cap ? r->progress_cap * 2 : 64;
		double *p = realloc(r->progress_tps, cap * sizeof(*p));
		if (!p)
			return; /* keep what we have: the summary still counts */
		r->progress_tps = p;
		r->progress_cap = cap;
	}
	r->progress_tps[r->nprogress++] = tps;
}

void pgbench_parse_line(struct pgbench_result *r, const char *line)
{
	double t, v;

	if (starts(line, "progress: ")) {
		/* "progress: 1.0 s, 63388.7 tps, lat 0.100 ms stddev 0.207, 0 failed" */
		if (sscanf(line, "progress: %lf s, %lf tps", &t, &v) == 2)
			add_progress(r, v);
	} else if (starts(line, "tps = ")) {
		if (sscanf(line, "tps = %lf", &r->tps) == 1)
			r->have_tps = 1;
	} else if (starts(line, "scaling factor: ")) {
		sscanf(line, "scaling factor: %ld", &r->scale);
	} else if (starts(line, "number of clients: ")) {
		sscanf(line, "number of clients: %ld", &r->clients);
	} else if (starts(line, "number of threads: ")) {
		sscanf(line, "number of threads: %ld", &r->threads);
	} else if (starts(line, "query mode: ")) {
		sscanf(line, "query mode: %31s", r->query_mode);
	} else if (starts(line, "number of transactions actually processed: ")) {
		/* pgbench may append "/N" when -t was used. */
		sscanf(line, "number of transactions actually processed: %lld", &r->transactions);
	} else if (starts(line, "number of failed transactions: ")) {
		sscanf(line, "number of failed transactions: %lld", &r->failed);
	} else if (starts(line, "latency average = ")) {
		sscanf(line, "latency average = %lf", &r->latency_ms_avg);
	} else if (starts(line, "latency stddev = ")) {
		sscanf(line, "latency stddev = %lf", &r->latency_ms_stddev);
	} else if (starts(line, "initial connection time = ")) {
		sscanf(line, "initial connection time = %lf", &r->initial_connection_ms);
	}
}

int pgbench_parse_file(struct pgbench_result *r, FILE *f)
{
	char line[1024];
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		pgbench_parse_line(r, line);
	return 0;
}
