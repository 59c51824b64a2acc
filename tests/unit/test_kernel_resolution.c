/*
 * A cached kernel resolution (lab/plan/kernel_resolution.c): printed with
 * its paths re-rooted at the directory that reached it, and refused
 * (exit 1, nothing printed) when a line is no plain K_NAME='value', its
 * image lies outside its directory or is no regular file, or the image's
 * sha256 is not the one recorded.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "model/sha256.h"
#include "plan/kernel_resolution.h"

static char top[64], dir[256], res[300], out[300];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* The resolution as written from OLD (another path to the cache), plus EXTRA. */
static void plant(const char *old, const char *extra)
{
	char img[300], sha[65], text[2048];
	snprintf(img, sizeof(img), "%s/bzImage", dir);
	unlink(img);
	put(img, "image\n");
	sha256_file(img, sha);
	snprintf(text, sizeof(text),
		 "K_LABEL='7.0'\nK_IMAGE='%s/images/7.0/7.0.13/root/boot/vmlinuz'\nK_SHA256='%s'\n"
		 "K_CONFIG='%s/images/7.0/7.0.13/root/boot/config'\n%s",
		 old, sha, old, extra);
	put(res, text);
	/* The image the resolution names, where the old path put it. */
	snprintf(img, sizeof(img), "%s/root/boot", dir);
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && cp '%s/bzImage' '%s/vmlinuz'", img, dir, img);
	if (system(cmd) != 0)
		exit(1);
}

/* kernel_resolution's exit code, its stdout in out (a file). */
static int run(void)
{
	fflush(stdout);
	int saved = dup(1), fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	close(fd);
	int rc = kernel_resolution(res);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return rc;
}

static bool printed(const char *want)
{
	char buf[4096] = "";
	FILE *f = fopen(out, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return want ? strstr(buf, want) != NULL : n == 0;
}

int main(void)
{
	char want[600], cmd[1024];
	snprintf(top, sizeof(top), "/tmp/test_kernel_resolution.XXXXXX");
	if (!mkdtemp(top))
		return 1;
	snprintf(dir, sizeof(dir), "%s/images/7.0/7.0.13", top);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	snprintf(res, sizeof(res), "%s/resolved", dir);
	snprintf(out, sizeof(out), "%s/out", top);

	plant("/elsewhere/cache", "");
	CHECK(run() == 0, "a resolution written from another path is used");
	snprintf(want, sizeof(want), "K_IMAGE='%s/root/boot/vmlinuz'\n", dir);
	CHECK(printed(want), "its image re-rooted at the resolution's directory");
	snprintf(want, sizeof(want), "K_CONFIG='%s/root/boot/config'\n", dir);
	CHECK(printed(want) && printed("K_LABEL='7.0'\n"), "its config too, the rest as it was");

	plant("/elsewhere/cache", "K_RELEASE='x'; touch /tmp/pwned; : ''\n");
	CHECK(run() == 1 && printed(NULL), "a line carrying a command: refused, nothing printed");
	plant("/elsewhere/cache", "K_X='it'\\''s'\n");
	CHECK(run() == 1, "a value whose quote ends it: refused");

	plant("/elsewhere/cache", "");
	snprintf(want, sizeof(want), "%s/root/boot/vmlinuz", dir);
	put(want, "changed\n");
	CHECK(run() == 1 && printed(NULL), "an image changed since: refused");

	plant("/elsewhere/cache", "");
	snprintf(cmd, sizeof(cmd), "sed -i 's|^K_IMAGE=.*|K_IMAGE=/etc/passwd|' '%s'", res);
	if (system(cmd) != 0)
		return 1;
	CHECK(run() == 1, "an unquoted line: refused");
	plant("/elsewhere/cache", "");
	snprintf(cmd, sizeof(cmd), "sed -i \"s|^K_IMAGE=.*|K_IMAGE='/etc/passwd'|\" '%s'", res);
	if (system(cmd) != 0)
		return 1;
	CHECK(run() == 1 && printed(NULL), "an image outside the resolution's directory: refused");

	plant("/elsewhere/cache", "");
	snprintf(want, sizeof(want), "%s/root/boot/vmlinuz", dir);
	unlink(want);
	snprintf(cmd, sizeof(cmd), "%s/bzImage", dir);
	CHECK(symlink(cmd, want) == 0 && run() == 1, "an image that is a link: refused");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? CHECK_DONE() : 1;
}
