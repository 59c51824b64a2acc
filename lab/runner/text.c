/*
 * The cell runner's text rules (text.h).
 */
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

int text_read_fields(char *line, const char *seps, char **field, int n)
{
	int got = 0;
	char *p = line;
	for (int i = 0; i < n; i++)
		field[i] = p + strlen(p);
	for (int i = 0; i < n; i++) {
		p += strspn(p, seps);
		if (!*p)
			break;
		field[i] = p;
		got++;
		if (i == n - 1) {
			/* The rest, less trailing separators. */
			size_t len = strlen(p);
			while (len > 0 && strchr(seps, p[len - 1]))
				p[--len] = '\0';
			break;
		}
		p += strcspn(p, seps);
		if (*p)
			*p++ = '\0';
	}
	return got;
}

int text_words(char *s, char **word, int max)
{
	int n = 0;
	char *save = NULL;
	for (char *w = strtok_r(s, " \t\n", &save); w && n < max; w = strtok_r(NULL, " \t\n", &save))
		word[n++] = w;
	return n;
}

void text_cut_field(const char *s, int n, char *out, size_t size)
{
	if (!strchr(s, '\t')) {
		snprintf(out, size, "%s", s);
		return;
	}
	const char *p = s;
	for (int i = 1; i < n && p; i++) {
		p = strchr(p, '\t');
		if (p)
			p++;
	}
	if (!p) {
		snprintf(out, size, "%s", "");
		return;
	}
	snprintf(out, size, "%.*s", (int)strcspn(p, "\t"), p);
}

void text_model_now(const char *line, char *out, size_t size)
{
	/* sed's greedy ".*(" takes the last "(" that a name and ")" follow. */
	for (size_t i = strlen(line); i-- > 0;) {
		if (line[i] != '(')
			continue;
		size_t k = strspn(line + i + 1, "abcdefghijklmnopqrstuvwxyz_");
		if (line[i + 1 + k] == ')') {
			snprintf(out, size, "%.*s", (int)k, line + i + 1);
			return;
		}
	}
	snprintf(out, size, "%s", "");
}

int text_has_word(const char *line, const char *word, int noparen)
{
	size_t wl = strlen(word);
	const char *p = line;
	while (*p) {
		while (*p == ' ' || (noparen && (*p == '(' || *p == ')')))
			p++;
		const char *w = p;
		size_t l = 0;
		/* A word runs to the next blank; parentheses dropped inside it. */
		char buf[256];
		while (*p && *p != ' ') {
			if (!(noparen && (*p == '(' || *p == ')')) && l < sizeof(buf) - 1)
				buf[l++] = *p;
			p++;
		}
		if (p > w && l == wl && !memcmp(buf, word, wl))
			return 1;
	}
	return 0;
}

const char *text_tail(const char *text, size_t len, int n)
{
	size_t i = len;
	/* A last line without its newline still counts as a line. */
	if (i > 0 && text[i - 1] == '\n')
		i--;
	while (i > 0) {
		if (text[i - 1] == '\n' && --n == 0)
			return text + i;
		i--;
	}
	return text;
}

void text_chomp(char *s)
{
	size_t l = strlen(s);
	while (l > 0 && s[l - 1] == '\n')
		s[--l] = '\0';
}

void text_nl_to_blank(char *s)
{
	for (; *s; s++)
		if (*s == '\n')
			*s = ' ';
}

size_t text_base64_size(size_t len)
{
	size_t chars = (len + 2) / 3 * 4;
	return chars + chars / 76 + 2;
}

size_t text_base64(const unsigned char *in, size_t len, char *out)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0, col = 0;
	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)in[i] << 16;
		if (i + 1 < len)
			v |= (unsigned)in[i + 1] << 8;
		if (i + 2 < len)
			v |= in[i + 2];
		char q[4] = { a[v >> 18 & 63], a[v >> 12 & 63], i + 1 < len ? a[v >> 6 & 63] : '=',
			      i + 2 < len ? a[v & 63] : '=' };
		for (int k = 0; k < 4; k++) {
			out[o++] = q[k];
			if (++col == 76) {
				out[o++] = '\n';
				col = 0;
			}
		}
	}
	if (col)
		out[o++] = '\n';
	out[o] = '\0';
	return o;
}

int text_shell_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

int text_int(const char *s, long *v)
{
	char *end;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!*s)
		return -1;
	long x = strtol(s, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end)
		return -1;
	*v = x;
	return 0;
}
