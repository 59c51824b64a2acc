/*
 * build/model RUN: the model's inputs from an EVIDENCE run (make model
 * RUN=results/DIR), one model-inputs-PAGES-cCLIENTS.json per page size and
 * client count, written into RUN.  Exit 3 when a run had an instrument
 * inside the hold (its q and T would describe the instrument), 2 on any
 * other error.
 *
 * build/model --validate PREDICTIONS RUN: predictions made before RUN was
 * measured against its measurements (validate.c), with the skill against
 * the null predictor "1.000x".  build/model --skill TABLE...: the skill of
 * committed validation tables (docs/model/validation-NAME/validation.txt).
 *
 * Calibrations name the code that measured them (issue 37): runs of a tree
 * with uncommitted changes ("-dirty") are used only with the diff their
 * runner saved, whose hash goes into the inputs' source; without it the
 * run is refused (exit 2) and nothing is written.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "extract.h"
#include "sha256.h"
#include "validate.h"

/*
 * build/model --skill TABLE...: each validation table's skill against the
 * null "1.000x", then all their cells pooled.
 */
static int skill_tables(int n, char **paths)
{
	static double p[MV_MAX_CELLS], m[MV_MAX_CELLS], t[MV_MAX_CELLS];
	int all = 0, eq_all = 0;
	char err[512];
	for (int i = 0; i < n; i++) {
		int got = mv_read_table(paths[i], p + all, m + all, t + all, MV_MAX_CELLS - all, err, sizeof(err));
		if (got < 0) {
			printf("%s: %s\n", paths[i], err);
			continue;
		}
		struct mv_skill k;
		mv_skill(p + all, m + all, t + all, got, 37, &k);
		mv_skill_print(stdout, paths[i], &k);
		int cells, eq = mv_table_equivalent(paths[i], &cells);
		printf("  equivalent to the prediction within +-%.2f (the measured 95%% interval inside): "
		       "%d/%d cells\n", MV_EQ_MARGIN, eq, cells);
		eq_all += eq;
		all += got;
	}
	if (!all) {
		fprintf(stderr, "model: --skill: no measured cells in the tables given\n");
		return MX_ERR;
	}
	struct mv_skill k;
	mv_skill(p, m, t, all, 37, &k);
	printf("  all pooled: equivalent within +-%.2f in %d/%d cells\n", MV_EQ_MARGIN, eq_all, all);
	mv_skill_print(stdout, "all pooled", &k);
	return MX_OK;
}

/*
 * A dirty revision among the group's: RUN/logs/lab-dirty.patch (written by
 * scripts/common.sh lab_record_source when the run started) must be there,
 * a regular file with content; its sha256 is appended to the revision.
 */
static int record_dirty_diff(const char *run, struct extract_group *g, char *err, size_t errlen)
{
	if (!strstr(g->revision, "-dirty"))
		return MX_OK;
	char path[4200], hex[65];
	struct stat st;
	snprintf(path, sizeof(path), "%s/logs/lab-dirty.patch", run);
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 ||
	    sha256_file(path, hex) != 0) {
		snprintf(err, errlen, "%.16s pages, %d clients: the runs ran lab %.120s, a tree with "
			 "uncommitted changes, and %.500s, which would record them, is missing, empty or "
			 "unreadable: a calibration must name the code that measured it (make bench "
			 "from a committed tree, or keep the run's logs/lab-dirty.patch)",
			 g->page, g->clients, g->revision, path);
		return MX_ERR;
	}
	size_t l = strlen(g->revision);
	snprintf(g->revision + l, sizeof(g->revision) - l,
		 ", diff sha256 %s in logs/lab-dirty.patch", hex);
	return MX_OK;
}

int main(int argc, char **argv)
{
	char err[1024];
	if (argc == 4 && strcmp(argv[1], "--validate") == 0) {
		int rc = mv_validate(argv[2], argv[3], stdout, err, sizeof(err));
		if (rc != MX_OK)
			fprintf(stderr, "model: %s\n", err);
		return rc;
	}
	if (argc >= 3 && strcmp(argv[1], "--skill") == 0)
		return skill_tables(argc - 2, argv + 2);
	if (argc != 2 || strcmp(argv[1], "--help") == 0) {
		fprintf(argc == 2 ? stdout : stderr, "usage: model RUN   (a make bench EVIDENCE=on results directory)\n"
			"       model --validate PREDICTIONS RUN\n"
			"       model --skill VALIDATION.txt...\n");
		return argc == 2 ? 0 : 2;
	}
	static struct extract_set s;
	int rc = extract_scan(argv[1], &s, err, sizeof(err));
	if (rc != MX_OK) {
		fprintf(stderr, "model: %s\n", err);
		return rc;
	}
	for (int i = 0; i < s.ngroups; i++)
		if (record_dirty_diff(argv[1], &s.g[i], err, sizeof(err)) != MX_OK) {
			fprintf(stderr, "model: %s\n", err);
			return MX_ERR;
		}
	int written = 0;
	for (int i = 0; i < s.ngroups; i++) {
		const struct extract_group *g = &s.g[i];
		/* The page policy names the file: a document's text must not pick a path. */
		if (g->page[strspn(g->page, "abcdefghijklmnopqrstuvwxyz0123456789-")] != '\0' || !g->page[0]) {
			fprintf(stderr, "model: page policy \"%s\" is not a page size name: skipped\n", g->page);
			continue;
		}
		char path[4400];
		snprintf(path, sizeof(path), "%s/model-inputs-%s-c%d.json", argv[1], g->page, g->clients);
		FILE *f = fopen(path, "w");
		if (!f) {
			perror(path);
			return MX_ERR;
		}
		rc = extract_write(f, g, argv[1], err, sizeof(err));
		if (fclose(f) != 0 || rc != MX_OK) {
			fprintf(stderr, "model: %s: %s\n", path, rc != MX_OK ? err : "write failed");
			remove(path);
			continue;
		}
		printf("model: %s (%d runs, %d CPUs)\n", path, g->runs, g->cpus);
		written++;
	}
	if (s.mitigated)
		printf("model: %d documents of a mitigation other than none left out "
		       "(config.mitigation; only the unmitigated cells are the model's)\n", s.mitigated);
	if (s.twinned)
		printf("model: %d runs timed by their bare twin (CONTROLS: X0 and the measured tps are "
		       "the twins', q, p_f and T the instrumented runs')\n", s.twinned);
	if (s.skipped)
		printf("model: %d documents skipped (not bufbench with evidence, or failed)\n", s.skipped);
	return written ? MX_OK : MX_ERR;
}
