/*
 * Flame graphs from folded stacks, rendered as a static SVG: one rectangle
 * per frame with a <title> tooltip, width proportional to samples, colour
 * from a hash of the name (or, for a differential graph, from the change
 * between two profiles).  No JavaScript: the file must open in a mail
 * client's viewer or a browser with no network.
 */
#ifndef PREEMPTLAB_FLAME_H
#define PREEMPTLAB_FLAME_H

#include <stdio.h>

#include "fold.h"

struct flame_opts {
	const char *title;
	const char *subtitle;   /* may be NULL */
	int width;              /* pixels, default 1200 */
	double minwidth;        /* frames narrower than this (px) are left out */
};

/* Render f. Returns the number of frames drawn (the "all" root included). */
long flame_svg(FILE *out, const struct folded *f, const struct flame_opts *o);

/*
 * Differential: the shape (widths) of `after`; colour by the change of each
 * frame's share of samples from `before` to `after`: red = more in after,
 * blue = less.  Returns the number of frames drawn.
 */
long flame_diff_svg(FILE *out, const struct folded *before, const struct folded *after,
		    const struct flame_opts *o);

#endif
