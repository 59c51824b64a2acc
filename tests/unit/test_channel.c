/*
 * build/channel's parser and decoder (lab/channel/): the events a channel
 * gives, in its order and spelled as scripts/qemu-channel.sh spelled them
 * when awk and the shell read it; which lines make a block (a truncated
 * last block has no END, so it is never judged); the names refused; and
 * base64 -d's output and verdict, prefix included, for what a guest's
 * serial line may garble.
 */
#include <stdlib.h>
#include <string.h>

#include "channel/channel.h"
#include "check.h"

static struct chan c;

static int parse(const char *text)
{
	chan_free(&c);
	return chan_parse(&c, strdup(text), strlen(text));
}

/* The events, one a line: text as printed, an END as "END kind id". */
static const char *events(void)
{
	static char out[4096];
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < c.nevents; i++) {
		const struct chan_event *e = &c.events[i];
		if (e->type == CHAN_TEXT)
			n += (size_t)snprintf(out + n, sizeof(out) - n, "%s|", e->text);
		else
			n += (size_t)snprintf(out + n, sizeof(out) - n, "END %s %s|",
					      c.blocks[e->block].kind, c.blocks[e->block].id);
	}
	return out;
}

/* A block's lines joined by '+'. */
static const char *lines_of(const char *kind, const char *id)
{
	static char out[1024];
	for (size_t i = 0; i < c.nblocks; i++) {
		const struct chan_block *b = &c.blocks[i];
		if (strcmp(b->kind, kind) != 0 || strcmp(b->id, id) != 0)
			continue;
		size_t n = 0;
		out[0] = '\0';
		for (size_t j = 0; j < b->nlines; j++)
			n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%.*s", j ? "+" : "",
					      (int)b->lines[j].len, c.buf + b->lines[j].off);
		return out;
	}
	return "(none)";
}

static const struct chan_block *block(const char *kind, const char *id)
{
	for (size_t i = 0; i < c.nblocks; i++)
		if (strcmp(c.blocks[i].kind, kind) == 0 && strcmp(c.blocks[i].id, id) == 0)
			return &c.blocks[i];
	return NULL;
}

/* base64 of text: the decoded bytes as a string, and the verdict. */
static int b64(const char *text, const char *want, int want_ok)
{
	char *buf = strdup(text);
	struct chan_span one = { 0, strlen(text) };
	size_t n;
	int ok;
	unsigned char *out = chan_base64(buf, &one, 1, &n, &ok);
	int same = out && n == strlen(want) && memcmp(out, want, n) == 0 && ok == want_ok;
	free(out);
	free(buf);
	return same;
}

static void test_events(void)
{
	CHECK(parse("@@PL READY 7.0.13 none  (full)\tlazy\n@@PL START cellA\n@@PL PASS p 3 more\n"
		    "@@PL FAIL cellB no  result\there\n@@PL PROFILE off no perf\n@@PL DONE\n") == 0,
	      "a channel of text events parses");
	CHECK(strcmp(events(), "ready 7.0.13 none (full) lazy|start cellA|pass p 3|"
			       "fail cellB no result here|profile off no perf|done|") == 0,
	      "text events: words joined by one space, PASS's third word dropped (%s)", events());
	CHECK(parse("@@PL READY\n@@PL START\n@@PL PASS\n@@PL FAIL\n@@PL DONE extra\n") == 0 &&
		      strcmp(events(), "ready|start|pass|fail|done|") == 0,
	      "events without their words: no trailing space (%s)", events());
	CHECK(parse("  @@PL\tSTART a\n@@PLX START b\n@@PL start c\n@@PL WHAT d\n@@PL\nnoise\n") == 0 &&
		      strcmp(events(), "start a|") == 0,
	      "@@PL is the first field, after blanks; other words and kinds are not events (%s)",
	      events());
	CHECK(parse("@@PL START a\r\n@@PL ST\rART b\r\n@@PL DONE") == 0 &&
		      strcmp(events(), "start a|start b|done|") == 0,
	      "every CR is dropped, a last line without newline counts (%s)", events());
	char many[2048] = "@@PL FAIL id";
	for (int i = 0; i < 100; i++)
		strcat(many, " w");
	CHECK(parse(many) == 0 && c.nevents == 1 && strlen(c.events[0].text) == 4 + 3 + 200,
	      "a FAIL reason of 100 words keeps them all");
}

static void test_blocks(void)
{
	CHECK(parse("@@PL JSON a 7 abc\nQUJD\nREVG\n@@PL END a\n@@PL LOG a 1 def\nWA==\n@@PL END a\n") == 0,
	      "two blocks of one name, different kinds, parse");
	CHECK(strcmp(events(), "END json a|END log a|") == 0, "each END is an event (%s)", events());
	CHECK(strcmp(lines_of("json", "a"), "QUJD+REVG") == 0 && strcmp(lines_of("log", "a"), "WA==") == 0,
	      "a block holds its own lines");
	CHECK(block("json", "a") && strcmp(block("json", "a")->bytes, "7") == 0 &&
		      strcmp(block("json", "a")->sum, "abc") == 0,
	      "and its header's length and sha256");

	CHECK(parse("@@PL JSON a 3 s\nQUJD\n@@PL END a\n@@PL JSON b 3 s\nQUJD\n") == 0 &&
		      strcmp(events(), "END json a|") == 0 && strcmp(lines_of("json", "b"), "QUJD") == 0,
	      "a truncated last block has no END event: it is never judged (%s)", events());
	CHECK(parse("@@PL JSON a 3 s\nQUJD\n@@PL START x\nREVG\n@@PL END a\n") == 0 &&
		      strcmp(events(), "start x|END json a|") == 0 &&
		      strcmp(lines_of("json", "a"), "QUJD+REVG") == 0,
	      "an event inside a block leaves it open");
	CHECK(parse("@@PL JSON a 3 s\nQUJD\n@@PL END b\nREVG\n@@PL END a\n") == 0 &&
		      strcmp(events(), "") == 0 && strcmp(lines_of("json", "a"), "QUJD") == 0,
	      "an END of another name ends the block unjudged; lines after it belong to none");
	CHECK(parse("@@PL JSON a 3 s\nQUJD\n@@PL JSON a 6 t\nREVG\n@@PL END a\n") == 0 &&
		      strcmp(lines_of("json", "a"), "QUJD+REVG") == 0 &&
		      strcmp(block("json", "a")->bytes, "6") == 0,
	      "a header again before the END: the lines add up (a bad block), the new header counts");
	CHECK(parse("@@PL JSON a 3 s\nQUJD\n@@PL END a\n@@PL JSON a 3 t\nREVG\n@@PL END a\n") == 0 &&
		      strcmp(events(), "END json a|END json a|") == 0 &&
		      strcmp(lines_of("json", "a"), "REVG") == 0 && strcmp(block("json", "a")->sum, "t") == 0,
	      "a name sent again after its END: both ENDs judge what came last");
	CHECK(parse("@@PL JSON a 3 s\nQUJD\n@@PL END a\n@@PL JSON a 3 t\nREVG\n") == 0 &&
		      strcmp(events(), "END json a|") == 0 && strcmp(lines_of("json", "a"), "REVG") == 0,
	      "and when that second one is truncated, the first END judges it, as before");
	CHECK(parse("@@PL JSON a 3 s\nQUJD\n@@PL END\n@@PL END\n@@PL JSON a 3 s\nREVG\n@@PL END a\n") == 0 &&
		      strcmp(events(), "END json a|") == 0 && strcmp(lines_of("json", "a"), "REVG") == 0,
	      "an END without a name is no event");
	CHECK(parse("@@PL JSON a\nQUJD\n@@PL END a\n") == 0 && strcmp(block("json", "a")->bytes, "") == 0,
	      "a header without length or sum: empty ones, which never match");
}

static void test_names(void)
{
	char n200[202], n201[203];
	memset(n200, 'x', 200);
	n200[200] = '\0';
	memset(n201, 'y', 201);
	n201[201] = '\0';
	const char *good[] = { "cellA", "pgbench-7.0-lazy-hpoff.progress.log", "a+b,c:d=e@f~g_h", "0", n200 };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(chan_refusal("JSON", good[i], strlen(good[i])) == NULL, "a plain name: %.40s", good[i]);
	const char *bad[] = { "", ".hidden", "../x", "a/b", "$(touch${IFS}x)", "a b", n201 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *why = chan_refusal("LOG", bad[i], strlen(bad[i]));
		CHECK(why && strstr(why, "channel: refused a LOG block: its name ("), "refused: %.40s", bad[i]);
		free(why);
	}
	char *why = chan_refusal("PERF", n201, 201);
	CHECK(why && strcmp(why, "channel: refused a PERF block: its name (201 characters, "
				 "'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...') is not a plain file name "
				 "of at most 200 characters from [A-Za-z0-9._+,:=@~-] (no leading dot); "
				 "its data is dropped") == 0,
	      "a long name: its first 40 bytes shown, then ...");
	free(why);
	why = chan_refusal("JSON", "esc\033]0;t\007", 9);
	CHECK(why && strstr(why, "(9 characters, 'esc??0?t?')"), "control bytes are shown as ? (%s)", why);
	free(why);
	char nul[] = { 'a', '\0', 'b' };
	why = chan_refusal("JSON", nul, 3);
	CHECK(why && strstr(why, "(3 characters, 'a?b')"), "so is a NUL byte");
	free(why);
	CHECK(parse("@@PL JSON .x 1 s\nQUJD\n@@PL END .x\n@@PL JSON y 1 s\n@@PL END y\n") == 0 &&
		      c.nrefusals == 1 && strcmp(events(), "END json y|") == 0 && !block("json", ".x"),
	      "a refused block has no event and no block; the next one is whole");
}

static void test_base64(void)
{
	/* Each as GNU coreutils 9.1's base64 -d decodes it, with its status. */
	CHECK(b64("YWJj", "abc", 1) && b64("YQ==", "a", 1) && b64("YWI=", "ab", 1), "whole groups");
	CHECK(b64("", "", 1), "nothing is valid, and empty");
	CHECK(b64("YQ==YQ==", "aa", 1), "a group after a padded one");
	CHECK(b64("YR==", "a", 1), "stray low bits are taken");
	CHECK(b64("YQ", "a", 0) && b64("YWJ", "ab", 0) && b64("YWJjZ", "abc", 0) && b64("YQ=", "a", 0),
	      "a short last group: what it holds, and invalid");
	CHECK(b64("YWJj ZGVm", "abc", 0) && b64("YWJj\tZGVm", "abc", 0) && b64("YWJj!ZGVm", "abc", 0),
	      "blanks and other bytes stop it");
	CHECK(b64("=YWJj", "", 0) && b64("YW=j", "a", 0) && b64("YWJj====", "abc", 0) && b64("YQ==x", "a", 0),
	      "misplaced padding stops it after what it decoded");
	char *buf = strdup("YQ=\n=YW\nJj\n");
	struct chan_span l[3] = { { 0, 3 }, { 4, 3 }, { 8, 2 } };
	size_t n;
	int ok;
	unsigned char *out = chan_base64(buf, l, 3, &n, &ok);
	CHECK(out && ok && n == 4 && memcmp(out, "aabc", 4) == 0, "a group across lines: the lines are one text");
	free(out);
	free(buf);
}

int main(void)
{
	test_events();
	test_blocks();
	test_names();
	test_base64();
	chan_free(&c);
	return CHECK_DONE();
}
