/*
 * build/manifest's composition: planned facts from plan.json, observed
 * ones from logs/outcomes.tsv, counts from the run directory; a malformed
 * outcome line is refused, not skipped.
 */
#include "check.h"
#include "manifest/manifest.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/test_manifest.XXXXXX";

static void put(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static const char *s(json_t *m, const char *a, const char *b)
{
	json_t *v = json_object_get(m, a);
	if (b)
		v = json_object_get(v, b);
	return json_string_value(v) ? json_string_value(v) : "(none)";
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	char sub[300];
	snprintf(sub, sizeof(sub), "%s/logs", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof(sub), "%s/runs", dir);
	mkdir(sub, 0700);
	put("plan.json",
	    "{\"schema\":\"preemptlab.plan/1\",\"command\":\"make bench KERNEL=7.0\","
	    "\"settings\":{\"kernel\":{\"source\":\"apt\"},\"pages\":[\"4k\"]},"
	    "\"units\":[{\"id\":\"main.lazy\",\"kind\":\"guest\",\"role\":\"main\","
	    "\"boot_model\":\"lazy\",\"models\":[\"lazy\"]}],"
	    "\"estimate\":{\"cells\":3}}");
	put("runs/bufbench-7.0-lazy-4k-tas-c2-r1.json", "{}");
	put("runs/pgbench-7.0-lazy-hpoff-c2-r1.json", "{}");
	put("logs/outcomes.tsv",
	    "run\t-\tstarted\t1000\n"
	    "unit\tmain.lazy\tlabel\t7.0\n"
	    "unit\tmain.lazy\taccel\ttcg\n"
	    "unit\tmain.lazy\tcmdline\tconsole=ttyS0 preempt=lazy\n"
	    "unit\tmain.lazy\tguest_hugepages\t2m\n"
	    "boot\t7.0-lazy-boot1\tunit\tmain.lazy\n"
	    "boot\t7.0-lazy-boot1\tboot\t1\n"
	    "boot\t7.0-lazy-boot1\tend\tdone\n"
	    "boot\t7.0-lazy-boot1\tready_s\t\n"
	    "boot\t7.0-lazy-boot1\tvcpus_pinned\t\n"
	    "cell\tbufbench-7.0-lazy-4k-tas-c2-r2\tstatus\tfailed\n"
	    "cell\tbufbench-7.0-lazy-4k-tas-c2-r2\treason\tno result within 2s: unit stopped\n"
	    "cell\tpgbench-7.0-lazy-hpoff\tstatus\tpassed\n"
	    "run\t-\tended\t1042\n"
	    "run\t-\tinterrupted\t0\n");
	char err[512] = "";
	json_t *m = manifest_compose(dir, err, sizeof(err));
	CHECK(m != NULL, "composed (%s)", err);
	if (!m)
		return CHECK_DONE();
	CHECK(!strcmp(s(m, "schema", NULL), MANIFEST_SCHEMA), "schema %s", s(m, "schema", NULL));
	CHECK(!strcmp(s(m, "command", NULL), "make bench KERNEL=7.0"), "command from the plan");
	json_t *u = json_array_get(json_object_get(m, "units"), 0);
	CHECK(!strcmp(s(u, "role", NULL), "main") && !strcmp(s(u, "kind", NULL), "guest"),
	      "the unit's role and kind are the plan's");
	json_t *want = json_pack("[s]", "lazy");
	CHECK(json_equal(json_object_get(u, "models"), want), "the unit's models are the plan's");
	json_decref(want);
	CHECK(json_is_true(json_object_get(u, "emulated")), "tcg is emulated");
	CHECK(!strcmp(s(u, "guest_memory", NULL), "host huge pages of 2m (memfd hugetlb)"),
	      "guest memory: %s", s(u, "guest_memory", NULL));
	CHECK(json_is_null(json_object_get(u, "image")), "a fact the runner did not state is null");
	json_t *b = json_array_get(json_object_get(m, "boots"), 0);
	CHECK(json_integer_value(json_object_get(b, "boot")) == 1, "boot number is a number");
	CHECK(json_is_null(json_object_get(b, "ready_s")), "an empty ready_s (never) is null");
	CHECK(json_is_null(json_object_get(b, "vcpus_pinned")), "unpinned is null");
	json_t *c = json_object_get(m, "cells");
	CHECK(json_integer_value(json_object_get(c, "total")) == 3, "total from the plan");
	CHECK(json_integer_value(json_object_get(c, "ok")) == 2,
	      "ok: one bufbench document and one passed pgbench cell");
	CHECK(json_integer_value(json_object_get(c, "failed")) == 1, "one failed");
	CHECK(json_integer_value(json_object_get(c, "pgbench_documents")) == 1, "one pgbench document");
	json_t *o = json_object_get(c, "outcomes");
	CHECK(json_array_size(o) == 1 &&
	      !strcmp(s(json_array_get(o, 0), "reason", NULL), "no result within 2s: unit stopped"),
	      "the failed cell and its reason, passed cells not listed");
	CHECK(json_integer_value(json_object_get(m, "wall_s")) == 42, "wall time from started/ended");
	CHECK(json_is_false(json_object_get(m, "interrupted")), "not interrupted");
	CHECK(!strcmp(s(m, "plan", "schema"), "preemptlab.plan/1"), "the plan is embedded whole");
	json_decref(m);

	put("logs/outcomes.tsv", "unit\tmain.lazy\tlabel\n");
	m = manifest_compose(dir, err, sizeof(err));
	CHECK(!m && strstr(err, "outcomes.tsv:1"), "a three-field line is refused: %s", err);
	put("logs/outcomes.tsv", "bogus\tx\tk\tv\n");
	m = manifest_compose(dir, err, sizeof(err));
	CHECK(!m && strstr(err, "unknown record"), "an unknown record is refused: %s", err);
	unlink(strcat(strcpy(sub, dir), "/plan.json"));
	m = manifest_compose(dir, err, sizeof(err));
	CHECK(!m && strstr(err, "plan.json"), "no plan: refused: %s", err);

	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 1;
	return CHECK_DONE();
}
