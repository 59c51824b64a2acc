/*
 * Minimal SVG output shared by the charts and the flame graphs: files must
 * be self-contained (no scripts, no fonts or styles fetched from anywhere)
 * and well-formed XML so xmllint and every browser accept them.
 */
#ifndef PREEMPTLAB_SVG_H
#define PREEMPTLAB_SVG_H

#include <stdio.h>

void svg_begin(FILE *f, int width, int height);
void svg_end(FILE *f);
/* Write s with XML escapes; non-ASCII and control bytes become '?'. */
void svg_escape(FILE *f, const char *s);
/* Text at x,y; anchor "start" | "middle" | "end". */
void svg_text(FILE *f, double x, double y, const char *anchor, int size, const char *s);

#endif
