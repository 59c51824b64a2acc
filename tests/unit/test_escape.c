/*
 * The report's one sanitiser (lab/report/escape.c): terminal controls,
 * invalid UTF-8 and bidi overrides become '?' in text; markdown and HTML
 * become literal in report.md; valid UTF-8 stays; and esc_printf formats
 * everything but %s exactly as fprintf does.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/escape.h"

static int txt_is(const char *in, const char *want)
{
	char *got = esc_dup(in, ESC_TXT);
	int ok = !strcmp(got, want);
	if (!ok)
		printf("  got \"%s\"\n", got);
	free(got);
	return ok;
}

static int md_is(const char *in, const char *want)
{
	char *got = esc_dup(in, ESC_MD);
	int ok = !strcmp(got, want);
	if (!ok)
		printf("  got \"%s\"\n", got);
	free(got);
	return ok;
}

/* esc_printf's text for fmt with the same arguments as snprintf's. */
#define SAME(fmt, ...)                                                          \
	do {                                                                    \
		char want[256], *got = NULL;                                    \
		size_t gl = 0;                                                  \
		FILE *m = open_memstream(&got, &gl);                            \
		snprintf(want, sizeof(want), fmt, __VA_ARGS__);                 \
		esc_printf(m, ESC_TXT, fmt, __VA_ARGS__);                       \
		fclose(m);                                                      \
		CHECK(!strcmp(got, want), "esc_printf(\"%s\") as printf: \"%s\"", fmt, got); \
		free(got);                                                      \
	} while (0)

int main(void)
{
	CHECK(txt_is("plain 6.12.57+deb12-amd64", "plain 6.12.57+deb12-amd64"), "plain text unchanged");
	{
		char *h = esc_dup("<b a=\"x\" b='y'>&\033</b>", ESC_HTML);
		CHECK(strcmp(h, "&lt;b a=&quot;x&quot; b=&#39;y&#39;&gt;&amp;?&lt;/b&gt;") == 0,
		      "ESC_HTML: markup and quotes become entities, ESC becomes ?: %s", h);
		free(h);
	}
	CHECK(txt_is("a\033]0;title\007b", "a?]0;title?b"), "ESC and BEL become ?");
	CHECK(txt_is("a\033[31mred\033[0m", "a?[31mred?[0m"), "a colour sequence loses its ESC");
	CHECK(txt_is("line\nfake: line\r\t", "line?fake: line??"), "newline, CR and tab become ?");
	CHECK(txt_is("del\177", "del?"), "DEL becomes ?");
	CHECK(txt_is("h\xc3\xa9llo \xe6\x97\xa5\xe6\x9c\xac", "h\xc3\xa9llo \xe6\x97\xa5\xe6\x9c\xac"),
	      "valid UTF-8 is kept");
	CHECK(txt_is("csi\xc2\x9b" "31m", "csi?31m"), "a C1 control (U+009B, CSI) becomes ?");
	CHECK(txt_is("abc\xe2\x80\xae" "cba", "abc?cba"), "a bidi override (U+202E) becomes ?");
	CHECK(txt_is("bad\xff\xfe", "bad??"), "bytes that are never UTF-8 become ? each");
	CHECK(txt_is("cut\xe6\x97", "cut??"), "a sequence cut short becomes ? per byte");
	CHECK(txt_is("over\xc0\xaf", "over??"), "an overlong form is invalid");
	CHECK(txt_is("sur\xed\xa0\x80", "sur???"), "an encoded surrogate is invalid");
	CHECK(txt_is("big\xf4\x90\x80\x80", "big????"), "past U+10FFFF is invalid");
	CHECK(txt_is("<b>#|`*", "<b>#|`*"), "markdown characters are plain in text");

	CHECK(md_is("# Fake heading", "\\# Fake heading"), "md: a heading's # is escaped");
	CHECK(md_is("<script>alert(1)</script>", "&lt;script>alert(1)&lt;/script>"),
	      "md: HTML cannot open (< is an entity)");
	CHECK(md_is("a|b", "a\\|b"), "md: | cannot split a table cell");
	CHECK(md_is("`code` *em* [link](x) \\", "\\`code\\` \\*em\\* \\[link](x) \\\\"),
	      "md: backquotes, emphasis, links and backslashes are literal");
	CHECK(md_is("a\\|b", "a\\\\\\|b"), "md: a backslash in the data cannot undo the | escape");
	CHECK(md_is("> quoted", "&gt; quoted"), "md: a leading > cannot start a quote");
	CHECK(md_is("6.12 -> 7.0 #1", "6.12 -> 7.0 #1"), "md: > and # inside a value stay as they are");
	CHECK(md_is("AT&T", "AT&amp;T"), "md: & is an entity");
	CHECK(md_is("x\n# y\033", "x?# y?"), "md: controls as in text, so no new line starts");
	CHECK(md_is("6.12/none lazy_x", "6.12/none lazy_x"), "md: ordinary names unchanged");

	/* The formats the report uses. */
	SAME("%s|%5s|%-6s|%.2s|%-8.8s|", "a", "bc", "def", "ghij", "klmnopqrstu");
	SAME("%d %5d %-4d %ld %lld %zu %3zu", -3, 42, 7, -1234567890123L, 9LL, (size_t)12, (size_t)5);
	SAME("%.0f %.1f %+.1f%% %10.3e %g %.3g", 1.5, 2.25, -3.14, 12345.678, 0.1, 2.0 / 3);
	SAME("%*s|%-*s|%.*s|%c%c", 6, "ab", 4, "cd", 2, "efgh", 'x', 'y');
	SAME("%x %X %o %u %lu", 255u, 255u, 8u, 4000000000u, 42UL);
	SAME("100%% C%-3d %s", 7, "done");

	char *got = NULL;
	size_t gl = 0;
	FILE *m = open_memstream(&got, &gl);
	md_printf(m, "| %s | C%d | %.1f%% |\n", "a|b<i>", 3, 12.5);
	txt_printf(m, "%-10s|%c\n", "e\033x", '\007');
	fclose(m);
	CHECK(!strcmp(got, "| a\\|b&lt;i> | C3 | 12.5% |\ne?x       |?\n"),
	      "%%s and %%c arguments are escaped, the format and numbers are not: \"%s\"", got);
	free(got);
	return CHECK_DONE();
}
