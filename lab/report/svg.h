/*
 * Minimal SVG output shared by the charts and the flame graphs: files must
 * be self-contained (no scripts, no fonts or styles fetched from anywhere)
 * and well-formed XML so xmllint and every browser accept them.
 */
#ifndef PREEMPTLAB_SVG_H
#define PREEMPTLAB_SVG_H

#include <stddef.h>
#include <stdio.h>

void svg_begin(FILE *f, int width, int height);
void svg_end(FILE *f);
/* Write s with XML escapes; non-ASCII and control bytes become '?'. */
void svg_escape(FILE *f, const char *s);
/* Text at x,y; anchor "start" | "middle" | "end". */
void svg_text(FILE *f, double x, double y, const char *anchor, int size, const char *s);

/*
 * Series styles that stay apart in greyscale and for colour-blind readers:
 * the Okabe-Ito palette, with a dash pattern and a marker shape per index.
 */
const char *svg_colour(size_t i);
const char *svg_dash(size_t i);  /* "" = solid */
void svg_marker(FILE *f, size_t i, double x, double y, double r, const char *colour, int filled);
/* A generous estimate of a label's width, to size canvases to their text. */
double svg_text_width(const char *s, int size);
/* An axis maximum at or above v: 1, 2 or 5 times a power of ten (every
 * chart's, here so that no chart file depends on another). */
double svg_nice_max(double v);

#endif
