/*
 * Memory: the shared segment's size comes from bufbench itself (it parses
 * the very options each cell will run with, so BUFBENCH_ARGS is validated
 * here too), then the huge pages that cover it and a guest's RAM.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plan.h"
#include "scenario.h"

/* Run argv; its stdout into out, its stderr's last line into err. */
static int run_capture(char *const argv[], char *out, size_t outlen, char *err, size_t errlen)
{
	int po[2], pe[2];
	if (pipe(po) != 0 || pipe(pe) != 0)
		plan_die("pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		plan_die("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]); close(pe[0]); close(po[1]); close(pe[1]);
		execv(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	size_t no = 0, ne = 0;
	ssize_t k;
	while ((k = read(po[0], out + no, outlen - 1 - no)) > 0 && no + 1 < outlen)
		no += (size_t)k;
	while ((k = read(pe[0], err + ne, errlen - 1 - ne)) > 0 && ne + 1 < errlen)
		ne += (size_t)k;
	out[no] = '\0';
	err[ne] = '\0';
	close(po[0]);
	close(pe[0]);
	while (ne > 0 && err[ne - 1] == '\n')
		err[--ne] = '\0';
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* bufbench --segment-size with a cell's options; dies naming the variable. */
static uint64_t segment_size(const struct plan *p, const char *bufbench, const char *clients,
			     const char *lock, const char *strategy)
{
	char *argv[PLAN_MAX_LIST + 32];
	int n = 0;
	argv[n++] = (char *)bufbench;
	argv[n++] = "--pool"; argv[n++] = (char *)p->pool;
	argv[n++] = "--relation"; argv[n++] = (char *)p->relation;
	argv[n++] = "--clients"; argv[n++] = (char *)clients;
	argv[n++] = "--lock"; argv[n++] = (char *)lock;
	argv[n++] = "--strategy"; argv[n++] = (char *)strategy;
	argv[n++] = "--workload"; argv[n++] = (char *)p->workload;
	for (int i = 0; i < p->bufbench_argv.n; i++)
		argv[n++] = (char *)p->bufbench_argv.item[i];
	argv[n++] = "--segment-size";
	argv[n] = NULL;

	char out[64], err[1024];
	int rc = run_capture(argv, out, sizeof(out), err, sizeof(err));
	if (rc == 127)
		plan_die("%s: run make first (%s)", bufbench, err);
	if (rc != 0) {
		const char *last = strrchr(err, '\n');
		plan_die("POOL=%s RELATION=%s CLIENTS=%s%s%s: %s", p->pool, p->relation, clients,
			 p->bufbench_argv.n ? " BUFBENCH_ARGS=" : "", p->bufbench_args,
			 last ? last + 1 : err);
	}
	return strtoull(out, NULL, 10);
}

static long mb_of(uint64_t bytes)
{
	return (long)((bytes + (1u << 20) - 1) >> 20);
}

long meminfo_mb(const char *format)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, format, &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

static long available_mb(void)
{
	return meminfo_mb("MemAvailable: %ld kB");
}

static void drop(struct list *l, const char *item)
{
	int j = 0;
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->item[i], item) != 0)
			memmove(l->item[j++], l->item[i], PLAN_NAME);
	l->n = j;
}

/*
 * PostgreSQL in a guest, unless PG_SHARED_BUFFERS and PG_SCALE are given:
 * shared_buffers a sixteenth of the RAM the guest has for everything else
 * (as a power of two, between 16 MB and 128 MB: emulation loads about
 * 0.12 scale units a second, so 128 MB's tables take a minute and a half
 * to load per boot), and tables 1.06x shared_buffers, as the seed scenario
 * has them: with PG_COLD each run starts with an empty pool and spends
 * itself filling it, which is when the strategy lock is taken on every
 * buffer allocation.
 */
static void guest_pg_size(struct plan *p, long guest_mb)
{
	if (!p->pg_shared_buffers[0]) {
		long sb = 16;
		while (sb * 2 <= guest_mb / 16 && sb * 2 <= 128)
			sb *= 2;
		snprintf(p->pg_shared_buffers, sizeof(p->pg_shared_buffers), "%ldM", sb);
	}
	if (!p->pg_scale[0]) {
		double sb_mb = (double)parse_size("PG_SHARED_BUFFERS", p->pg_shared_buffers) / (1 << 20);
		snprintf(p->pg_scale, sizeof(p->pg_scale), "%ld",
			 (long)ceil(SEED_RELATION_OVER_POOL * sb_mb / PG_MB_PER_SCALE));
	}
}

/*
 * The host's pgbench, unless PG_SCALE is given: pgbench_accounts about
 * twice shared_buffers (15 MB a scale unit), so backends evict, which is
 * what runs StrategyGetBuffer and its spinlock.
 */
static void host_pg_size(struct plan *p)
{
	if (p->pg_scale[0] || !p->pgbench)
		return;
	uint64_t kb = parse_size("PG_SHARED_BUFFERS", p->pg_shared_buffers) / 1024;
	snprintf(p->pg_scale, sizeof(p->pg_scale), "%ld",
		 (long)((2 * kb + (uint64_t)(PG_MB_PER_SCALE * 1024) - 1) /
			(uint64_t)(PG_MB_PER_SCALE * 1024)));
}

void plan_sizing(struct plan *p, const char *bufbench)
{
	p->segment_bytes = 0;
	for (int c = 0; c < p->clients.n; c++)
		for (int l = 0; l < p->locks.n; l++)
			for (int s = 0; s < p->strategies.n; s++) {
				uint64_t b = segment_size(p, bufbench, p->clients.item[c],
							  p->locks.item[l], p->strategies.item[s]);
				if (b > p->segment_bytes)
					p->segment_bytes = b;
			}
	/* A little over the segment: the kernel rounds, and nothing else may hold them. */
	p->hp2m = (long)((p->segment_bytes + (2u << 20) - 1) >> 21) + 4;
	p->hp1g = (long)((p->segment_bytes + (1u << 30) - 1) >> 30);

	if (strcmp(p->kernel.source, "host") == 0) {
		host_pg_size(p);
		return;
	}
	/*
	 * Guest RAM: the kernel and busybox, the segment twice (a 2 MB
	 * reservation beside 4 KB cells' page cache), the relation's memfd,
	 * the unpacked initramfs (PostgreSQL's files make it large), a
	 * cluster on tmpfs at twice shared_buffers, and 1 GB pages, which
	 * stay reserved from boot.
	 */
	long seg = mb_of(p->segment_bytes), rel = mb_of(p->relation_bytes);
	if (p->pgbench)
		guest_pg_size(p, 384 + 2 * seg + rel + p->rootfs_mb);
	long pg = p->pgbench ? 256 + 2 * mb_of(parse_size("PG_SHARED_BUFFERS", p->pg_shared_buffers)) : 0;
	long base = 384 + 2 * seg + rel + p->rootfs_mb + pg;
	bool has_1g = list_has(&p->pages, "1g") || list_has(&p->pages, "try-1g");
	long avail = available_mb();
	if (has_1g && avail > 0 && base + p->hp1g * 1024 > avail * 3 / 4 &&
	    ((!p->pages_given && strcmp(p->hugepages, "compare") == 0) ||
	     mitigation_sets_pages(p))) {
		plan_note("1 GB pages need %ld MB of guest RAM, the host has %ld MB available: "
			  "skipping 1g", base + p->hp1g * 1024, avail);
		drop(&p->pages, "1g");
		has_1g = false;
	}
	long need = base + (has_1g ? p->hp1g * 1024 : 0);
	/* SCENARIO=seed: the pool is 30% of what the guest has beside its 1 GB pages. */
	if (p->seed_guest_mem_mb + (has_1g ? p->hp1g * 1024 : 0) > need)
		need = p->seed_guest_mem_mb + (has_1g ? p->hp1g * 1024 : 0);
	/* A guest larger than the host's RAM swaps or is killed (issue 28). */
	long total = meminfo_mb("MemTotal: %ld kB");
	if (p->mem_given && total > 0 && p->mem_mb > total && !plan_forced())
		plan_die("MEM_MB=%ld is more than this host's RAM (%ld MB): give at most %ld, "
			 "or FORCE=1 to plan it anyway", p->mem_mb, total, total);
	if (!p->mem_given)
		p->mem_mb = need;
	else if (p->mem_mb < need)
		plan_note("MEM_MB=%ld is under the %ld MB this matrix is sized for; cells may fail",
			  p->mem_mb, need);
}
