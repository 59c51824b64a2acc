/*
 * libFuzzer target: folded stacks (lab/report/fold.c) on any bytes, and
 * everything the report and build/flamegraph do with a profile that
 * reads: sort, top symbols, flame graph and differential.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/flame.h"
#include "report/fold.h"

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
	char err[512];
	fold_init(&f);
	if (fold_read(&f, in, "fuzz", err, sizeof(err)) == 0) {
		fold_sort(&f);
		struct symstat *s;
		size_t n = fold_symbols(&f, &s);
		fold_symbols_free(s, n);
		struct flame_opts o = { "fuzz", NULL, 1200, 0 };
		flame_svg(sink, &f, &o);
		flame_diff_svg(sink, &f, &f, &o);
	}
	fold_free(&f);
	fclose(in);
	return 0;
}
