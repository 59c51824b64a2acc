/*
 * Plain-text layout for report.txt: everything goes through these helpers
 * so no line exceeds TXT_WIDTH columns (mail clients wrap longer ones and
 * break the tables).
 */
#ifndef PREEMPTLAB_TEXTFMT_H
#define PREEMPTLAB_TEXTFMT_H

#include <stddef.h>
#include <stdio.h>

#define TXT_WIDTH 80

/* Word-wrap text to TXT_WIDTH; continuation lines get `indent` spaces.
 * The first line starts with `lead` (may be "").  Lead and text are
 * written through the text sanitiser (escape.h), as by text_cmd and
 * text_heading. */
void text_para(FILE *f, const char *lead, const char *text, int indent);

/* A shell command, indented by 2, broken at blanks outside quotes with
 * " \" so that it still pastes into a shell (over-long words break
 * mid-word with "\", or "'\" and a reopening "'" inside single quotes). */
void text_cmd(FILE *f, const char *cmd);

/* A heading underlined with '-'. */
void text_heading(FILE *f, const char *title);

/* A value in at most 10 columns with sensible precision. */
const char *fmt_val(double v, char *buf, size_t len);

/* A value for people: 950, 12k, 1.2M; with unit "ns", "3.4 \xc2\xb5s" (UTF-8),
 * 12 ms, 1.5 s. */
const char *fmt_human(double v, const char *unit, char *buf, size_t len);

#endif
