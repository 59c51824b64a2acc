/*
 * pngcount FILE.png: prints "WIDTH HEIGHT INK", INK being the pixels that
 * differ from the top-left one (the page's background), so a test can
 * tell a rendered chart from a blank screenshot.  Reads the 8-bit RGB and
 * RGBA PNGs Chromium writes; anything else is refused with exit 2.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: pngcount FILE.png\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	unsigned char sig[8], hdr[8];
	if (fread(sig, 1, 8, f) != 8 || memcmp(sig, "\x89PNG\r\n\x1a\n", 8)) {
		fprintf(stderr, "pngcount: %s is not a PNG\n", argv[1]);
		return 2;
	}
	uint32_t w = 0, h = 0;
	int bpp = 0;
	unsigned char *idat = NULL;
	size_t nidat = 0;
	while (fread(hdr, 1, 8, f) == 8) {
		uint32_t len = be32(hdr);
		unsigned char *d = malloc(len + 4);
		if (!d || fread(d, 1, len + 4, f) != len + 4) {
			fprintf(stderr, "pngcount: %s is truncated\n", argv[1]);
			return 2;
		}
		if (!memcmp(hdr + 4, "IHDR", 4)) {
			w = be32(d);
			h = be32(d + 4);
			if (d[8] != 8 || (d[9] != 2 && d[9] != 6) || d[12]) {
				fprintf(stderr, "pngcount: only 8-bit RGB/RGBA, not interlaced\n");
				return 2;
			}
			bpp = d[9] == 6 ? 4 : 3;
		} else if (!memcmp(hdr + 4, "IDAT", 4)) {
			idat = realloc(idat, nidat + len);
			if (!idat)
				return 2;
			memcpy(idat + nidat, d, len);
			nidat += len;
		}
		free(d);
	}
	fclose(f);
	if (!bpp || !w || !h || w > 20000 || h > 40000)
		return 2;
	size_t stride = (size_t)w * bpp;
	uLongf rawlen = (uLongf)((stride + 1) * h);
	unsigned char *raw = malloc(rawlen);
	if (!raw || uncompress(raw, &rawlen, idat, nidat) != Z_OK || rawlen != (stride + 1) * h) {
		fprintf(stderr, "pngcount: %s: bad image data\n", argv[1]);
		return 2;
	}
	unsigned char *prev = calloc(stride, 1), *bg = NULL;
	unsigned long ink = 0;
	for (uint32_t y = 0; y < h; y++) {
		unsigned char *row = raw + y * (stride + 1), *px = row + 1;
		for (size_t i = 0; i < stride; i++) {
			int a = i >= (size_t)bpp ? px[i - bpp] : 0, b = prev[i],
			    c = i >= (size_t)bpp ? prev[i - bpp] : 0;
			switch (row[0]) {
			case 1: px[i] += a; break;
			case 2: px[i] += b; break;
			case 3: px[i] += (a + b) / 2; break;
			case 4: px[i] += paeth(a, b, c); break;
			}
		}
		if (!bg)
			bg = px;
		for (uint32_t x = 0; x < w; x++)
			ink += memcmp(px + x * bpp, bg, 3) != 0;
		prev = px;
	}
	printf("%u %u %lu\n", w, h, ink);
	return 0;
}
