/*
 * Wrapping that counts bytes: the report writes ASCII, and what documents
 * bring in goes through the text sanitiser first (escape.h), which keeps
 * valid UTF-8 but no control characters.
 */
#include "textfmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

/* Skips the spaces at *s; returns the length of the word there (0 at the
 * end of the text). */
static int next_word(const char **s)
{
	while (**s == ' ')
		(*s)++;
	return (int)strcspn(*s, " ");
}

void text_para(FILE *f, const char *lead, const char *text, int indent)
{
	/* Paragraphs are made of document strings: clean them whole. */
	char *clean = esc_dup(text, ESC_TXT);
	int col = (int)strlen(lead);
	esc_put(f, lead, ESC_TXT);
	const char *s = clean;
	int first = 1;
	while (*s) {
		int w = next_word(&s);
		if (!w)
			break;
		if (!first && col + 1 + w > TXT_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			first = 1;
		}
		/* A line that opens with '#' is a command to regzbot ("#regzbot
		 * ..."): only the report's own suggestion may be one, never a
		 * document's words that wrapping brought to a line's start. */
		if (first && col == 0 && *s == '#') {
			fputc(' ', f);
			col++;
		}
		/* A word longer than the line is cut: better than overflowing. */
		while (col + (first ? 0 : 1) + w > TXT_WIDTH && w > TXT_WIDTH - (first ? col : indent)) {
			int room = TXT_WIDTH - col - (first ? 0 : 1);
			if (!first)
				fputc(' ', f);
			fwrite(s, 1, (size_t)room, f);
			fprintf(f, "\n%*s", indent, "");
			s += room;
			w -= room;
			col = indent;
			first = 1;
		}
		if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, (size_t)w, f);
		col += w;
		s += w;
		first = 0;
	}
	fputc('\n', f);
	free(clean);
}

/* Length of the shell word at s: up to a blank outside quotes. */
static int cmd_word(const char *s)
{
	int inq = 0, esc = 0, n = 0;
	for (; s[n] && (inq || esc || s[n] != ' '); n++) {
		if (esc)
			esc = 0;
		else if (s[n] == '\'')
			inq = !inq;
		else if (!inq && s[n] == '\\')
			esc = 1;
	}
	return n;
}

void text_cmd(FILE *f, const char *cmd)
{
	const int indent = 2, max = TXT_WIDTH - 2; /* room for " \" */
	int col = indent;
	fprintf(f, "%*s", indent, "");
	char *clean = esc_dup(cmd, ESC_TXT);
	const char *s = clean;
	int first = 1;
	while (*s) {
		while (*s == ' ')
			s++;
		int w = cmd_word(s);
		if (!w)
			break;
		if (!first && col + 1 + w > max) {
			fprintf(f, " \\\n%*s", indent + 2, "");
			col = indent + 2;
			first = 1;
		}
		if (!first) {
			fputc(' ', f);
			col++;
		}
		/*
		 * A word longer than the line is cut with a backslash-newline,
		 * which sh removes; inside '...' it would be kept, so there the
		 * quote is closed first and reopened on the next line ('ab'\
		 * 'cd' is abcd).  Never between a backslash and the character it
		 * escapes, so one of those moves down with room to spare.  Lines
		 * end by column 78, leaving room for a " \" after the word.
		 */
		int inq = 0, esc = 0;
		for (int i = 0; i < w; i++) {
			char c = s[i];
			if (!esc && (col >= max || (!inq && c == '\\' && col >= max - 2))) {
				fputs(inq ? "'\\\n'" : "\\\n", f);
				col = inq;
			}
			fputc(c, f);
			col++;
			if (esc)
				esc = 0;
			else if (c == '\'')
				inq = !inq;
			else if (!inq && c == '\\')
				esc = 1;
		}
		s += w;
		first = 0;
	}
	fputc('\n', f);
	free(clean);
}

void text_heading(FILE *f, const char *title)
{
	size_t n = strlen(title);
	txt_printf(f, "\n%s\n", title);
	for (size_t i = 0; i < n && i < TXT_WIDTH; i++)
		fputc('-', f);
	fputc('\n', f);
}

const char *fmt_val(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 1e10)
		snprintf(buf, len, "%.3e", v);
	else if (a >= 1000 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

const char *fmt_human(double v, const char *unit, char *buf, size_t len)
{
	static const struct { double div; const char *suffix; } counts[] = {
		{ 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } },
		times[] = { { 1e9, " s" }, { 1e6, " ms" }, { 1e3, " \xc2\xb5s" } };
	int ns = unit && !strcmp(unit, "ns");
	const char *sfx = ns ? " ns" : "";
	double a = fabs(v), d = 1;
	for (size_t i = 0; i < 3; i++)
		if (a >= (ns ? times : counts)[i].div) {
			d = (ns ? times : counts)[i].div;
			sfx = (ns ? times : counts)[i].suffix;
			break;
		}
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	double x = v / d, ax = fabs(x);
	if (x == floor(x) || ax >= 100)
		snprintf(buf, len, "%.0f%s", x, sfx);
	else if (ax >= 10)
		snprintf(buf, len, "%.1f%s", x, sfx);
	else if (ax >= 1 || d > 1)
		snprintf(buf, len, "%.2g%s", x, sfx);
	else
		snprintf(buf, len, "%.2g%s", x, sfx);
	/* "1.2" not "1.20": %g already trims; 10..99.9 keeps one decimal. */
	return buf;
}
