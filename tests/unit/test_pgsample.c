/* Unit tests for pgsample's parsers and counting rules (no server needed). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pgsample/pgsample_cluster.h"
#include "pgsample/pgsample_hugepages.h"
#include "pgsample/pgsample_pages.h"
#include "pgsample/pgsample_pgbench.h"
#include "pgsample/pgsample_tally.h"
#include "check.h"

static FILE *text(const char *s)
{
	return fmemopen((void *)s, strlen(s), "r");
}

static void test_pgbench_summary(void)
{
	/* Verbatim pgbench 15.20 output (stdout, then stderr). */
	const char *out =
		"pgbench (15.20 (Debian 15.20-0+deb12u1))\n"
		"transaction type: <builtin: select only>\n"
		"scaling factor: 4\n"
		"query mode: prepared\n"
		"number of clients: 8\n"
		"number of threads: 2\n"
		"maximum number of tries: 1\n"
		"duration: 3 s\n"
		"number of transactions actually processed: 192811\n"
		"number of failed transactions: 0 (0.000%)\n"
		"latency average = 0.100 ms\n"
		"latency stddev = 0.151 ms\n"
		"initial connection time = 11.293 ms\n"
		"tps = 64262.300546 (without initial connection time)\n";
	const char *err =
		"starting vacuum...end.\n"
		"progress: 1.0 s, 63388.7 tps, lat 0.100 ms stddev 0.207, 0 failed\n"
		"progress: 2.0 s, 65159.3 tps, lat 0.099 ms stddev 0.124, 0 failed\n";
	struct pgbench_result r;
	FILE *f;

	pgbench_result_init(&r);
	f = text(out);
	pgbench_parse_file(&r, f);
	fclose(f);
	f = text(err);
	pgbench_parse_file(&r, f);
	fclose(f);
	CHECK(r.have_tps && r.tps > 64262.30 && r.tps < 64262.31, "pgbench tps line parsed");
	CHECK(r.scale == 4 && r.clients == 8 && r.threads == 2, "scale, clients, threads");
	CHECK(strcmp(r.query_mode, "prepared") == 0, "query mode");
	CHECK(r.transactions == 192811 && r.failed == 0, "transactions and failures");
	CHECK(r.latency_ms_avg == 0.100 && r.latency_ms_stddev == 0.151, "latency avg and stddev");
	CHECK(r.initial_connection_ms > 11.29 && r.initial_connection_ms < 11.30, "connection time");
	CHECK(r.nprogress == 2 && r.progress_tps[0] == 63388.7 && r.progress_tps[1] == 65159.3,
	      "progress lines give per-second tps");
	pgbench_result_free(&r);
}

static void test_pgbench_failed_run(void)
{
	struct pgbench_result r;
	FILE *f = text("pgbench: error: connection to server on socket \"/x/.s.PGSQL.5432\" failed\n"
		       "pgbench: error: could not create connection for initialization\n");
	pgbench_result_init(&r);
	pgbench_parse_file(&r, f);
	fclose(f);
	CHECK(!r.have_tps && r.nprogress == 0 && r.scale == -1, "a failed pgbench yields no tps");
	pgbench_result_free(&r);
}

static void test_smaps(void)
{
	/* A postmaster with huge_pages=on: the big segment is hugetlb. */
	const char *smaps =
		"55d0c0000000-55d0c0900000 r-xp 00000000 08:01 123 /usr/lib/postgresql/15/bin/postgres\n"
		"Size:               9216 kB\n"
		"KernelPageSize:        4 kB\n"
		"7f0000000000-7f0001800000 rw-s 00000000 00:0f 4567 /anon_hugepage (deleted)\n"
		"Size:              24576 kB\n"
		"KernelPageSize:     2048 kB\n"
		"MMUPageSize:        2048 kB\n"
		"ShmemPmdMapped:        0 kB\n"
		"VmFlags: rd wr sh mr mw me ms de ht sd\n"
		"7f0002000000-7f0002001000 rw-s 00000000 00:01 89 /SYSV0052e2c1 (deleted)\n"
		"Size:                  4 kB\n"
		"KernelPageSize:        4 kB\n"
		"7f0003000000-7f0003100000 rw-s 00000000 00:19 90 /dev/shm/PostgreSQL.1\n"
		"Size:               1024 kB\n"
		"KernelPageSize:        4 kB\n";
	struct shm_mapping m;
	FILE *f = text(smaps);
	int rc = pages_parse_smaps(f, &m);
	fclose(f);
	CHECK(rc == 0 && m.kernel_page_kb == 2048 && m.size_kb == 24576,
	      "largest shared mapping is the hugetlb segment (2048 kB pages)");
	CHECK(strcmp(m.name, "/anon_hugepage (deleted)") == 0, "mapping name kept: %s", m.name);

	const char *off =
		"7f0000000000-7f0001800000 rw-s 00000000 00:01 4567 /dev/zero (deleted)\n"
		"Size:              24576 kB\n"
		"KernelPageSize:        4 kB\n"
		"ShmemPmdMapped:     2048 kB\n"
		"7f1000000000-7f1002000000 rw-p 00000000 00:00 0\n"
		"Size:              32768 kB\n"
		"KernelPageSize:        4 kB\n";
	f = text(off);
	rc = pages_parse_smaps(f, &m);
	fclose(f);
	CHECK(rc == 0 && m.kernel_page_kb == 4 && m.size_kb == 24576 && m.pmd_kb == 2048,
	      "private mappings ignored even when larger; shmem THP noted");

	f = text("7f1000000000-7f1002000000 rw-p 00000000 00:00 0\nSize: 8 kB\nKernelPageSize: 4 kB\n");
	rc = pages_parse_smaps(f, &m);
	fclose(f);
	CHECK(rc == -1, "no shared mapping: not found");
}

static void test_meminfo(void)
{
	long used = -1, size = -1;
	FILE *f = text("MemTotal: 100 kB\nHugePages_Total:      20\nHugePages_Free:       12\n"
		       "HugePages_Rsvd:        4\nHugePages_Surp:        0\nHugepagesize:       2048 kB\n");
	int rc = pages_parse_meminfo(f, &used, &size);
	fclose(f);
	CHECK(rc == 0 && used == 12 && size == 2048, "meminfo: in use + reserved = %ld", used);
}

static void test_tally(void)
{
	struct wait_tally t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct json j;

	tally_init(&t);
	/* Sample 1: two on CPU, one in BufferMapping, one idle in ClientRead. */
	tally_row(&t, "active", NULL, NULL);
	tally_row(&t, "active", NULL, NULL);
	tally_row(&t, "active", "LWLock", "BufferMapping");
	tally_row(&t, "idle", "Client", "ClientRead");
	tally_end_sample(&t);
	/* Sample 2: a SpinDelay and two IO waits. */
	tally_row(&t, "active", "Timeout", "SpinDelay");
	tally_row(&t, "active", "IO", "DataFileRead");
	tally_row(&t, "active", "IO", "DataFileRead");
	tally_row(&t, NULL, "Activity", "WalWriterMain");
	tally_end_sample(&t);
	CHECK(t.samples == 2 && t.active_sum == 6 && t.on_cpu == 2 && t.spindelay == 1,
	      "only active backends counted; SpinDelay counted apart");

	f = open_memstream(&buf, &len);
	json_init(&j, f);
	json_begin_object(&j, NULL);
	tally_write_events(&j, &t);
	json_end_object(&j);
	json_finish(&j);
	fclose(f);
	const char *spin = strstr(buf, "Timeout:SpinDelay");
	const char *io = strstr(buf, "IO:DataFileRead");
	const char *lw = strstr(buf, "LWLock:BufferMapping");
	CHECK(spin && io && lw && spin < io && io < lw, "SpinDelay first, then by count");
	CHECK(!strstr(buf, "ClientRead"), "idle waits left out");
	free(buf);

	tally_init(&t);
	tally_end_sample(&t);
	f = open_memstream(&buf, &len);
	json_init(&j, f);
	json_begin_object(&j, NULL);
	tally_write_events(&j, &t);
	json_end_object(&j);
	json_finish(&j);
	fclose(f);
	CHECK(strstr(buf, "\"Timeout:SpinDelay\": 0") || strstr(buf, "\"Timeout:SpinDelay\":0"),
	      "SpinDelay present even at zero");
	free(buf);
}

/* The huge page policy of scripts/pg-run.sh, each branch in its order. */
static void test_hugepages(void)
{
	struct hp_verdict v;
	struct hp_state none = { .hpkb = 0, .avail_kb = 1 << 20, .root = true };
	struct hp_state s = { .hpkb = 2048, .free = 10, .nr = 30, .avail_kb = 1 << 20, .root = true };

	hp_decide(&none, 40, 65536, &v);
	CHECK(v.action == HP_REFUSE && strstr(v.fix, "CONFIG_HUGETLBFS"),
	      "no hugetlb: refused (%s)", v.text);
	hp_decide(&s, -1, 65536, &v);
	CHECK(v.action == HP_REFUSE && strstr(v.text, "no huge pages"),
	      "a server that names no huge page need: refused (%s)", v.text);
	hp_decide(&s, 10, 65536, &v);
	CHECK(v.action == HP_HAVE && strcmp(v.text, "10 huge pages of 2048 kB already free, 10 needed") == 0,
	      "enough free: nothing reserved (%s)", v.text);
	hp_decide(&s, 40, 65536, &v);
	CHECK(v.action == HP_RESERVE && v.want == 60 &&
	      strcmp(v.text, "reserved 40 huge pages of 2048 kB") == 0,
	      "root, room: reserve by difference, nr_hugepages %ld (30 + 40 - 10)", v.want);
	/* 30 more pages of 2 MB = 60 MB against 90% of 64 MB = 57.6 MB. */
	s.avail_kb = 65536;
	hp_decide(&s, 40, 65536, &v);
	CHECK(v.action == HP_REFUSE && strstr(v.text, "(80 MB) but only 64 MB") &&
	      strstr(v.fix, "vm.nr_hugepages=60"), "more than 90%% of available memory: refused (%s)",
	      v.text);
	s.avail_kb = 1 << 20;
	s.root = false;
	hp_decide(&s, 40, 65536, &v);
	CHECK(v.action == HP_REFUSE && strstr(v.text, "only root") && strstr(v.fix, "nr_hugepages=60"),
	      "not root: refused, naming the sysctl (%s)", v.fix);
	s.free = 3;
	hp_reserve_failed(&s, 40, 60, &v);
	CHECK(v.action == HP_REFUSE && strstr(v.text, "only 3 free after asking for 60") &&
	      strstr(v.fix, "hugepages=60"), "a failed reservation: refused, fragmentation named (%s)",
	      v.text);
}

/* scripts/pg-run.sh's options, each refusal naming the option and value. */
static void test_cluster_opts(void)
{
	struct cluster_opts ok = { "try", "16M", "18", "10", "100", "off", "0", "system", "18" };
	struct cluster_opts o;
	char err[512], warn[256];
	long kb = 0;
	static const struct {
		size_t field;
		const char *value, *says;
	} bad[] = {
		{ offsetof(struct cluster_opts, huge_pages), "yes", "--huge-pages must be off, on or try (got 'yes')" },
		{ offsetof(struct cluster_opts, duration), "0", "--duration must be a positive" },
		{ offsetof(struct cluster_opts, duration), "1.5", "--duration must be a positive" },
		{ offsetof(struct cluster_opts, max_connections), "", "the runs name no max_connections" },
		{ offsetof(struct cluster_opts, scale), "", "--scale is required" },
		{ offsetof(struct cluster_opts, scale), "-3", "--scale must be a positive number (got '-3')" },
		{ offsetof(struct cluster_opts, fillfactor), "9", "--fillfactor must be 10..100 (got '9')" },
		{ offsetof(struct cluster_opts, fillfactor), "101", "--fillfactor must be 10..100" },
		{ offsetof(struct cluster_opts, cold), "yes", "--cold must be on or off" },
		{ offsetof(struct cluster_opts, buffercache_ms), "99", "--buffercache-ms must be 0 or at least 100" },
		{ offsetof(struct cluster_opts, pg_version), "015", "--pg-version must be a major" },
		{ offsetof(struct cluster_opts, pg_version), "100", "--pg-version must be a major" },
		{ offsetof(struct cluster_opts, shared_buffers), "16Q", "--shared-buffers must be a size like 16M" },
		{ offsetof(struct cluster_opts, shared_buffers), "64k", "at least 128k" },
	};

	CHECK(cluster_opts_check(&ok, &kb, err, sizeof(err), warn, sizeof(warn)) == 0 && kb == 16384 &&
	      !warn[0], "cluster options: the defaults pass, 16M is %ld kB, no warning", kb);
	o = ok;
	o.pg_version = "17";
	o.buffercache_ms = "100";
	o.shared_buffers = "16MB";
	CHECK(cluster_opts_check(&o, &kb, err, sizeof(err), warn, sizeof(warn)) == 0 && kb == 16384,
	      "cluster options: PostgreSQL's own spelling 16MB, a major, 100 ms pass");
	o = ok;
	o.scale = "1";
	CHECK(cluster_opts_check(&o, &kb, err, sizeof(err), warn, sizeof(warn)) == 0 &&
	      strstr(warn, "scale 1 (~15 MB) fits in shared_buffers (16 MB)"),
	      "cluster options: tables that fit in shared_buffers are warned of (%s)", warn);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = ok;
		*(const char **)((char *)&o + bad[i].field) = bad[i].value;
		int rc = cluster_opts_check(&o, &kb, err, sizeof(err), warn, sizeof(warn));
		CHECK(rc == -1 && strstr(err, bad[i].says), "cluster options: '%s' refused: %s",
		      bad[i].value, err);
	}
}

int main(void)
{
	test_pgbench_summary();
	test_pgbench_failed_run();
	test_smaps();
	test_meminfo();
	test_hugepages();
	test_cluster_opts();
	test_tally();
	return CHECK_DONE();
}
