#include "svg.h"

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
