/*
 * The make variables as the planner sees them: make exports only those the
 * user set, so "unset" and "set to nothing" differ (BASELINE= means no
 * baseline).  `build/plan VAR=value ...` sets them too, for tests and for
 * planning a bench without make.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_vars.h"
#include "plan.h"
#include "size.h"

#define MAX_ARGS 64
static char *arg_name[MAX_ARGS], *arg_val[MAX_ARGS];
static int nargs;

void vars_from_args(int argc, char **argv, int first)
{
	for (int i = first; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq || eq == argv[i])
			plan_die("unexpected argument '%s': give variables as NAME=value", argv[i]);
		if (nargs == MAX_ARGS)
			plan_die("too many variables");
		arg_name[nargs] = strndup(argv[i], (size_t)(eq - argv[i]));
		arg_val[nargs] = eq + 1;
		nargs++;
	}
}

void vars_clear(void)
{
	for (int i = 0; i < nargs; i++)
		free(arg_name[i]);
	nargs = 0;
}

static const char *raw_get(const char *name)
{
	for (int i = nargs - 1; i >= 0; i--)
		if (strcmp(arg_name[i], name) == 0)
			return arg_val[i];
	return getenv(name);
}

const char *var_get(const char *name)
{
	const char *v = raw_get(name);
	/* The old name of PG_HUGE_PAGES, which HUGEPAGES was confused with. */
	if (!v && strcmp(name, "PG_HUGE_PAGES") == 0)
		v = raw_get("PG_HUGEPAGES");
	if (!v)
		return v;
	/*
	 * Every value ends up in a line of a flat file (bench.conf,
	 * units.tsv, host.cells) or in a directory name: a newline or a TAB
	 * split them (issue 28, D3 and D4), and no value of any variable has
	 * one.  A path is used whole or not at all: over PATH_MAX it was cut,
	 * and the cut prefix could name another file (D5).
	 */
	for (const unsigned char *c = (const unsigned char *)v; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			plan_die("%s holds a control character (byte 0x%02x at %zu): no value of it "
				 "can have one", name, *c, (size_t)(c - (const unsigned char *)v));
	if (strlen(v) >= PATH_MAX)
		plan_die("%s is %zu characters, over PATH_MAX (%d)", name, strlen(v), PATH_MAX);
	return v;
}

static void vsay(const char *fmt, va_list ap)
{
	fputs("preemptlab: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void (*plan_die_hook)(void);

void plan_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	if (plan_die_hook)
		plan_die_hook();
	exit(2);
}

void plan_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	exit(1);
}

void plan_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

/* FORCE=1: plan beyond the stated limits (plan size, guest RAM). */
bool plan_forced(void)
{
	const char *f = var_get("FORCE");
	if (f && strcmp(f, "1") && strcmp(f, "0") && *f)
		plan_die("FORCE=%s: use FORCE=1 to plan beyond the limits, or leave it unset", f);
	return f && !strcmp(f, "1");
}

/* Items are separated by commas or blanks; each must be a plain word. */
void list_split(struct list *l, const char *var, const char *s)
{
	l->n = 0;
	const char *p = s;
	while (*p) {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		size_t n = strcspn(p, ", \t\n");
		if (n >= PLAN_NAME)
			plan_die("%s: item '%.40s...' is too long", var, p);
		if (l->n == PLAN_MAX_LIST)
			plan_die("%s: more than %d items", var, PLAN_MAX_LIST);
		memcpy(l->item[l->n], p, n);
		l->item[l->n][n] = '\0';
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)p[i];
			if (!isalnum(c) && !strchr("-_.:/+=@", c))
				plan_die("%s: item '%s' has a character ('%c') no value of it can have",
					 var, l->item[l->n], c);
		}
		if (!list_has(l, l->item[l->n]))
			l->n++;
		p += n;
	}
	if (l->n == 0)
		plan_die("%s is empty: give at least one value", var);
}

bool list_has(const struct list *l, const char *s)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->item[i], s) == 0)
			return true;
	return false;
}

/* Digits, after one '-' at most: strtol alone took " 4", "+4" and "\t4". */
static bool plain_number(const char *s)
{
	s += *s == '-';
	return isdigit((unsigned char)*s);
}

long parse_count(const char *var, const char *s, long min, long max)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!plain_number(s) || end == s || *end || errno || v < min || v > max)
		plan_die("%s=%s: expected a whole number from %ld to %ld", var, s, min, max);
	return v;
}

uint64_t parse_size(const char *var, const char *s)
{
	uint64_t bytes;
	enum size_result r = size_parse(s, &bytes);
	if (r == SIZE_TOO_LARGE)
		plan_die("%s=%s: expected a size such as 128M or 2G, at most 1 PiB", var, s);
	if (r != SIZE_OK)
		plan_die("%s=%s: expected a size such as 128M or 2G", var, s);
	return bytes;
}

/*
 * The make command that reruns this plan: every variable the user set,
 * single-quoted for the shell when it needs quoting; but not FORCE, so
 * that whoever reruns a plan past the limits is told so and decides.
 */
void command_line(char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "make bench");
	for (int i = 0; bench_vars[i] && off < len; i++) {
		const char *v = var_get(bench_vars[i]);
		if (!v || !strcmp(bench_vars[i], "FORCE"))
			continue;
		bool plain = *v != '\0';
		for (const char *c = v; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr(",.-_:/+=@", *c))
				plain = false;
		if (plain) {
			off += (size_t)snprintf(buf + off, len - off, " %s=%s", bench_vars[i], v);
			continue;
		}
		off += (size_t)snprintf(buf + off, len - off, " %s='", bench_vars[i]);
		for (const char *c = v; *c && off + 5 < len; c++) {
			if (*c == '\'')
				off += (size_t)snprintf(buf + off, len - off, "'\\''");
			else
				buf[off++] = *c;
		}
		if (off + 1 < len)
			buf[off++] = '\'';
		buf[off < len ? off : len - 1] = '\0';
	}
	if (off >= len)
		plan_die("the command line of this bench is over %zu characters", len);
}
