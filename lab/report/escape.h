/*
 * What untrusted strings become in the report's text outputs.  Run
 * documents (a guest's arrive over its serial channel), profiles and logs
 * may hold anything: terminal escapes (ESC, BEL, CSI) that rewrite what a
 * reader's terminal shows, invalid UTF-8, bidi overrides, and for
 * report.md fake headings, tables, links and HTML.  Every string of theirs
 * is printed through esc_put, directly or as a %s of esc_printf.
 */
#ifndef PREEMPTLAB_ESCAPE_H
#define PREEMPTLAB_ESCAPE_H

#include <stdio.h>

enum esc_mode {
	/* report.txt, summary.txt, stderr: C0 and C1 control characters
	 * (newline and tab too: a value is one line), DEL, bidi controls
	 * and each byte of invalid UTF-8 become '?'. */
	ESC_TXT,
	/* report.md: ESC_TXT, and \ ` * [ | and a leading # escaped with a
	 * backslash, < & and a leading > as entities, so a value is never
	 * HTML, a heading, a quote, a link, code or a table cell's end. */
	ESC_MD,
	/* report.html: ESC_TXT, then & < > " ' as entities, so a value is
	 * text in an element or an attribute, never markup. */
	ESC_HTML,
};

/* Write s made safe for mode. */
void esc_put(FILE *f, const char *s, enum esc_mode mode);

/* s made safe for mode, malloc'd. */
char *esc_dup(const char *s, enum esc_mode mode);

/* fprintf, with every %s argument written through esc_put (the format
 * itself is the report's own text and is written as it is). */
void esc_printf(FILE *f, enum esc_mode mode, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define txt_printf(f, ...) esc_printf((f), ESC_TXT, __VA_ARGS__)
#define md_printf(f, ...) esc_printf((f), ESC_MD, __VA_ARGS__)

#endif
