/*
 * perf script's default output, per sample:
 *
 *   comm  pid[/tid] [cpu] time: period event:
 *   <tab>addr symbol+0xoff (dso)
 *   ...                          (innermost frame first)
 *   <blank line>
 *
 * A comm may contain spaces, so the header is split at the first field
 * that is a pid.  Without -g the frame sits on the header line instead.
 */
#include "perf_script.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct sample {
	char comm[256];
	char **frame;        /* innermost first */
	size_t n, cap;
	int open;
};

static void push(struct sample *s, const char *name)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 32;
		s->frame = realloc(s->frame, s->cap * sizeof(*s->frame));
		if (!s->frame)
			exit(1);
	}
	s->frame[s->n] = strdup(name);
	if (!s->frame[s->n])
		exit(1);
	s->n++;
}

/* Folded frames must not contain ';' (separator); keep them printable. */
static void clean(char *s)
{
	for (; *s; s++)
		if (*s == ';')
			*s = ':';
		else if ((unsigned char)*s < 0x20)
			*s = ' ';
}

/* The frames of a sample that is given up (an error in the middle). */
static void drop(struct sample *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->frame[i]);
	free(s->frame);
}

static void flush(struct sample *s, struct folded *out, struct fold_stats *st)
{
	if (!s->open)
		return;
	size_t len = strlen(s->comm) + 1;
	for (size_t i = 0; i < s->n; i++)
		len += strlen(s->frame[i]) + 1;
	char *stack = malloc(len + 1);
	if (!stack)
		exit(1);
	strcpy(stack, s->comm);
	for (size_t i = s->n; i-- > 0;) {
		strcat(stack, ";");
		strcat(stack, s->frame[i]);
		free(s->frame[i]);
	}
	fold_add(out, stack, 1);
	free(stack);
	st->samples++;
	s->n = 0;
	s->open = 0;
}

static int is_pid(const char *tok, size_t len)
{
	if (!len)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)tok[i]) && tok[i] != '/')
			return 0;
	return isdigit((unsigned char)tok[0]);
}

/* "720.655078:" */
static int is_time(const char *tok, size_t len)
{
	size_t i = 0, dig = 0;
	while (i < len && isdigit((unsigned char)tok[i]))
		i++, dig++;
	if (!dig || i >= len || tok[i] != '.')
		return 0;
	i++;
	while (i < len && isdigit((unsigned char)tok[i]))
		i++;
	return i + 1 == len && tok[i] == ':';
}

/* "ffffffff8162a2b9 vms_complete+0x69 ([kernel.kallsyms])" -> frame name. */
static int frame_name(const char *line, char *out, size_t len, struct fold_stats *st)
{
	const char *s = line;
	while (isspace((unsigned char)*s))
		s++;
	const char *addr = s;
	while (isxdigit((unsigned char)*s))
		s++;
	if (s == addr || !isspace((unsigned char)*s))
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	const char *dso = strrchr(s, '(');
	const char *end = dso ? dso : s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	char sym[1024];
	size_t l = (size_t)(end - s) < sizeof(sym) - 1 ? (size_t)(end - s) : sizeof(sym) - 1;
	memcpy(sym, s, l);
	sym[l] = 0;
	/* Drop "+0x1f": the same function is one frame wherever it was hit. */
	char *plus = strrchr(sym, '+');
	if (plus && plus[1] == '0' && plus[2] == 'x')
		*plus = 0;
	char dsoname[512] = "";
	if (dso) {
		const char *d = dso + 1, *e = strrchr(d, ')');
		size_t dl = e ? (size_t)(e - d) : strlen(d);
		if (dl >= sizeof(dsoname))
			dl = sizeof(dsoname) - 1;
		memcpy(dsoname, d, dl);
		dsoname[dl] = 0;
	}
	int kernel = strstr(dsoname, "kernel.kallsyms") || strstr(dsoname, "vmlinux") ||
		     (dsoname[0] == '[' && strstr(dsoname, ".ko"));
	if (!sym[0] || !strcmp(sym, "[unknown]")) {
		st->unknown++;
		/* Keep where it was: the library is better than nothing. */
		const char *base = strrchr(dsoname, '/');
		base = base ? base + 1 : dsoname;
		if (*base && strcmp(base, "[unknown]"))
			snprintf(out, len, "[%s]", base);
		else
			snprintf(out, len, "[unknown]");
	} else {
		snprintf(out, len, "%s%s", sym, kernel ? "_[k]" : "");
	}
	clean(out);
	st->frames++;
	return 0;
}

int perf_script_fold(FILE *in, const char *name, struct folded *out, struct fold_stats *st,
		     char *err, size_t errlen)
{
	struct sample s = { .n = 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long lineno = 0, headers = 0;
	memset(st, 0, sizeof(*st));
	while ((len = getline(&line, &cap, in)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (!len) {
			flush(&s, out, st);
			continue;
		}
		if (line[0] == '#')  /* perf script -F header comments, --header */
			continue;
		if (isspace((unsigned char)line[0])) {
			char fr[1100];
			if (!s.open || frame_name(line, fr, sizeof(fr), st)) {
				snprintf(err, errlen, "%s:%ld: not perf script output (a frame line "
					 "outside a sample); make it with: perf script -i perf.data",
					 name, lineno);
				free(line);
				drop(&s);  /* the frames read so far leaked (libFuzzer) */
				return -1;
			}
			push(&s, fr);
			continue;
		}
		/* A sample header.  The comm may hold spaces and digits, so find
		 * the timestamp ("123.456789:") and step back over [cpu] to the
		 * pid; the comm is what precedes it. */
		flush(&s, out, st);
		char *tok[64];
		size_t tl[64], nt = 0;
		for (char *p = line; *p && nt < 64;) {
			p += strspn(p, " \t");
			if (!*p)
				break;
			tok[nt] = p;
			tl[nt] = strcspn(p, " \t");
			p += tl[nt++];
		}
		char *pid = NULL, *time_end = NULL;
		for (size_t t = 1; t < nt && !pid; t++) {
			if (!is_time(tok[t], tl[t]))
				continue;
			size_t j = t - 1;
			if (j > 0 && tok[j][0] == '[')
				j--;
			if (j > 0 && is_pid(tok[j], tl[j])) {
				pid = tok[j];
				time_end = tok[t] + tl[t];
			}
		}
		if (!pid) {
			snprintf(err, errlen, "%s:%ld: not a perf script sample header "
				 "(\"comm pid time: period event:\")", name, lineno);
			free(line);
			drop(&s);
			return -1;
		}
		size_t cl = (size_t)(pid - line);
		while (cl && isspace((unsigned char)line[cl - 1]))
			cl--;
		if (cl >= sizeof(s.comm))
			cl = sizeof(s.comm) - 1;
		memcpy(s.comm, line, cl);
		s.comm[cl] = 0;
		clean(s.comm);
		s.open = 1;
		headers++;
		/* Without -g: "... event:  addr sym (dso)" on the same line.
		 * The frame is what follows the event ("cpu-clock:ppp:"), the
		 * first word after the time and the period to end in ':'.
		 * Looking for the last ": " instead took "1 cpu-clock:" of a
		 * header without its trailing blank for a frame. */
		char *p = time_end + strspn(time_end, " \t");
		size_t w = strcspn(p, " \t");
		if (w && strspn(p, "0123456789") == w) {  /* the period */
			p += w;
			p += strspn(p, " \t");
			w = strcspn(p, " \t");
		}
		char fr[1100];
		if (w && p[w - 1] == ':' && p[w] && frame_name(p + w, fr, sizeof(fr), st) == 0)
			push(&s, fr);
	}
	flush(&s, out, st);
	free(line);
	free(s.frame);
	if (!headers) {
		snprintf(err, errlen, "%s: no samples (empty perf script output: was perf "
			 "record given -g and did the command run long enough?)", name);
		return -1;
	}
	return 0;
}
