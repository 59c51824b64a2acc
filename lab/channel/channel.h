/*
 * build/channel: reads the guest's result channel (the host file behind
 * its second serial port; protocol in lab/runner/main.c) and writes every
 * complete run whose length and sha256 check out to RUNS/<id>.json, every
 * log block to LOGS/<name>, and every profile (gzipped `perf script` text
 * of a bufbench cell) to PERF/<id>.perf.txt.  scripts/run-plan.sh calls it
 * every second while a unit runs, on the whole file each time: finished
 * runs land as soon as they arrive, and a truncated last block (crash,
 * kill) is simply not written.
 */
#ifndef PREEMPTLAB_CHANNEL_H
#define PREEMPTLAB_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

/* A line of the channel, inside its buffer. */
struct chan_span {
	size_t off, len;
};

/* The data of one block name: the base64 lines that arrived for it.  A
 * block's header empties them, unless the block of that name before it
 * never ended (it is still "open"): its lines and the new ones then make
 * one block, which fails its check. */
struct chan_block {
	char kind[5];      /* json, log or perf */
	char *id;
	char *bytes, *sum; /* the last header's length and sha256, as sent */
	struct chan_span *lines;
	size_t nlines, cap;
	int open;
};

enum chan_ev { CHAN_TEXT, CHAN_END };

/* One event, in the channel's order: a line to print as it is, or a
 * block's END, whose block is judged once the whole channel is read (the
 * block then holds what its name holds last). */
struct chan_event {
	enum chan_ev type;
	char *text;   /* CHAN_TEXT */
	size_t block; /* CHAN_END: index in blocks */
};

struct chan {
	char *buf; /* the channel, its CRs removed */
	size_t len;
	struct chan_event *events;
	size_t nevents, evcap;
	struct chan_block *blocks;
	size_t nblocks, blkcap;
	char **refusals; /* one message per refused header */
	size_t nrefusals, refcap;
};

/*
 * Parses buf (len bytes, malloc'd; the chan owns it from now on and
 * removes its CRs, as the serial line may add them).  0, or -1 when
 * memory ran out.
 */
int chan_parse(struct chan *c, char *buf, size_t len);
void chan_free(struct chan *c);

/* NULL when name is a plain file name (at most 200 bytes of
 * [A-Za-z0-9._+,:=@~-], no leading dot), else the refusal's message for a
 * KIND (JSON, LOG, PERF) block, malloc'd. */
char *chan_refusal(const char *kind, const char *name, size_t len);

/* GNU base64 -d of a block's lines, newlines ignored: the bytes decoded up
 * to the first invalid quantum (base64 -d's output before its error).
 * Returns the malloc'd bytes (NULL when memory ran out) and their count in
 * *n; *ok is 0 when the input was not valid base64. */
unsigned char *chan_base64(const char *buf, const struct chan_span *lines, size_t nlines,
			   size_t *n, int *ok);

/* Where and how a block lands (deliver.c). */
struct chan_dirs {
	const char *runs, *logs, *perf;
	uint64_t perf_max;          /* bytes a profile may unpack to */
	unsigned long long perf_mb; /* the same in MB, PREEMPTLAB_PERF_MAX_MB */
};

/* Judges an END event's block and writes it when whole; prints its event
 * line (ok, log, perf or bad ID).  0, or -1 when a file could not be
 * written (said on stderr). */
int chan_deliver(const struct chan *c, const struct chan_block *b, const struct chan_dirs *d);

/* gunzip.c: `gzip -dc` of data into DIR/NAME (written by rename) when it
 * unpacks whole to at most max bytes: 0; 1 when gzip fails (not gzip,
 * corrupt, truncated); 2 when it unpacks to more than max (nothing
 * written); -1 when a file could not be written (said on stderr). */
int chan_gunzip(const unsigned char *data, size_t n, const char *dir, const char *name,
		uint64_t max);

/* outfile.c: DIR/NAME written from data by a temporary file in DIR and a
 * rename.  0, or -1 with a message on stderr. */
int chan_write(const char *dir, const char *name, const unsigned char *data, size_t n);

/* A new temporary file DIR/.NAME.XXXXXX (its path in tmp): its fd, or -1
 * with a message.  Until it is committed or dropped, a signal removes it
 * (chan_tmp_signals: run-plan.sh's Ctrl-C reaches this program too), so a
 * half-written file never stays behind in RUNS, LOGS or PERF. */
int chan_tmp_open(char *tmp, size_t size, const char *dir, const char *name);
/* Closes it and renames it to DIR/NAME: 0, or -1 with a message, the
 * temporary file removed. */
int chan_tmp_commit(int fd, const char *tmp, const char *dir, const char *name);
void chan_tmp_drop(int fd, const char *tmp);
void chan_tmp_signals(void);

/* mkdir -p: 0, or -1 with a message on stderr. */
int chan_mkdirs(const char *path);

#endif
