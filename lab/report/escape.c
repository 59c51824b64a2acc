/*
 * One sanitiser for every untrusted string the report prints.  Valid
 * UTF-8 is kept (a host name may be written in any script); what a
 * terminal or a markdown renderer would act on is not.
 */
#include "escape.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* C1 controls (a terminal takes U+009B as CSI), bidi controls (they
 * reorder what is shown: "Trojan Source") and line separators. */
static int unsafe_point(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x2028 || cp == 0x2029;
}

/* Length (2..4) of the well-formed UTF-8 sequence at s and its code point
 * in *cp, or 0: no overlong forms, no surrogates, nothing past U+10FFFF. */
static int utf8_seq(const unsigned char *s, uint32_t *cp)
{
	uint32_t c = s[0], min;
	int n;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2, *cp = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, *cp = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, *cp = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)  /* the terminating NUL stops here too */
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}

void esc_put(FILE *f, const char *str, enum esc_mode mode)
{
	const unsigned char *s = (const unsigned char *)str;
	while (*s) {
		unsigned c = *s;
		if (c >= 0x80) {
			uint32_t cp;
			int n = utf8_seq(s, &cp);
			if (!n || unsafe_point(cp))
				fputc('?', f);
			else
				fwrite(s, 1, (size_t)n, f);
			s += n ? n : 1;
			continue;
		}
		s++;
		if (c < 0x20 || c == 0x7f) {
			fputc('?', f);
			continue;
		}
		if (mode == ESC_HTML && strchr("&<>\"'", (int)c)) {
			fputs(c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;" : "&#39;", f);
			continue;
		}
		if (mode == ESC_MD) {
			/* < opens HTML and & an entity; > and # only act at the
			 * start of a line (quote, heading), where a value may be
			 * printed; \ first, so data cannot undo an escape. */
			int lead = s - 1 == (const unsigned char *)str;
			if (c == '<' || c == '&' || (c == '>' && lead)) {
				fputs(c == '<' ? "&lt;" : c == '&' ? "&amp;" : "&gt;", f);
				continue;
			}
			if (strchr("\\`*[|", (int)c) || (c == '#' && lead))
				fputc('\\', f);
		}
		fputc((int)c, f);
	}
}

char *esc_dup(const char *s, enum esc_mode mode)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m) {
		fprintf(stderr, "report: out of memory\n");
		exit(1);
	}
	esc_put(m, s, mode);
	if (fclose(m)) {
		fprintf(stderr, "report: out of memory\n");
		exit(1);
	}
	return buf;
}

/* Appends c to the conversion spec being built; formats are the report's
 * own, so a spec never nears the limit. */
static void spec_add(char *spec, size_t *o, size_t cap, const char *s, size_t n)
{
	if (*o + n >= cap) {
		fprintf(stderr, "report: a printf conversion too long\n");
		abort();
	}
	memcpy(spec + *o, s, n);
	*o += n;
	spec[*o] = 0;
}

/*
 * Walks fmt one conversion at a time and hands each to fprintf with its
 * own argument, so that %s arguments can be escaped first; '*' widths and
 * precisions are written into the spec as numbers.
 */
void esc_printf(FILE *f, enum esc_mode mode, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *p = fmt;
	while (*p) {
		if (*p != '%') {
			size_t n = strcspn(p, "%");
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		if (p[1] == '%') {
			fputc('%', f);
			p += 2;
			continue;
		}
		char spec[64], num[24];
		size_t o = 0;
		spec_add(spec, &o, sizeof(spec), p++, 1);
		size_t n = strspn(p, "-+ #0");
		spec_add(spec, &o, sizeof(spec), p, n);
		p += n;
		if (*p == '*') {
			int w = va_arg(ap, int);
			spec_add(spec, &o, sizeof(spec), num, (size_t)snprintf(num, sizeof(num), "%d", w));
			p++;
		} else {
			n = strspn(p, "0123456789");
			spec_add(spec, &o, sizeof(spec), p, n);
			p += n;
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				int pr = va_arg(ap, int);
				p++;
				/* A negative precision is taken as if omitted. */
				if (pr >= 0)
					spec_add(spec, &o, sizeof(spec), num,
						 (size_t)snprintf(num, sizeof(num), ".%d", pr));
			} else {
				n = strspn(p, "0123456789");
				spec_add(spec, &o, sizeof(spec), ".", 1);
				spec_add(spec, &o, sizeof(spec), p, n);
				p += n;
			}
		}
		n = strspn(p, "hlLzjt");
		char len[3] = "";
		if (n < sizeof(len))
			memcpy(len, p, n), len[n] = 0;
		spec_add(spec, &o, sizeof(spec), p, n);
		p += n;
		char conv = *p;
		if (!conv)
			break;
		spec_add(spec, &o, sizeof(spec), p++, 1);
		switch (conv) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			char *e = esc_dup(s ? s : "(null)", mode);
			fprintf(f, spec, e);
			free(e);
			break;
		}
		case 'd': case 'i':
			if (!strcmp(len, "l"))
				fprintf(f, spec, va_arg(ap, long));
			else if (!strcmp(len, "ll"))
				fprintf(f, spec, va_arg(ap, long long));
			else if (!strcmp(len, "z") || !strcmp(len, "t"))
				fprintf(f, spec, va_arg(ap, ptrdiff_t));
			else if (!strcmp(len, "j"))
				fprintf(f, spec, va_arg(ap, intmax_t));
			else
				fprintf(f, spec, va_arg(ap, int));
			break;
		case 'u': case 'x': case 'X': case 'o':
			if (!strcmp(len, "l"))
				fprintf(f, spec, va_arg(ap, unsigned long));
			else if (!strcmp(len, "ll"))
				fprintf(f, spec, va_arg(ap, unsigned long long));
			else if (!strcmp(len, "z") || !strcmp(len, "t"))
				fprintf(f, spec, va_arg(ap, size_t));
			else if (!strcmp(len, "j"))
				fprintf(f, spec, va_arg(ap, uintmax_t));
			else
				fprintf(f, spec, va_arg(ap, unsigned));
			break;
		case 'c': {
			/* A character is a one-byte string to escape. */
			num[0] = (char)va_arg(ap, int), num[1] = 0;
			spec[o - 1] = 's';
			char *e = esc_dup(num, mode);
			fprintf(f, spec, e);
			free(e);
			break;
		}
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
			if (!strcmp(len, "L"))
				fprintf(f, spec, va_arg(ap, long double));
			else
				fprintf(f, spec, va_arg(ap, double));
			break;
		case 'p':
			fprintf(f, spec, va_arg(ap, void *));
			break;
		default:
			/* %n and the unknown: never from the report's formats. */
			fprintf(stderr, "report: unsupported conversion %s\n", spec);
			abort();
		}
	}
	va_end(ap);
}
