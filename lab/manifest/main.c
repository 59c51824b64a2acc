/*
 * build/manifest RUNDIR: RUNDIR/manifest.json on stdout, from RUNDIR's
 * plan.json and logs/outcomes.tsv (scripts/run-plan.sh writes both, then
 * runs this).  Exit 1 with a reason when either cannot be read.
 */
#include "manifest.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s RUNDIR\n", argv[0]);
		return 2;
	}
	char err[512];
	json_t *m = manifest_compose(argv[1], err, sizeof(err));
	if (!m) {
		fprintf(stderr, "manifest: %s\n", err);
		return 1;
	}
	int rc = json_dumpf(m, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(m);
	if (rc || fputc('\n', stdout) == EOF || fflush(stdout)) {
		fprintf(stderr, "manifest: cannot write\n");
		return 1;
	}
	return 0;
}
