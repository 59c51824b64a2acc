/*
 * libFuzzer target: `perf script` text (lab/report/perf_script.c) on any
 * bytes, then the folded result as build/stackfold writes it and as the
 * flame graph draws it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/flame.h"
#include "report/fold.h"
#include "report/perf_script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	if (!sink && !(sink = fopen("/dev/null", "w")))
		return 0;
	if (!size)  /* fmemopen wants a buffer */
		return 0;
	FILE *in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	struct folded f;
	struct fold_stats st;
	char err[512];
	fold_init(&f);
	if (perf_script_fold(in, "fuzz", &f, &st, err, sizeof(err)) == 0) {
		fold_sort(&f);
		fold_write(&f, sink);
		struct flame_opts o = { "fuzz", NULL, 1200, 0 };
		flame_svg(sink, &f, &o);
	}
	fold_free(&f);
	fclose(in);
	return 0;
}
