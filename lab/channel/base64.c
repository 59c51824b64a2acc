/*
 * base64 -d as GNU coreutils does it (gnulib's base64_decode_ctx): newlines
 * are skipped, every other byte counts; each group of four decodes to one
 * to three bytes ("=" pads only at a group's end, and a group may follow a
 * padded one); at the first bad group the output so far is kept.  A block
 * is judged by its length and sha256 after decoding, so what a bad block
 * decodes to must be what base64 -d gave: a prefix of it never passes by
 * accident where it did not before, nor the other way round.
 */
#include "channel.h"

#include <stdlib.h>

static int value(unsigned char ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	if (ch == '+')
		return 62;
	if (ch == '/')
		return 63;
	return -1;
}

/* One group of n (1..4) characters: its bytes appended at out[*o]; 0 when
 * it is a whole, valid group, else -1 after what it did decode. */
static int group(const unsigned char *q, int n, unsigned char *out, size_t *o)
{
	if (n < 2 || value(q[0]) < 0 || value(q[1]) < 0)
		return -1;
	int a = value(q[0]), b = value(q[1]);
	out[(*o)++] = (unsigned char)(a << 2 | b >> 4);
	if (n == 2)
		return -1;
	if (q[2] == '=')
		return n == 4 && q[3] == '=' ? 0 : -1;
	int c = value(q[2]);
	if (c < 0)
		return -1;
	out[(*o)++] = (unsigned char)((b & 15) << 4 | c >> 2);
	if (n == 3)
		return -1;
	if (q[3] == '=')
		return 0;
	int d = value(q[3]);
	if (d < 0)
		return -1;
	out[(*o)++] = (unsigned char)((c & 3) << 6 | d);
	return 0;
}

unsigned char *chan_base64(const char *buf, const struct chan_span *lines, size_t nlines,
			   size_t *n, int *ok)
{
	size_t in = 0;
	for (size_t i = 0; i < nlines; i++)
		in += lines[i].len;
	unsigned char *out = malloc(in / 4 * 3 + 3);
	*n = 0;
	*ok = 1;
	if (!out)
		return NULL;
	unsigned char q[4];
	int k = 0;
	for (size_t i = 0; i < nlines; i++) {
		const unsigned char *s = (const unsigned char *)buf + lines[i].off;
		for (size_t j = 0; j < lines[i].len; j++) {
			if (s[j] == '\n')
				continue;
			q[k++] = s[j];
			if (k == 4) {
				k = 0;
				if (group(q, 4, out, n) != 0) {
					*ok = 0;
					return out;
				}
			}
		}
	}
	if (k > 0) {
		group(q, k, out, n);
		*ok = 0;
	}
	return out;
}
