/*
 * build/stackfold [FILE]: `perf script` text (FILE or stdin) -> folded
 * stacks on stdout.  Standalone so guest-side perf data brought back by
 * the kernel runner folds the same way as host profiles.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "perf_script.h"

int main(int argc, char **argv)
{
	int quiet = 0;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-q"))
			quiet = 1;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: stackfold [-q] [PERF_SCRIPT_TEXT]\n"
			       "  folds `perf script` output into \"a;b;c count\" lines on stdout\n");
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "stackfold: unknown option '%s' (try --help)\n", argv[i]);
			return 2;
		} else
			path = argv[i];
	}
	FILE *in = stdin;
	if (path && strcmp(path, "-")) {
		in = fopen(path, "r");
		if (!in) {
			fprintf(stderr, "stackfold: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	struct folded f;
	struct fold_stats st;
	char err[512];
	fold_init(&f);
	int rc = perf_script_fold(in, path ? path : "stdin", &f, &st, err, sizeof(err));
	if (in != stdin)
		fclose(in);
	if (rc) {
		fprintf(stderr, "stackfold: %s\n", err);
		fold_free(&f);
		return 1;
	}
	fold_sort(&f);
	fold_write(&f, stdout);
	if (!quiet)
		fprintf(stderr, "stackfold: %ld samples, %zu distinct stacks, %ld of %ld frames unsymbolized\n",
			st.samples, f.n, st.unknown, st.frames);
	fold_free(&f);
	return fflush(stdout) ? 1 : 0;
}
