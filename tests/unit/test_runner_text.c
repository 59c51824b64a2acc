/*
 * The cell runner's text rules (lab/runner/text.c) and plan file reader
 * (lab/runner/conf.c): the words, fields and encodings the shell runner
 * produced, which the host's channel reader and the console log expect.
 */
#include "check.h"
#include "runner/conf.h"
#include "runner/text.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_fields(void)
{
	char line[] = "bufbench\tc1\tfull\t4k\t0\ton\t--pool 64M --clients 2\n";
	char *f[7];
	int n = text_read_fields(line, "\t\n", f, 7);
	CHECK(n == 7 && !strcmp(f[0], "bufbench") && !strcmp(f[5], "on"), "a cell line's seven fields");
	CHECK(!strcmp(f[6], "--pool 64M --clients 2"), "ARGV is the rest, less the newline");

	char pg[] = "pgbench\tp1\toff\tfull,lazy\t8\t2\tauto\t17\tdebian\n";
	n = text_read_fields(pg, "\t\n", f, 7);
	CHECK(!strcmp(f[6], "auto\t17\tdebian"), "the last field keeps its inner TABs (the servers)");
	char cut[64];
	text_cut_field(f[6], 2, cut, sizeof(cut));
	CHECK(!strcmp(cut, "17"), "cut -f2 of the servers is the version");
	text_cut_field("auto", 3, cut, sizeof(cut));
	CHECK(!strcmp(cut, "auto"), "cut -f3 of a line without TAB is the whole line");
	text_cut_field("a\tb", 3, cut, sizeof(cut));
	CHECK(!strcmp(cut, ""), "a field past the last is empty");

	char short_line[] = "pgbench\tp2\toff\n";
	n = text_read_fields(short_line, "\t\n", f, 7);
	CHECK(n == 3 && !strcmp(f[6], "") && !strcmp(f[3], ""), "fields not reached are empty");

	char gaps[] = "\t\ta\t\tb\t\t";
	n = text_read_fields(gaps, "\t\n", f, 3);
	CHECK(n == 2 && !strcmp(f[0], "a") && !strcmp(f[1], "b") && !f[2][0],
	      "white space separators collapse, as IFS=TAB read does");

	char knob[] = "/proc/sys/kernel/x 1 skip restore VAR=1 needs CONFIG_X and more";
	n = text_read_fields(knob, " \t\n", f, 6);
	CHECK(n == 6 && !strcmp(f[4], "VAR=1") && !strcmp(f[5], "needs CONFIG_X and more"),
	      "a knob line's NEEDS is the rest");

	char words[] = "  --a 1\t--b  2 ";
	char *w[8];
	n = text_words(words, w, 8);
	CHECK(n == 4 && !strcmp(w[0], "--a") && !strcmp(w[3], "2"), "ARGV splits on blanks");
}

static void test_models(void)
{
	char m[32];
	text_model_now("none voluntary (full) lazy", m, sizeof(m));
	CHECK(!strcmp(m, "full"), "the model in parentheses");
	text_model_now("(lazy)", m, sizeof(m));
	CHECK(!strcmp(m, "lazy"), "a one-model line");
	text_model_now("unreadable", m, sizeof(m));
	CHECK(!strcmp(m, ""), "no model in an unreadable line");
	text_model_now("(full) (x-y) (lazy) z", m, sizeof(m));
	CHECK(!strcmp(m, "lazy"), "the last group of letters, as sed's greedy match finds it");
	CHECK(text_has_word("none voluntary (full) lazy", "full", 1), "a model offered in parentheses");
	CHECK(text_has_word("none voluntary (full) lazy", "none", 1), "the first model offered");
	CHECK(!text_has_word("none voluntary (full) lazy", "ful", 1), "no part of a word");
	CHECK(!text_has_word("(full)", "full", 0), "parentheses kept where asked");
	CHECK(text_has_word("GENTLE NO_HRTICK DELAY", "NO_HRTICK", 0), "a switch among a file's words");
}

static void test_tail(void)
{
	const char t[] = "a\nb\nc\n";
	CHECK(!strcmp(text_tail(t, strlen(t), 1), "c\n"), "tail -n1");
	CHECK(!strcmp(text_tail(t, strlen(t), 2), "b\nc\n"), "tail -n2");
	CHECK(!strcmp(text_tail(t, strlen(t), 9), t), "tail of more lines than there are");
	CHECK(!strcmp(text_tail("a\nb", 3, 1), "b"), "a last line without newline");
	char s[] = "x\ny\n\n";
	text_chomp(s);
	CHECK(!strcmp(s, "x\ny"), "$(...) drops trailing newlines");
	char b[] = "x\ny\n";
	text_nl_to_blank(b);
	CHECK(!strcmp(b, "x y "), "tr '\\n' ' '");
}

static void test_base64(void)
{
	char out[256];
	text_base64((const unsigned char *)"", 0, out);
	CHECK(!strcmp(out, ""), "no bytes, no lines");
	text_base64((const unsigned char *)"f", 1, out);
	CHECK(!strcmp(out, "Zg==\n"), "one byte padded");
	text_base64((const unsigned char *)"foob", 4, out);
	CHECK(!strcmp(out, "Zm9vYg==\n"), "four bytes");
	unsigned char in[120];
	for (int i = 0; i < 120; i++)
		in[i] = (unsigned char)i;
	size_t n = text_base64(in, 57, out);
	CHECK(n == 77 && out[76] == '\n', "57 bytes fill one 76-character line exactly");
	n = text_base64(in, 120, out);
	CHECK(n == 160 + 3 && out[76] == '\n' && out[153] == '\n' && out[n - 1] == '\n',
	      "lines of 76 characters, the last shorter");
	CHECK(text_base64_size(120) > n, "the size bound holds");
	CHECK(!strncmp(out, "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4", 76),
	      "the first line as base64(1) prints it");
}

static void test_status(void)
{
	long v;
	CHECK(!text_int("12\n", &v) && v == 12, "a number read from a kernel file");
	CHECK(text_int("", &v) && text_int("1x", &v), "no number, as test -ge refuses it");
	CHECK(text_shell_status(3 << 8) == 3, "an exit code");
	CHECK(text_shell_status(SIGKILL) == 137, "a signal: 128 + its number");
}

static void test_conf(void)
{
	char path[] = "/tmp/test_runner_conf.XXXXXX";
	int fd = mkstemp(path);
	const char text[] = "kind\tguest\nknob\t/a 1 fail keep A=1 x\nknob\t/b 2 skip restore B=2 y\n"
			    "label\t7.0\nlabelx\tno\nempty\t\npg_run\tp1 run 1 full\n";
	CHECK(fd >= 0 && write(fd, text, sizeof(text) - 1) == (ssize_t)sizeof(text) - 1, "a plan file written");
	close(fd);
	CHECK(conf_load(path) == 0, "the plan file read");
	CHECK(!strcmp(conf("kind"), "guest") && !strcmp(conf("label"), "7.0"), "keys written once");
	CHECK(!strcmp(conf("missing"), ""), "an absent key reads as empty");
	CHECK(!strcmp(conf("empty"), ""), "an empty value");
	CHECK(!strcmp(conf_all("knob", 1), "/b 2 skip restore B=2 y") && !conf_all("knob", 2),
	      "every knob line, in order");
	CHECK(!strcmp(conf("knob"), "/a 1 fail keep A=1 x"), "conf is the first value");
	CHECK(!strcmp(conf("pg_run"), "p1 run 1 full"), "a value keeps its blanks");
	unlink(path);
	CHECK(conf_load("/nonexistent/plan") == -1, "an unreadable plan file says so");
}

int main(void)
{
	test_fields();
	test_models();
	test_tail();
	test_base64();
	test_status();
	test_conf();
	return CHECK_DONE();
}
