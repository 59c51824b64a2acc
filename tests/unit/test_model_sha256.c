/*
 * lab/model/sha256.h, which build/model uses to record the hash of a dirty
 * run's diff: FIPS 180-4's example digests (one with the padding spilling
 * into a second block, one of a million bytes fed in pieces), the same
 * million bytes read from a file, and a missing file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "model/sha256.h"

static void digest(const char *msg, size_t n, char out[65])
{
	struct sha256 s;
	sha256_init(&s);
	sha256_update(&s, msg, n);
	sha256_hex(&s, out);
}

static void test_vectors(void)
{
	char h[65];
	digest("", 0, h);
	CHECK(!strcmp(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
	      "sha256 of nothing: %s", h);
	digest("abc", 3, h);
	CHECK(!strcmp(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
	      "sha256(\"abc\") (FIPS 180-4): %s", h);
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	digest(two, strlen(two), h);
	CHECK(!strcmp(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
	      "sha256 of the 448-bit FIPS message (padding spills into a second block): %s", h);
}

/* A million 'a's, fed 1000 at a time, then the same bytes from a file. */
static void test_file(void)
{
	char h[65], path[] = "/tmp/test_model_sha256.XXXXXX";
	static char block[1000];
	memset(block, 'a', sizeof(block));
	struct sha256 s;
	sha256_init(&s);
	for (int i = 0; i < 1000; i++)
		sha256_update(&s, block, sizeof(block));
	sha256_hex(&s, h);
	const char *want = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
	CHECK(!strcmp(h, want), "sha256 of 10^6 'a' in pieces (FIPS 180-4): %s", h);
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	for (int i = 0; f && i < 1000; i++)
		fwrite(block, 1, sizeof(block), f);
	CHECK(f && fclose(f) == 0, "wrote %s", path);
	CHECK(sha256_file(path, h) == 0 && !strcmp(h, want), "sha256_file of the same bytes: %s", h);
	unlink(path);
	CHECK(sha256_file(path, h) == -1, "a missing file gives -1");
}

int main(void)
{
	test_vectors();
	test_file();
	return CHECK_DONE();
}
