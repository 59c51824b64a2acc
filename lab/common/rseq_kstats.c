#include "rseq_kstats.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rseq_kstats_parse(const char *text, struct rseq_kstats *s)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "sgrant:", offsetof(struct rseq_kstats, granted) },
		{ "sexpir:", offsetof(struct rseq_kstats, expired) },
		{ "srevok:", offsetof(struct rseq_kstats, revoked) },
		{ "syield:", offsetof(struct rseq_kstats, yielded) },
		{ "sabort:", offsetof(struct rseq_kstats, aborted) },
	};
	int found = 0;
	memset(s, 0, sizeof(*s));
	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			size_t n = strlen(keys[k].key);
			if (strncmp(line, keys[k].key, n))
				continue;
			char *end;
			unsigned long long v = strtoull(line + n, &end, 10);
			if (end == line + n)
				return false;
			*(uint64_t *)((char *)s + keys[k].off) = v;
			found |= 1 << k;
		}
	}
	/* A kernel without the slice extension prints none of the five. */
	s->valid = found == 0x1f;
	return s->valid;
}

void rseq_kstats_read(struct rseq_kstats *s)
{
	char buf[2048];
	FILE *f = fopen(RSEQ_KSTATS_PATH, "r");
	memset(s, 0, sizeof(*s));
	if (!f)
		return;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	rseq_kstats_parse(buf, s);
}

struct rseq_kstats rseq_kstats_delta(const struct rseq_kstats *before,
				     const struct rseq_kstats *after)
{
	struct rseq_kstats d = { 0 };
	if (!before->valid || !after->valid)
		return d;
	d.valid = true;
	d.granted = after->granted - before->granted;
	d.expired = after->expired - before->expired;
	d.revoked = after->revoked - before->revoked;
	d.yielded = after->yielded - before->yielded;
	d.aborted = after->aborted - before->aborted;
	return d;
}

