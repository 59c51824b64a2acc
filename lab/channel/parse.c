/*
 * The channel's lines: "@@PL ..." protocol lines (fields split at blanks,
 * as awk split them when scripts/qemu-channel.sh read the channel) and,
 * between a block's header and its END, its base64 lines.  A line whose
 * first field is not @@PL belongs to the open block, if any; a protocol
 * line of another kind inside a block (START, PASS ...) is an event and
 * leaves the block open.
 */
#include "channel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 64

struct fields {
	const char *p[MAX_FIELDS];
	size_t len[MAX_FIELDS];
	size_t n;       /* fields kept (at most MAX_FIELDS) */
	const char *line;
	size_t linelen;
};

static int blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* The first MAX_FIELDS fields of a line; the text events take the rest of
 * the line from the third on (rest_from), so none is lost. */
static void split(struct fields *f, const char *s, size_t len)
{
	size_t i = 0;
	f->n = 0;
	f->line = s;
	f->linelen = len;
	while (f->n < MAX_FIELDS) {
		while (i < len && blank(s[i]))
			i++;
		if (i == len)
			break;
		size_t start = i;
		while (i < len && !blank(s[i]))
			i++;
		f->p[f->n] = s + start;
		f->len[f->n] = i - start;
		f->n++;
	}
}

static int field_is(const struct fields *f, size_t i, const char *word)
{
	size_t n = strlen(word);
	return i < f->n && f->len[i] == n && memcmp(f->p[i], word, n) == 0;
}

static char *field_dup(const struct fields *f, size_t i)
{
	if (i >= f->n)
		return strdup("");
	return strndup(f->p[i], f->len[i]);
}

/* "WORD" and the fields from..to-1 (to 0: all, even past MAX_FIELDS),
 * joined by one space: awk rebuilt the line that way, and the shell
 * dropped the spaces left at its end by empty fields. */
static char *event_text(const char *word, const struct fields *f, size_t from, size_t to)
{
	size_t cap = strlen(word) + f->linelen + 2, n = strlen(word);
	char *t = malloc(cap);
	if (!t)
		return NULL;
	memcpy(t, word, n);
	if (to == 0) {
		/* Every field from `from` on, however many. */
		const char *s = f->line, *end = f->line + f->linelen;
		size_t skip = from;
		while (s < end) {
			while (s < end && blank(*s))
				s++;
			if (s == end)
				break;
			const char *w = s;
			while (s < end && !blank(*s))
				s++;
			if (skip > 0) {
				skip--;
				continue;
			}
			t[n++] = ' ';
			memcpy(t + n, w, (size_t)(s - w));
			n += (size_t)(s - w);
		}
	} else {
		for (size_t i = from; i < to && i < f->n; i++) {
			t[n++] = ' ';
			memcpy(t + n, f->p[i], f->len[i]);
			n += f->len[i];
		}
	}
	t[n] = '\0';
	return t;
}

static int add_event(struct chan *c, enum chan_ev type, char *text, size_t block)
{
	if (type == CHAN_TEXT && !text)
		return -1;
	if (c->nevents == c->evcap) {
		size_t cap = c->evcap ? 2 * c->evcap : 64;
		struct chan_event *e = realloc(c->events, cap * sizeof(*e));
		if (!e) {
			free(text);
			return -1;
		}
		c->events = e;
		c->evcap = cap;
	}
	c->events[c->nevents++] = (struct chan_event){ type, text, block };
	return 0;
}

static int add_line(struct chan_block *b, size_t off, size_t len)
{
	if (b->nlines == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		struct chan_span *l = realloc(b->lines, cap * sizeof(*l));
		if (!l)
			return -1;
		b->lines = l;
		b->cap = cap;
	}
	b->lines[b->nlines++] = (struct chan_span){ off, len };
	return 0;
}

/* The block of that kind and id, made when new: its index, or -1. */
static long block_of(struct chan *c, const char *kind, const struct fields *f)
{
	for (size_t i = c->nblocks; i-- > 0;) {
		struct chan_block *b = &c->blocks[i];
		if (strcmp(b->kind, kind) == 0 && strlen(b->id) == f->len[2] &&
		    memcmp(b->id, f->p[2], f->len[2]) == 0)
			return (long)i;
	}
	if (c->nblocks == c->blkcap) {
		size_t cap = c->blkcap ? 2 * c->blkcap : 32;
		struct chan_block *b = realloc(c->blocks, cap * sizeof(*b));
		if (!b)
			return -1;
		c->blocks = b;
		c->blkcap = cap;
	}
	struct chan_block *b = &c->blocks[c->nblocks];
	memset(b, 0, sizeof(*b));
	snprintf(b->kind, sizeof(b->kind), "%s", kind);
	if (!(b->id = field_dup(f, 2)))
		return -1;
	return (long)c->nblocks++;
}

static int add_refusal(struct chan *c, char *why)
{
	if (!why)
		return -1;
	if (c->nrefusals == c->refcap) {
		size_t cap = c->refcap ? 2 * c->refcap : 8;
		char **r = realloc(c->refusals, cap * sizeof(*r));
		if (!r) {
			free(why);
			return -1;
		}
		c->refusals = r;
		c->refcap = cap;
	}
	c->refusals[c->nrefusals++] = why;
	return 0;
}

int chan_parse(struct chan *c, char *buf, size_t len)
{
	memset(c, 0, sizeof(*c));
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (buf[i] != '\r')
			buf[n++] = buf[i];
	c->buf = buf;
	c->len = n;

	/* cur: the open block's index, or -1; last: the last header's block,
	 * which a bare "@@PL END" (cur and its id both empty) closes. */
	long cur = -1, last = -1;
	struct fields f;
	for (size_t off = 0; off < c->len;) {
		const char *s = c->buf + off;
		const char *nl = memchr(s, '\n', c->len - off);
		size_t l = nl ? (size_t)(nl - s) : c->len - off;
		size_t next = off + l + (nl ? 1 : 0);
		split(&f, s, l);
		int rc = 0;
		if (!field_is(&f, 0, "@@PL")) {
			if (cur >= 0)
				rc = add_line(&c->blocks[cur], off, l);
		} else if (field_is(&f, 1, "READY")) {
			rc = add_event(c, CHAN_TEXT, event_text("ready", &f, 2, 0), 0);
		} else if (field_is(&f, 1, "START")) {
			rc = add_event(c, CHAN_TEXT, event_text("start", &f, 2, 3), 0);
		} else if (field_is(&f, 1, "PASS")) {
			rc = add_event(c, CHAN_TEXT, event_text("pass", &f, 2, 4), 0);
		} else if (field_is(&f, 1, "FAIL")) {
			rc = add_event(c, CHAN_TEXT, event_text("fail", &f, 2, 0), 0);
		} else if (field_is(&f, 1, "DONE")) {
			rc = add_event(c, CHAN_TEXT, strdup("done"), 0);
		} else if (field_is(&f, 1, "PROFILE")) {
			rc = add_event(c, CHAN_TEXT, event_text("profile", &f, 2, 0), 0);
		} else if (field_is(&f, 1, "JSON") || field_is(&f, 1, "LOG") ||
			   field_is(&f, 1, "PERF")) {
			const char *kind = field_is(&f, 1, "JSON") ? "json" :
					   field_is(&f, 1, "LOG") ? "log" : "perf";
			char ku[5];
			snprintf(ku, sizeof(ku), "%.*s", (int)f.len[1], f.p[1]);
			cur = -1;
			const char *name = f.n > 2 ? f.p[2] : "";
			char *why = chan_refusal(ku, name, f.n > 2 ? f.len[2] : 0);
			if (why) {
				last = -1;
				rc = add_refusal(c, why);
			} else if ((cur = last = block_of(c, kind, &f)) < 0) {
				rc = -1;
			} else {
				struct chan_block *b = &c->blocks[cur];
				if (!b->open)
					b->nlines = 0;
				b->open = 1;
				free(b->bytes);
				free(b->sum);
				b->bytes = field_dup(&f, 3);
				b->sum = field_dup(&f, 4);
				if (!b->bytes || !b->sum)
					rc = -1;
			}
		} else if (field_is(&f, 1, "END")) {
			if (cur >= 0 && field_is(&f, 2, c->blocks[cur].id)) {
				c->blocks[cur].open = 0;
				rc = add_event(c, CHAN_END, NULL, (size_t)cur);
			} else if (cur < 0 && f.n < 3 && last >= 0) {
				/* The script closed the last header's block here and
				 * then died on an END event without a name; nothing
				 * is said of it now. */
				c->blocks[last].open = 0;
			}
			cur = -1;
		}
		if (rc != 0)
			return -1;
		off = next;
	}
	return 0;
}

void chan_free(struct chan *c)
{
	for (size_t i = 0; i < c->nevents; i++)
		free(c->events[i].text);
	for (size_t i = 0; i < c->nblocks; i++) {
		free(c->blocks[i].id);
		free(c->blocks[i].bytes);
		free(c->blocks[i].sum);
		free(c->blocks[i].lines);
	}
	for (size_t i = 0; i < c->nrefusals; i++)
		free(c->refusals[i]);
	free(c->events);
	free(c->blocks);
	free(c->refusals);
	free(c->buf);
	memset(c, 0, sizeof(*c));
}
