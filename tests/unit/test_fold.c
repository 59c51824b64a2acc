/*
 * The stack folder and the folded-profile helpers: perf script's corner
 * cases (comm with spaces, samples without a call chain, unsymbolized and
 * kernel frames, ';' inside a name), merging, the top-symbols counts, and
 * the flame graph's one-frame-per-tree-node rule.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/flame.h"
#include "report/fold.h"
#include "report/perf_script.h"

static double count_of(const struct folded *f, const char *stack)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->e[i].stack, stack))
			return f->e[i].count;
	return -1;
}

static int fold_text(const char *text, struct folded *f, struct fold_stats *st, char *err)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	fold_init(f);
	int rc = perf_script_fold(in, "test", f, st, err, 256);
	fclose(in);
	return rc;
}

int main(void)
{
	struct folded f;
	struct fold_stats st;
	char err[256];
	const char *text =
		"# ========\n"
		"# captured on: x\n"
		"postgres: bench 12 [local] UPDATE  4711/4711  [001]  100.000001:  250000 cpu-clock:ppp: \n"
		"\tffffffff81000001 native_queued_spin_lock_slowpath+0x1f ([kernel.kallsyms])\n"
		"\t            1234 s_lock+0x40 (/usr/lib/postgresql/15/bin/postgres)\n"
		"\t            2345 StrategyGetBuffer+0x10 (/usr/lib/postgresql/15/bin/postgres)\n"
		"\t            3456 [unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
		"\t               0 [unknown] ([unknown])\n"
		"\n"
		"postgres: bench 12 [local] UPDATE  4711/4711  [001]  100.000002:  250000 cpu-clock:ppp: \n"
		"\t            1234 s_lock+0x44 (/usr/lib/postgresql/15/bin/postgres)\n"
		"\t            2345 StrategyGetBuffer+0x12 (/usr/lib/postgresql/15/bin/postgres)\n"
		"\t            3456 [unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
		"\t               0 [unknown] ([unknown])\n"
		"\n"
		"bufbench 99 1.5: 1 cpu-clock:ppp:  4010 tas_acquire+0x3 (/x/bufbench)\n"
		"odd 7 1.6: 1 cpu-clock:ppp: \n"
		"\t4010 operator;weird+0x3 (/x/odd)\n";
	CHECK(fold_text(text, &f, &st, err) == 0, "fold a perf script text (%s)", err);
	CHECK(st.samples == 4, "4 samples (%ld)", st.samples);
	CHECK(f.n == 4, "4 distinct stacks (%zu)", f.n);
	CHECK(count_of(&f, "postgres: bench 12 [local] UPDATE;[unknown];[libc.so.6];StrategyGetBuffer;"
			   "s_lock;native_queued_spin_lock_slowpath_[k]") == 1,
	      "comm with spaces, root first, offsets dropped, kernel frame suffix, dso for unknown");
	CHECK(count_of(&f, "postgres: bench 12 [local] UPDATE;[unknown];[libc.so.6];StrategyGetBuffer;s_lock") == 1,
	      "second sample's stack");
	CHECK(count_of(&f, "bufbench;tas_acquire") == 1, "a sample without a call chain");
	CHECK(count_of(&f, "odd;operator:weird") == 1, "';' in a frame name is replaced");
	fold_free(&f);

	/* A header without its trailing blank: the event is no frame. */
	CHECK(fold_text("x 1 [000] 1.000000: 1 cpu-clock:\n"
			"\tffffffff81000000 f+0x1 ([kernel.kallsyms])\n\n"
			"y 2 2.000000: cpu-clock:ppp:\n\t10 g+0x1 (/x/y)\n", &f, &st, err) == 0 &&
	      f.n == 2 && count_of(&f, "x;f_[k]") == 1 && count_of(&f, "y;g") == 1,
	      "a header ending in the event name adds no frame (with and without a period)");
	fold_free(&f);
	CHECK(fold_text("z 3 3.000000: 7 cpu-clock: 4010 h+0x3 (/x/z)\n", &f, &st, err) == 0 &&
	      count_of(&f, "z;h") == 1, "without -g the header's own frame is kept");
	fold_free(&f);

	CHECK(fold_text("\t1234 s_lock (/x)\n", &f, &st, err) == -1 && strstr(err, "test:1:"),
	      "a frame outside a sample is an error naming the line: %s", err);
	fold_free(&f);
	/* Errors after frames were read: they were leaked (found by libFuzzer;
	 * the sanitizer build's leak check fails this test without the fix). */
	CHECK(fold_text("x 1 1.000000: 1 ev: \n\t1 f (/x)\nnot a header\n", &f, &st, err) == -1 &&
	      strstr(err, "test:3:"), "a bad header after a frame is an error: %s", err);
	fold_free(&f);
	CHECK(fold_text("x 1 1.000000: 1 ev: \n\t1 f (/x)\n\tnot a frame\n", &f, &st, err) == -1 &&
	      strstr(err, "test:3:"), "a bad frame line after a frame is an error: %s", err);
	fold_free(&f);
	CHECK(fold_text("hello world\n", &f, &st, err) == -1 && strstr(err, "sample header"),
	      "text that is not perf script is refused: %s", err);
	fold_free(&f);
	CHECK(fold_text("", &f, &st, err) == -1 && strstr(err, "no samples"),
	      "empty input says there were no samples: %s", err);
	fold_free(&f);

	/* Folded text: reading, merging, the top-symbols table. */
	const char *folded = "a;b;s_lock 6\na;b;c 3\na;c;c 1\na;b;s_lock 2\n\n";
	FILE *in = fmemopen((void *)folded, strlen(folded), "r");
	fold_init(&f);
	CHECK(fold_read(&f, in, "t", err, sizeof(err)) == 0 && f.n == 3 && f.total == 12,
	      "read folded lines, merging repeats (n=%zu total=%g)", f.n, f.total);
	fclose(in);
	struct symstat *s;
	size_t ns = fold_symbols(&f, &s);
	CHECK(ns == 4 && !strcmp(s[0].name, "s_lock") && s[0].self == 8 && s[0].total == 8,
	      "spin symbol first: s_lock self 8 total 8");
	int okc = 0, oka = 0;
	for (size_t i = 0; i < ns; i++) {
		if (!strcmp(s[i].name, "c"))
			okc = s[i].self == 4 && s[i].total == 4;  /* recursion counted once */
		if (!strcmp(s[i].name, "a"))
			oka = s[i].self == 0 && s[i].total == 12;
	}
	CHECK(okc, "self and total of a recursive frame");
	CHECK(oka, "root frame: total 12, self 0");
	fold_symbols_free(s, ns);

	/* Tree nodes: all, a, a;b, a;b;s_lock, a;b;c, a;c, a;c;c = 7 frames. */
	FILE *out = fopen("/dev/null", "w");
	struct flame_opts o = { "t", NULL, 1200, 0 };
	CHECK(flame_svg(out, &f, &o) == 7, "one frame per tree node");
	struct folded g;
	fold_init(&g);
	fold_add(&g, "a;b;c", 5);
	CHECK(flame_diff_svg(out, &g, &f, &o) == 7, "differential keeps the second profile's shape");
	o.minwidth = 1180.0 * 1.5 / 12;  /* one-sample frames (a;c, a;c;c) vanish */
	CHECK(flame_svg(out, &f, &o) == 5, "minwidth prunes narrow frames");
	fclose(out);
	fold_free(&g);

	/* Counts are decimal integers: strtod took these, and a NaN or an
	 * infinite total broke the graph. */
	static const char *bad_counts[] = { "a;b nan\n", "a;b inf\n", "a;b 0x10\n", "a;b 1e3\n",
					    "a;b -1\n", "a;b 1.5\n", "a;b +3\n", "a;b 1234567890123456\n" };
	int refused = 0;
	for (size_t i = 0; i < sizeof(bad_counts) / sizeof(bad_counts[0]); i++) {
		struct folded h;
		fold_init(&h);
		in = fmemopen((void *)bad_counts[i], strlen(bad_counts[i]), "r");
		refused += fold_read(&h, in, "c.folded", err, sizeof(err)) == -1 && strstr(err, "c.folded:1");
		fclose(in);
		fold_free(&h);
	}
	CHECK(refused == (int)(sizeof(bad_counts) / sizeof(bad_counts[0])),
	      "nan, inf, hex, exponents, signs, fractions and 16 digits are refused (%d)", refused);

	in = fmemopen((void *)"a;b 3\nbroken\n", 13, "r");
	CHECK(fold_read(&f, in, "x.folded", err, sizeof(err)) == -1 && strstr(err, "x.folded:2"),
	      "a bad folded line is named: %s", err);
	fclose(in);
	fold_free(&f);
	/* A 20,000-frame stack (runaway recursion) crashed the renderer: the
	 * tree is cut at 512 frames with one "[truncated]" frame below. */
	size_t deep = 20000, dl = 0;
	char *stack = malloc(deep * 8 + 8);
	for (size_t i = 0; i < deep; i++)
		dl += (size_t)sprintf(stack + dl, "%sf%zu", i ? ";" : "", i);
	fold_init(&f);
	fold_add(&f, stack, 5);
	fold_add(&f, "f0;g", 1);
	fold_init(&g);
	fold_add(&g, stack, 2);
	out = tmpfile();
	o.minwidth = 0;
	long frames = flame_svg(out, &f, &o);
	CHECK(frames == 1 + 512 + 1 + 1, "a 20000-frame stack draws 512 frames, [truncated] and f0;g (%ld)", frames);
	rewind(out);
	char svg[4096];
	int marked = 0;
	while (fgets(svg, sizeof(svg), out))
		marked |= strstr(svg, "<title>[truncated]: the frames past the first 512") != NULL;
	CHECK(marked, "the truncated frame says what it is");
	fclose(out);
	out = fopen("/dev/null", "w");
	CHECK(flame_diff_svg(out, &g, &f, &o) == frames, "a differential of deep stacks too");
	fclose(out);
	ns = fold_symbols(&f, &s);
	CHECK(ns == deep + 1, "top symbols of a deep stack: every frame counted (%zu)", ns);
	fold_symbols_free(s, ns);
	fold_free(&f);
	fold_free(&g);
	free(stack);

	CHECK(sym_is_spin("s_lock") && sym_is_spin("tas_acquire") && !sym_is_spin("StrategyGetBuffer") &&
	      !sym_is_spin("_raw_spin_lock_[k]"),
	      "spin symbol classification");
	return CHECK_DONE();
}
