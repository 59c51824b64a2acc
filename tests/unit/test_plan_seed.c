/*
 * SCENARIO=seed scales the regression report's ratios to a machine: its
 * arithmetic, for the report's own machine, this project's and a guest.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "plan/scenario.h"

static struct seed_sizing size(long cpus, long ram_mb, bool guest)
{
	struct seed_sizing s;
	memset(&s, 0, sizeof(s));
	s.cpus = cpus;
	s.ram_mb = ram_mb;
	s.guest = guest;
	seed_size(&s);
	return s;
}

int main(void)
{
	/* The report's machine: 96 vCPUs, 384 GB. */
	struct seed_sizing r = size(96, 384 * 1024, false);
	CHECK(r.clients == 1027, "96 CPUs: 10.7 clients per CPU gives 1027 (the report ran 1024): %ld",
	      r.clients);
	CHECK(r.pool_mb % 64 == 0 && labs(r.pool_mb - 117965) < 64,
	      "384 GB: the pool is 30%% of RAM in 64 MB steps (%ld MB)", r.pool_mb);
	CHECK(fabs((double)r.relation_mb / (double)r.pool_mb - 1.06) < 0.001,
	      "the relation is 1.06x the pool (%ld / %ld MB)", r.relation_mb, r.pool_mb);
	CHECK(r.pg_scale > 8000 && r.pg_scale < 8700,
	      "pgbench's scale makes tables about 1.06x shared_buffers: %ld (the report: 8470)",
	      r.pg_scale);

	/* This project's machines: 2 CPUs, 24 GB. */
	struct seed_sizing h = size(2, 24105, false);
	CHECK(h.clients == 21 && h.pool_mb == 7168 && h.relation_mb == 7599,
	      "2 CPUs, 24105 MB: 21 clients, pool 7168 MB, relation 7599 MB (%ld, %ld, %ld)",
	      h.clients, h.pool_mb, h.relation_mb);
	CHECK(h.pg_duration_s == 917504 / 2100 + 60,
	      "pgbench runs long enough to take in the pool at the measured 2,100 buffers/s (%ld s)",
	      h.pg_duration_s);
	CHECK(r.pg_duration_s == 1200, "...and never longer than the report's 1200 s (%ld s)",
	      r.pg_duration_s);
	CHECK(h.steady_s > 0 && h.duration_s > h.steady_s && h.guest_mem_mb == 0,
	      "the host: runs end %ld s after the fill, %ld s at most, no guest RAM", h.steady_s,
	      h.duration_s);

	/* A guest without MEM_MB: a TCG-sized pool, and RAM it is 30% of. */
	struct seed_sizing g = size(2, 0, true);
	CHECK(g.pool_mb == SEED_GUEST_POOL_MB && g.guest_mem_mb == 1280,
	      "a guest: pool %ld MB in %ld MB of RAM", g.pool_mb, g.guest_mem_mb);
	struct seed_sizing m = size(4, 4096, true);
	CHECK(m.pool_mb == 1216 && m.guest_mem_mb == 4096 && m.clients == 43,
	      "a guest with MEM_MB=4096 and 4 vCPUs: pool %ld MB, %ld clients", m.pool_mb, m.clients);
	struct seed_sizing one = size(1, 100, false);
	CHECK(one.clients >= 2 && one.pool_mb >= 64, "a tiny machine still gets 2 clients and 64 MB");
	return CHECK_DONE();
}
