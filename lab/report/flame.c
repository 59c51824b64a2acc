/*
 * The layout is Brendan Gregg's: stacks merged into a tree, children in
 * alphabetical order, root ("all") at the bottom, x = position among the
 * samples, width = samples.  Only what the SVG needs is kept in the tree.
 */
#include "flame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

#define FRAME_H 16
#define FONT 11
#define TOP 48
#define BOTTOM 12
#define SIDE 10
/*
 * Frames deeper than this are merged into one "[truncated]" frame.  Each
 * frame is a tree level the renderer walks recursively; a 20,000-frame
 * stack (runaway recursion, a corrupt unwind) overflowed the C stack, and
 * would draw an SVG 320,000 px tall.  perf records 127 frames by default.
 */
#define FLAME_MAX_DEPTH 512
#define TRUNCATED "[truncated]"

struct node {
	char *name;
	double count;     /* samples in the drawn profile */
	double before;    /* differential: samples of the same path in the other profile */
	struct node **kid;
	size_t nkid, cap;
};

static struct node *node_new(const char *name, size_t len)
{
	struct node *n = calloc(1, sizeof(*n));
	if (!n || !(n->name = strndup(name, len)))
		exit(1);
	return n;
}

static void node_free(struct node *n)
{
	for (size_t i = 0; i < n->nkid; i++)
		node_free(n->kid[i]);
	free(n->kid);
	free(n->name);
	free(n);
}

static struct node *child(struct node *n, const char *name, size_t len, int create)
{
	for (size_t i = 0; i < n->nkid; i++)
		if (strlen(n->kid[i]->name) == len && !strncmp(n->kid[i]->name, name, len))
			return n->kid[i];
	if (!create)
		return NULL;
	if (n->nkid == n->cap) {
		n->cap = n->cap ? n->cap * 2 : 4;
		n->kid = realloc(n->kid, n->cap * sizeof(*n->kid));
		if (!n->kid)
			exit(1);
	}
	return n->kid[n->nkid++] = node_new(name, len);
}

/* Add a stack; with before = 1, only credit paths that already exist.
 * Frames past FLAME_MAX_DEPTH count once, as TRUNCATED. */
static void insert(struct node *root, const char *stack, double count, int before)
{
	struct node *n = root;
	if (before)
		root->before += count;
	else
		root->count += count;
	const char *s = stack;
	int depth = 0;
	while (*s) {
		size_t len = strcspn(s, ";");
		if (len && depth == FLAME_MAX_DEPTH) {
			n = child(n, TRUNCATED, strlen(TRUNCATED), !before);
			if (n) {
				if (before)
					n->before += count;
				else
					n->count += count;
			}
			return;
		}
		if (len) {
			depth++;
			n = child(n, s, len, !before);
			if (!n)
				return;
			if (before)
				n->before += count;
			else
				n->count += count;
		}
		s += len;
		if (*s == ';')
			s++;
	}
}

static int kid_cmp(const void *a, const void *b)
{
	return strcmp((*(struct node *const *)a)->name, (*(struct node *const *)b)->name);
}

static int sort_depth(struct node *n)
{
	/* A leaf's kid is NULL, which qsort must not be given (UBSan). */
	if (n->nkid)
		qsort(n->kid, n->nkid, sizeof(*n->kid), kid_cmp);
	int d = 0;
	for (size_t i = 0; i < n->nkid; i++) {
		int k = sort_depth(n->kid[i]);
		if (k > d)
			d = k;
	}
	return d + 1;
}

static unsigned name_hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

struct ctx {
	FILE *out;
	double scale;          /* px per sample */
	double minwidth;
	int height;
	double total, before_total, maxdelta;
	int diff;
	long frames;
};

static void colour(const struct ctx *c, const struct node *n, char *buf, size_t len)
{
	if (c->diff) {
		double d = n->count / c->total - (c->before_total > 0 ? n->before / c->before_total : 0);
		double s = c->maxdelta > 0 ? fabs(d) / c->maxdelta : 0;
		int v = (int)lround(255 * (1 - s));
		if (d > 0)
			snprintf(buf, len, "rgb(255,%d,%d)", v, v);
		else
			snprintf(buf, len, "rgb(%d,%d,255)", v, v);
		return;
	}
	unsigned h = name_hash(n->name);
	double v1 = (h & 0xff) / 255.0, v2 = ((h >> 8) & 0xff) / 255.0;
	size_t l = strlen(n->name);
	if (l > 4 && !strcmp(n->name + l - 4, "_[k]"))  /* kernel: orange */
		snprintf(buf, len, "rgb(%d,%d,%d)", 230 + (int)(25 * v1), 120 + (int)(60 * v2), 40);
	else  /* user space: Gregg's "hot" palette */
		snprintf(buf, len, "rgb(%d,%d,%d)", 205 + (int)(50 * v1), (int)(230 * v2),
			 (int)(55 * v1 * v2));
}

static void maxdelta(struct ctx *c, const struct node *n)
{
	double d = fabs(n->count / c->total - (c->before_total > 0 ? n->before / c->before_total : 0));
	if (d > c->maxdelta)
		c->maxdelta = d;
	for (size_t i = 0; i < n->nkid; i++)
		maxdelta(c, n->kid[i]);
}

static void draw(struct ctx *c, const struct node *n, double x, int depth)
{
	double w = n->count * c->scale;
	if (w < c->minwidth)
		return;
	double y = c->height - BOTTOM - (depth + 1) * FRAME_H;
	char fill[40];
	colour(c, n, fill, sizeof(fill));
	fprintf(c->out, "<g class=\"frame\"><title>");
	svg_escape(c->out, n->name);
	if (!n->nkid && !strcmp(n->name, TRUNCATED))
		fprintf(c->out, ": the frames past the first %d, merged", FLAME_MAX_DEPTH);
	if (c->diff) {
		double a = 100 * n->count / c->total;
		double b = c->before_total > 0 ? 100 * n->before / c->before_total : 0;
		fprintf(c->out, " (before %.0f samples, %.2f%%; after %.0f samples, %.2f%%; %+.2f points)",
			n->before, b, n->count, a, a - b);
	} else {
		fprintf(c->out, " (%.0f samples, %.2f%%)", n->count, 100 * n->count / c->total);
	}
	fprintf(c->out, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
			"fill=\"%s\" rx=\"2\" ry=\"2\"/>",
		x, y, w, FRAME_H - 1, fill);
	/* Label what fits; ~0.6 em per character in the default font. */
	int room = (int)((w - 6) / (FONT * 0.6));
	if (room >= 3) {
		char label[512];
		size_t l = strlen(n->name);
		if ((size_t)room >= l || room >= (int)sizeof(label))
			snprintf(label, sizeof(label), "%s", n->name);
		else
			snprintf(label, sizeof(label), "%.*s..", room - 2, n->name);
		fprintf(c->out, "<text x=\"%.2f\" y=\"%.1f\" font-size=\"%d\">", x + 3, y + FRAME_H - 4.5, FONT);
		svg_escape(c->out, label);
		fputs("</text>", c->out);
	}
	fputs("</g>\n", c->out);
	c->frames++;
	for (size_t i = 0; i < n->nkid; i++) {
		draw(c, n->kid[i], x, depth + 1);
		x += n->kid[i]->count * c->scale;
	}
}

static long render(FILE *out, struct node *root, double before_total,
		   const struct flame_opts *o, int diff)
{
	int width = o->width > 0 ? o->width : 1200;
	int depth = sort_depth(root);
	struct ctx c = { out, 0, o->minwidth, TOP + depth * FRAME_H + BOTTOM,
			 root->count, before_total, 0, diff, 0 };
	svg_begin(out, width, c.height);
	svg_text(out, width / 2.0, 20, "middle", 16, o->title ? o->title : "Flame graph");
	if (o->subtitle)
		svg_text(out, width / 2.0, 38, "middle", 12, o->subtitle);
	if (root->count > 0) {
		c.scale = (width - 2.0 * SIDE) / root->count;
		if (diff)
			maxdelta(&c, root);
		draw(&c, root, SIDE, 0);
	} else {
		svg_text(out, width / 2.0, TOP + 10, "middle", 12, "no samples");
	}
	svg_end(out);
	return c.frames;
}

long flame_svg(FILE *out, const struct folded *f, const struct flame_opts *o)
{
	struct node *root = node_new("all", 3);
	for (size_t i = 0; i < f->n; i++)
		insert(root, f->e[i].stack, f->e[i].count, 0);
	long n = render(out, root, 0, o, 0);
	node_free(root);
	return n;
}

long flame_diff_svg(FILE *out, const struct folded *before, const struct folded *after,
		    const struct flame_opts *o)
{
	struct node *root = node_new("all", 3);
	for (size_t i = 0; i < after->n; i++)
		insert(root, after->e[i].stack, after->e[i].count, 0);
	for (size_t i = 0; i < before->n; i++)
		insert(root, before->e[i].stack, before->e[i].count, 1);
	long n = render(out, root, before->total, o, 1);
	node_free(root);
	return n;
}
