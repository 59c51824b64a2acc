#include "trace_ns.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The next "PID CPU NS type: N" line of the raw view; 0 at its end. */
static int next_raw(FILE *raw, long *pid, unsigned long long *ns)
{
	char line[256];
	while (fgets(line, sizeof(line), raw)) {
		long cpu;
		if (line[0] != '#' && sscanf(line, "%ld %ld %llu ", pid, &cpu, ns) == 3)
			return 1;
	}
	return 0;
}

/*
 * An event header "comm-PID [CPU] flags SECS.USECS: ...": where SECS
 * starts and the colon after USECS, or 0.  The shape trace_join.c parses.
 */
static int header(const char *l, long *pid, const char **ts, const char **colon,
		  unsigned long long *us)
{
	const char *b = strstr(l, "] ");
	if (!b || l[0] == '#' || !strncmp(l, " => ", 4))
		return 0;
	const char *o = b;
	while (o > l && isdigit((unsigned char)o[-1]))
		o--;
	if (o == b || o == l || o[-1] != '[')
		return 0;
	const char *q = o - 1;
	while (q > l && q[-1] == ' ')
		q--;
	const char *d = q;
	while (d > l && isdigit((unsigned char)d[-1]))
		d--;
	if (d == q || d == l || d[-1] != '-')
		return 0;
	*pid = atol(d);
	const char *p = b + 2;
	while (*p == ' ')
		p++;
	while (*p && *p != ' ')
		p++;
	while (*p == ' ')
		p++;
	char *e;
	unsigned long long s = strtoull(p, &e, 10), frac;
	if (e == p || *e != '.')
		return 0;
	const char *f = e + 1;
	frac = strtoull(f, &e, 10);
	if (e - f != 6 || *e != ':')
		return 0;
	*ts = p;
	*colon = e;
	*us = s * 1000000ull + frac;
	return 1;
}

long trace_ns_merge(FILE *text, FILE *raw, FILE *out)
{
	char line[8192];
	long n = 0;
	while (fgets(line, sizeof(line), text)) {
		long pid, rpid;
		const char *ts, *colon;
		unsigned long long us, ns;
		if (!header(line, &pid, &ts, &colon, &us)) {
			fputs(line, out);
			continue;
		}
		/* The kernel rounds: ns2usecs is (ns + 500) / 1000. */
		if (!next_raw(raw, &rpid, &ns) || rpid != pid || (ns + 500) / 1000 != us)
			return -1;
		fprintf(out, "%.*s%llu.%09llu%s", (int)(ts - line), line, ns / 1000000000ull,
			ns % 1000000000ull, colon);
		n++;
	}
	long pid;
	unsigned long long ns;
	return next_raw(raw, &pid, &ns) ? -1 : n;
}
