#include "svg.h"

#include <math.h>
#include <string.h>

void svg_begin(FILE *f, int width, int height)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		   "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		   "font-family=\"Verdana, DejaVu Sans, sans-serif\">\n"
		   "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
		width, height, width, height, width, height);
}

void svg_end(FILE *f)
{
	fprintf(f, "</svg>\n");
}

void svg_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* The micro sign of the lab's own unit labels, as an entity. */
			if (c == 0xc2 && (unsigned char)s[1] == 0xb5) {
				fputs("&#181;", f);
				s++;
				break;
			}
			fputc(c < 0x20 || c >= 0x7f ? '?' : c, f);
		}
	}
}

void svg_text(FILE *f, double x, double y, const char *anchor, int size, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", x, y,
		anchor, size);
	svg_escape(f, s);
	fputs("</text>\n", f);
}

/* Okabe-Ito, black first and yellow last (weakest on white). */
static const char *const okabe_ito[] = { "#000000", "#E69F00", "#0072B2", "#009E73",
					 "#D55E00", "#56B4E9", "#CC79A7", "#F0E442" };
static const char *const dashes[] = { "", "6,3", "2,2", "8,3,2,3", "12,4", "4,4,1,4" };

const char *svg_colour(size_t i)
{
	return okabe_ito[i % (sizeof(okabe_ito) / sizeof(okabe_ito[0]))];
}

const char *svg_dash(size_t i)
{
	return dashes[i % (sizeof(dashes) / sizeof(dashes[0]))];
}

void svg_marker(FILE *f, size_t i, double x, double y, double r, const char *colour, int filled)
{
	const char *fill = filled ? colour : "#ffffff";
	switch (i % 5) {
	case 0:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", x, y, r);
		break;
	case 1:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x - r, y - r,
			2 * r, 2 * r);
		break;
	case 2:
		fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - 1.2 * r,
			x + 1.1 * r, y + r, x - 1.1 * r, y + r);
		break;
	case 3:
		fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - 1.3 * r,
			x + 1.3 * r, y, x, y + 1.3 * r, x - 1.3 * r, y);
		break;
	default:
		fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y + 1.2 * r,
			x + 1.1 * r, y - r, x - 1.1 * r, y - r);
	}
	fprintf(f, " fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", fill, colour);
}

double svg_text_width(const char *s, int size)
{
	/* Verdana's average advance is about 0.62 em; wider is safer. */
	return 0.64 * size * (double)strlen(s);
}

double svg_nice_max(double v)
{
	if (v <= 0)
		return 1;
	double p = pow(10, floor(log10(v)));
	for (int i = 0; i < 3; i++) {
		double m = (double[]){ 1, 2, 5 }[i] * p;
		if (m >= v)
			return m;
	}
	return 10 * p;
}
