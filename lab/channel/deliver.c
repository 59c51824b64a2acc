/*
 * One END event's block: decoded, checked against its header's length and
 * sha256, and written where it belongs.  This runs every second on the
 * whole channel, so what landed before is not written again; only a
 * profile's check is skipped then (profiles are large).
 */
#include "channel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/sha256.h"

/* test -f: a regular file, through a symlink too. */
static int is_file(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;
	return snprintf(path, sizeof(path), "%s/%s", dir, name) < (int)sizeof(path) &&
	       stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int whole(const struct chan_block *b, const unsigned char *data, size_t n)
{
	char len[32], hex[65];
	struct sha256 s;
	snprintf(len, sizeof(len), "%zu", n);
	sha256_init(&s);
	sha256_update(&s, data, n);
	sha256_hex(&s, hex);
	/* As sent: "007" bytes or an upper-case hash never matched either. */
	return strcmp(len, b->bytes) == 0 && strcmp(hex, b->sum) == 0;
}

/* The profile that unpacks to more than the cap: said once (this file
 * marks it for the next calls) and never written. */
static int refuse_profile(const struct chan_block *b, const struct chan_dirs *d, const char *mark)
{
	char path[4096];
	char *why = NULL;
	if (asprintf(&why, "channel: profile %s unpacks to over PREEMPTLAB_PERF_MAX_MB=%llu MB: refused",
		     b->id, d->perf_mb) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", d->logs, mark);
	FILE *f = fopen(path, "w");
	int bad = !f || fprintf(f, "%s\n", why) < 0;
	if (f && fclose(f) != 0)
		bad = 1;
	if (bad)
		fprintf(stderr, "preemptlab: channel: cannot write %s: %s\n", path, strerror(errno));
	else
		fprintf(stderr, "preemptlab: %s\n", why);
	free(why);
	return bad ? -1 : 0;
}

int chan_deliver(const struct chan *c, const struct chan_block *b, const struct chan_dirs *d)
{
	int perf = strcmp(b->kind, "perf") == 0, log = strcmp(b->kind, "log") == 0;
	const char *dir = perf ? d->perf : log ? d->logs : d->runs;
	const char *ok = perf ? "perf" : log ? "log" : "ok";
	char name[512], mark[512];
	snprintf(name, sizeof(name), "%s%s", b->id, perf ? ".perf.txt" : log ? "" : ".json");
	snprintf(mark, sizeof(mark), "perf-refused-%s.txt", b->id);

	/* Profiles are large and this runs every second: one checked once is
	 * done. */
	if (perf && is_file(dir, name)) {
		printf("%s %s\n", ok, b->id);
		return 0;
	}
	if (perf && is_file(d->logs, mark)) {
		printf("bad %s\n", b->id);
		return 0;
	}
	size_t n;
	int valid;
	unsigned char *data = chan_base64(c->buf, b->lines, b->nlines, &n, &valid);
	if (!data) {
		fprintf(stderr, "preemptlab: channel: out of memory for block %s\n", b->id);
		return -1;
	}
	int rc = 0;
	if (!whole(b, data, n)) {
		printf("bad %s\n", b->id);
	} else if (perf) {
		if (chan_mkdirs(dir) != 0) {
			rc = -1;
		} else {
			int g = chan_gunzip(data, n, dir, name, d->perf_max);
			if (g == 2)
				rc = refuse_profile(b, d, mark);
			if (g == 0)
				printf("%s %s\n", ok, b->id);
			else if (g > 0 && rc == 0)
				printf("bad %s\n", b->id);
			else
				rc = -1;
		}
	} else {
		if (!is_file(dir, name))
			rc = chan_write(dir, name, data, n);
		if (rc == 0)
			printf("%s %s\n", ok, b->id);
	}
	free(data);
	return rc;
}
