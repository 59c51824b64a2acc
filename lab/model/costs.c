/* Fault costs from costbench documents (see costs.h). */
#include "costs.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "statistics.h"

static const char *const ops[MI_PAGES][2] = {
	{ "ops.fault_4k_alloc", "ops.fault_4k_map" },
	{ "ops.fault_2m_alloc", "ops.fault_2m_map" },
};

/* ns.median of an available op, in us; 0 when it was not measured. */
static double op_us(const struct json_read_val *doc, const char *op)
{
	char path[96];
	const struct json_read_val *o = json_read_path(doc, op);
	double ns;
	snprintf(path, sizeof(path), "%s.ns.median", op);
	if (!json_read_true(o, "available") || !json_read_num(doc, path, &ns) || ns <= 0)
		return 0;
	return ns / 1000;
}

bool fc_read(const char *path, struct fault_costs *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	struct json_read_val *d = json_read_parse_file(path, err, errlen);
	if (!d)
		return false;
	bool ok = strcmp(json_read_str(d, "tool", ""), "costbench") == 0;
	if (!ok)
		snprintf(err, errlen, "%s: not a costbench document", path);
	for (int p = 0; ok && p < MI_PAGES; p++) {
		c->alloc_us[p] = op_us(d, ops[p][0]);
		c->map_us[p] = op_us(d, ops[p][1]);
	}
	if (ok) {
		c->docs = 1;
		snprintf(c->source, sizeof(c->source), "costbench %s (%s, model %s)", path,
			 json_read_str(d, "provenance.kernel_release", "?"), json_read_str(d, "provenance.preempt_model", "?"));
	}
	json_read_free(d);
	return ok;
}

static double median_of(double *v, int n)
{
	return n ? st_median(v, (size_t)n) : 0;
}

void fc_scan_run(const char *rundir, struct fault_costs *c)
{
	memset(c, 0, sizeof(*c));
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/logs", rundir);
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	enum { MAXD = 64 };
	static double v[2][MI_PAGES][2][MAXD];	/* [none?][page][alloc/map][doc] */
	int n[2] = { 0, 0 };
	struct dirent *de;
	while ((de = readdir(dh))) {
		size_t l = strlen(de->d_name);
		if (strncmp(de->d_name, "costbench-", 10) != 0 || l < 5 || strcmp(de->d_name + l - 5, ".json"))
			continue;
		char path[8192], err[256];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		struct json_read_val *d = json_read_parse_file(path, err, sizeof(err));
		if (!d)
			continue;
		int none = strcmp(json_read_str(d, "provenance.preempt_model", ""), "none") == 0;
		if (strcmp(json_read_str(d, "tool", ""), "costbench") == 0 && n[none] < MAXD) {
			for (int p = 0; p < MI_PAGES; p++) {
				v[none][p][0][n[none]] = op_us(d, ops[p][0]);
				v[none][p][1][n[none]] = op_us(d, ops[p][1]);
			}
			n[none]++;
		}
		json_read_free(d);
	}
	closedir(dh);
	int w = n[1] ? 1 : 0;
	c->docs = n[w];
	for (int p = 0; p < MI_PAGES; p++)
		for (int k = 0; k < 2; k++) {
			/* Only the documents that measured it: 2 MB needs a reservation. */
			double got[MAXD];
			int ng = 0;
			for (int i = 0; i < n[w]; i++)
				if (v[w][p][k][i] > 0)
					got[ng++] = v[w][p][k][i];
			(k ? c->map_us : c->alloc_us)[p] = median_of(got, ng);
		}
	if (c->docs)
		snprintf(c->source, sizeof(c->source), "median of %d costbench document%s in %s/logs (%s)",
			 c->docs, c->docs > 1 ? "s" : "", rundir, w ? "model none" : "every model");
}
