/* Wrapping that counts bytes: the report only writes ASCII. */
#include "textfmt.h"

#include <math.h>
#include <string.h>

/* Skips the spaces at *s; returns the length of the word there (0 at the
 * end of the text). */
static int next_word(const char **s)
{
	while (**s == ' ')
		(*s)++;
	return (int)strcspn(*s, " ");
}

void tw_para(FILE *f, const char *lead, const char *text, int indent)
{
	int col = (int)strlen(lead);
	fputs(lead, f);
	const char *s = text;
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
		/* A word longer than the line is cut: better than overflowing. */
		while (col + (first ? 0 : 1) + w > TXT_WIDTH && w > TXT_WIDTH - indent) {
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
}

void tw_cmd(FILE *f, const char *cmd)
{
	const int indent = 2, max = TXT_WIDTH - 2; /* room for " \" */
	int col = indent;
	fprintf(f, "%*s", indent, "");
	const char *s = cmd;
	int first = 1;
	while (*s) {
		int w = next_word(&s);
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
		/* Backslash-newline vanishes even inside a word in sh. */
		while (col + w > TXT_WIDTH - 1) {
			int room = TXT_WIDTH - 1 - col;
			fwrite(s, 1, (size_t)room, f);
			fputs("\\\n", f);
			s += room;
			w -= room;
			col = 0;
		}
		fwrite(s, 1, (size_t)w, f);
		col += w;
		s += w;
		first = 0;
	}
	fputc('\n', f);
}

void tw_heading(FILE *f, const char *title)
{
	size_t n = strlen(title);
	fprintf(f, "\n%s\n", title);
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
