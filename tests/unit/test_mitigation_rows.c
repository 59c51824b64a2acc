/*
 * The mitigation rows (lab/common/mitigation_rows.c) against what they
 * describe: every name of the vocabulary has a row and every row a name;
 * a row that says PostgreSQL gets it by a patch has that patch in each
 * major the lab builds, one that says another major names one pg/majors
 * lists; and the lookups a PostgreSQL run relies on.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mitigation_rows.h"
#include "vocab.h"

static int readable(const char *fmt, const char *a, const char *b)
{
	char path[4096];
	snprintf(path, sizeof(path), fmt, PREEMPTLAB_TOP, a, b);
	return access(path, R_OK) == 0;
}

static int major_listed(const char *major)
{
	char path[4096], line[256], m[16];
	snprintf(path, sizeof(path), "%s/pg/majors", PREEMPTLAB_TOP);
	FILE *f = fopen(path, "r");
	int found = 0;
	while (f && !found && fgets(line, sizeof(line), f))
		found = line[0] != '#' && sscanf(line, "%15s", m) == 1 && !strcmp(m, major);
	if (f)
		fclose(f);
	return found;
}

int main(void)
{
	size_t rows = 0;
	for (size_t i = 0; i < vocab_mitigations.n; i++) {
		const char *name = vocab_mitigations.items[i].name;
		const struct mitigation_row *r = mitigation_row(name);
		CHECK(r != NULL, name);
		if (r)
			CHECK(strncmp(r->name, name, strlen(r->name)) == 0, "its row is its own");
	}
	for (const struct mitigation_row *r; (r = mitigation_row_at(rows)); rows++) {
		int named = 0;
		char item[64] = "";
		for (size_t i = 0; i < vocab_mitigations.n; i++)
			if (mitigation_row(vocab_mitigations.items[i].name) == r) {
				named = 1;
				/* "partitioned:N" as MITIGATIONS would give it. */
				snprintf(item, sizeof(item), "%s%s", r->name,
					 strchr(vocab_mitigations.items[i].name, ':') ? ":8" : "");
			}
		CHECK(named, r->name);
		if (r->pg == PGW_PATCH)
			CHECK(readable("%s/pg/patches/%s/%s.patch", "18", r->name) &&
			      readable("%s/pg/patches/%s/%s.patch", "15", r->name),
			      "a patched row has pg/patches/18 and 15/NAME.patch");
		if (r->pg == PGW_MAJOR)
			CHECK(r->pg_major && major_listed(r->pg_major), "another major's row names one of pg/majors");
		if (r->pg == PGW_ABSENT)
			CHECK(r->pg_absent && *r->pg_absent, "an absent row says what PostgreSQL lacks");
		if (r->cost == COST_TEXT)
			CHECK(r->cost_text && *r->cost_text, "a text cost has its text");
		/* What it sets is a value of that dimension's vocabulary. */
		const struct vocab *dim = r->sets == SETS_LOCK ? &vocab_locks :
					  r->sets == SETS_PAGES ? &vocab_pages :
					  r->sets == SETS_STRATEGY ? &vocab_strategies : NULL;
		const char *to = mitigation_sets_to(r, item);
		if (dim) {
			CHECK(vocab_find(dim, to, NULL) != NULL, to);
			CHECK(!r->sets_also || vocab_find(dim, r->sets_also, NULL), "its second value too");
		} else {
			CHECK(!r->sets_to && !r->sets_also, "a row that sets nothing names no value");
		}
	}
	CHECK(rows == vocab_mitigations.n, "one row a vocabulary name");
	CHECK(mitigation_row("rseq:20") == mitigation_row("rseq"), "rseq:20 is rseq's row");
	CHECK(!strcmp(mitigation_sets_to(mitigation_row("partitioned:8"), "partitioned:8"), "partitioned:8"),
	      "partitioned:8 sets --strategy partitioned:8");
	CHECK(mitigation_row("partitioned:8") && !mitigation_in_pg("partitioned:8"), "partitioned:8: bufbench's");
	CHECK(mitigation_in_pg("none") && mitigation_in_pg("prefault") && mitigation_in_pg("pg19"),
	      "none, prefault, pg19: PostgreSQL's");
	CHECK(!mitigation_in_pg("rseq:20") && !mitigation_in_pg("nonesuch") && !mitigation_in_pg("none:3"),
	      "rseq:20, an unknown name and a parameter on a plain one: not PostgreSQL's");
	char names[256];
	mitigation_pg_names(names, sizeof(names));
	CHECK(strstr(names, "touch-before-lock") && !strstr(names, "rseq"), names);
	return CHECK_DONE();
}
