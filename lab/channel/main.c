/*
 * build/channel CHANNEL RUNS [LOGS [PERF]]: LOGS defaults to RUNS/../logs,
 * PERF to RUNS/../perf (where scripts/flamegraph-fold.sh finds profiles).
 * Prints one status line per event to stdout:
 *   ready RELEASE MODELS... | start ID | ok ID | pass ID DOCUMENTS |
 *   fail ID REASON | bad ID | log NAME | perf ID | profile on|off ... | done
 * (ok: a run's JSON arrived whole; pass: a pgbench cell, whose documents
 * came as JSON blocks of their own, ended well; log: a log file arrived;
 * perf: a cell's profile arrived; profile: whether the guest profiles.)
 * No channel file yet is no event.  Exits 1 when a file could not be
 * written, after every other event.
 */
#include "channel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *read_all(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	if (fd < 0 || !buf) {
		fprintf(stderr, "preemptlab: channel: cannot read %s: %s\n", path,
			fd < 0 ? strerror(errno) : "out of memory");
		if (fd >= 0)
			close(fd);
		free(buf);
		*len = 0;
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			char *b = realloc(buf, cap *= 2);
			if (!b) {
				fprintf(stderr, "preemptlab: channel: cannot read %s: out of memory\n", path);
				break;
			}
			buf = b;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			fprintf(stderr, "preemptlab: channel: cannot read %s: %s\n", path, strerror(errno));
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
}

/* Whether text holds line as one of its lines (grep -qxF). */
static int has_line(const char *text, size_t len, const char *line)
{
	size_t l = strlen(line);
	for (size_t off = 0; off < len;) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - text) : len;
		if (end - off == l && memcmp(text + off, line, l) == 0)
			return 1;
		off = end + 1;
	}
	return 0;
}

/* This runs every second while a guest runs: each refusal is said once,
 * and kept in LOGS/channel-refused.txt. */
static int say_refusals(const struct chan *c, const char *logs)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/channel-refused.txt", logs);
	size_t len = 0;
	char *seen = NULL;
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0666);
	if (fd >= 0)
		seen = read_all(path, &len);
	if (fd < 0 || !seen) {
		fprintf(stderr, "preemptlab: channel: cannot write %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < c->nrefusals; i++) {
		const char *why = c->refusals[i];
		int again = has_line(seen, len, why);
		for (size_t j = 0; j < i && !again; j++)
			again = strcmp(c->refusals[j], why) == 0;
		if (again)
			continue;
		if (dprintf(fd, "%s\n", why) < 0) {
			fprintf(stderr, "preemptlab: channel: cannot write %s: %s\n", path, strerror(errno));
			rc = -1;
		}
		fprintf(stderr, "preemptlab: %s\n", why);
	}
	free(seen);
	close(fd);
	return rc;
}

/* PREEMPTLAB_PERF_MAX_MB, decimal digits (default 256). */
static int perf_cap(struct chan_dirs *d)
{
	const char *s = getenv("PREEMPTLAB_PERF_MAX_MB");
	if (!s || !*s)
		s = "256";
	unsigned long long mb = 0;
	for (const char *p = s; *p; p++) {
		/* Past 2^42 MB a byte count overflows; no such cap is meant. */
		if (*p < '0' || *p > '9' || mb > (1ull << 42)) {
			fprintf(stderr, "preemptlab: PREEMPTLAB_PERF_MAX_MB=%s is not a number of MB\n", s);
			return -1;
		}
		mb = mb * 10 + (unsigned long long)(*p - '0');
	}
	d->perf_mb = mb;
	d->perf_max = (uint64_t)mb << 20;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "preemptlab: usage: %s CHANNEL RUNS [LOGS [PERF]]\n", argv[0]);
		return 1;
	}
	const char *path = argv[1];
	for (int i = 2; i < argc; i++)
		if (strlen(argv[i]) > 3000) {
			fprintf(stderr, "preemptlab: channel: %s: path too long\n", argv[i]);
			return 1;
		}
	char logs[4096], perf[4096];
	struct chan_dirs d = { .runs = argv[2], .logs = logs, .perf = perf };
	snprintf(logs, sizeof(logs), "%s", argc > 3 && *argv[3] ? argv[3] : "");
	snprintf(perf, sizeof(perf), "%s", argc > 4 && *argv[4] ? argv[4] : "");
	if (!*logs)
		snprintf(logs, sizeof(logs), "%s/../logs", d.runs);
	if (!*perf)
		snprintf(perf, sizeof(perf), "%s/../perf", d.runs);
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	if (perf_cap(&d) != 0)
		return 1;
	if (chan_mkdirs(d.runs) != 0 || chan_mkdirs(d.logs) != 0)
		return 1;
	chan_tmp_signals();

	size_t len;
	char *buf = read_all(path, &len);
	struct chan c;
	if (chan_parse(&c, buf ? buf : calloc(1, 1), len) != 0) {
		fprintf(stderr, "preemptlab: channel: out of memory reading %s\n", path);
		chan_free(&c);
		return 1;
	}
	int rc = 0;
	if (c.nrefusals > 0 && say_refusals(&c, d.logs) != 0)
		rc = 1;
	for (size_t i = 0; i < c.nevents; i++) {
		if (c.events[i].type == CHAN_TEXT)
			printf("%s\n", c.events[i].text);
		else if (chan_deliver(&c, &c.blocks[c.events[i].block], &d) != 0)
			rc = 1;
	}
	chan_free(&c);
	if (fflush(stdout) != 0)
		rc = 1;
	return rc;
}
