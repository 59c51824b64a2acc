/*
 * build/flamegraph [options] FOLDED            -> SVG on stdout
 * build/flamegraph [options] --diff A B        -> differential SVG
 * build/flamegraph [options] --diff-cells RUNDIR KERNEL/MODEL,KERNEL/MODEL
 *                                              -> RUNDIR/flame-diff-*.svg
 * A folded file may be "-" for stdin.  --minwidth 0 draws every frame
 * (the tests count them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "flame_cells.h"
#include "fold.h"

static int load(struct folded *f, const char *path)
{
	char err[512];
	fold_init(f);
	int rc = !strcmp(path, "-") ? fold_read(f, stdin, "stdin", err, sizeof(err))
				    : fold_read_file(f, path, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "flamegraph: %s\n", err);
		return -1;
	}
	fold_sort(f);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: flamegraph [--title T] [--subtitle S] [--width PX] [--minwidth PX]\n"
		   "                  (FOLDED | --diff BEFORE AFTER) > out.svg\n"
		   "       flamegraph [options] --diff-cells RUNDIR A,B  (make flamegraph DIFF=A,B)\n"
		   "  --diff: shape of AFTER, red = larger share than in BEFORE, blue = smaller\n");
}

int main(int argc, char **argv)
{
	struct flame_opts o = { NULL, NULL, 1200, 0.1 };
	const char *files[2] = { NULL, NULL };
	int diff = 0, nf = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--diff"))
			diff = 1;
		else if (!strcmp(a, "--diff-cells"))
			diff = 2;
		else if (!strcmp(a, "--title") && i + 1 < argc)
			o.title = argv[++i];
		else if (!strcmp(a, "--subtitle") && i + 1 < argc)
			o.subtitle = argv[++i];
		else if (!strcmp(a, "--width") && i + 1 < argc)
			o.width = atoi(argv[++i]);
		else if (!strcmp(a, "--minwidth") && i + 1 < argc)
			o.minwidth = atof(argv[++i]);
		else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "flamegraph: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		} else if (nf < 2)
			files[nf++] = a;
		else {
			usage(stderr);
			return 2;
		}
	}
	if (nf != (diff ? 2 : 1) || o.width < 100) {
		usage(stderr);
		return 2;
	}
	if (diff == 2)
		return flame_diff_cells(files[0], files[1], &o);
	struct folded a, b;
	if (load(&a, files[0]))
		return 1;
	long frames;
	char sub[1024];
	if (diff) {
		if (load(&b, files[1]))
			return 1;
		if (!o.subtitle) {
			snprintf(sub, sizeof(sub), "shape of %s; red = larger share than in %s, blue = smaller",
				 files[1], files[0]);
			o.subtitle = sub;
		}
		if (!o.title)
			o.title = "Differential flame graph";
		frames = flame_diff_svg(stdout, &a, &b, &o);
		fold_free(&b);
	} else {
		if (!o.title)
			o.title = "Flame graph";
		frames = flame_svg(stdout, &a, &o);
	}
	fprintf(stderr, "flamegraph: %ld frames\n", frames);
	fold_free(&a);
	return fflush(stdout) ? 1 : 0;
}
