/*
 * The cell runner's channel (lab/runner/channel.c): the lines and checked
 * blocks scripts/qemu-channel.sh reads, byte for byte.
 */
#include "check.h"
#include "runner/runner.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *slurp(const char *path)
{
	return file_read(path, NULL);
}

int main(void)
{
	char dir[] = "/tmp/test_runner_channel.XXXXXX";
	char chan[4096], doc[4096], empty[4096], big[4096];
	CHECK(mkdtemp(dir) != NULL, "a scratch directory");
	snprintf(chan, sizeof(chan), "%s/chan", dir);
	snprintf(doc, sizeof(doc), "%s/doc.json", dir);
	snprintf(empty, sizeof(empty), "%s/empty.log", dir);
	snprintf(big, sizeof(big), "%s/big.log", dir);
	CHECK(chan_open(chan) == 0, "the channel opens (a file is created)");

	FILE *f = fopen(doc, "w");
	fputs("abc", f);
	fclose(f);
	fclose(fopen(empty, "w"));
	say("READY %s %s", "7.0.13", "none voluntary (full) lazy");
	send_block("JSON", "cell-1", doc);
	send_block("LOG", "empty.log", empty);
	say("FAIL %s %s", "cell-2", "bufbench exit 2: why");
	say("DONE");
	char *got = slurp(chan);
	const char *want =
		"@@PL READY 7.0.13 none voluntary (full) lazy\n"
		"@@PL JSON cell-1 3 ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n"
		"YWJj\n"
		"@@PL END cell-1\n"
		"@@PL LOG empty.log 0 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
		"@@PL END empty.log\n"
		"@@PL FAIL cell-2 bufbench exit 2: why\n"
		"@@PL DONE\n";
	CHECK(got && !strcmp(got, want), "lines, a block's bytes and sha256, its base64 and END, an empty block");
	free(got);

	/* 100 bytes: two base64 lines, 76 characters then the rest. */
	f = fopen(big, "w");
	for (int i = 0; i < 100; i++)
		fputc('x', f);
	fclose(f);
	CHECK(chan_open(chan) == 0, "the channel opens again (appending)");
	send_block("LOG", "big.log", big);
	got = slurp(chan);
	const char *blk = got ? strstr(got, "@@PL LOG big.log 100 ") : NULL;
	const char *body = blk ? strchr(blk, '\n') + 1 : NULL;
	CHECK(body && strchr(body, '\n') - body == 76, "a block's base64 comes in lines of 76 characters");
	CHECK(got && !strncmp(got, want, strlen(want)), "what was sent before stays: the channel is appended to");
	free(got);

	unlink(chan);
	unlink(doc);
	unlink(empty);
	unlink(big);
	rmdir(dir);
	return CHECK_DONE();
}
