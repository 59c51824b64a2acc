/*
 * SHA-256 (FIPS 180-4) of a file, for build/model: a calibration made from
 * runs of a tree with uncommitted changes records the hash of the diff the
 * runner saved (logs/lab-dirty.patch), so that the inputs name the code
 * that measured them.  Header-only, and shared: the predictions written
 * before a run checksum their inputs with it (prerun.c), build/plan a
 * built kernel's recipe (lab/plan/kernel_recipe.c), build/channel each
 * block a guest sends (lab/channel/deliver.c).
 */
#ifndef PREEMPTLAB_MODEL_SHA256_H
#define PREEMPTLAB_MODEL_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;
	unsigned char buf[64];
	size_t nbuf;
};

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t sha256_ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static inline void sha256_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a[8];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = sha256_ror(w[i - 15], 7) ^ sha256_ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = sha256_ror(w[i - 2], 17) ^ sha256_ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(a, s->h, sizeof(a));
	for (int i = 0; i < 64; i++) {
		uint32_t e = a[4];
		uint32_t t1 = a[7] + (sha256_ror(e, 6) ^ sha256_ror(e, 11) ^ sha256_ror(e, 25)) +
			      ((e & a[5]) ^ (~e & a[6])) + sha256_k[i] + w[i];
		uint32_t t2 = (sha256_ror(a[0], 2) ^ sha256_ror(a[0], 13) ^ sha256_ror(a[0], 22)) +
			      ((a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]));
		memmove(a + 1, a, 7 * sizeof(a[0]));
		a[4] += t1;
		a[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		s->h[i] += a[i];
}

static inline void sha256_init(struct sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	memcpy(s->h, h0, sizeof(h0));
	s->bytes = 0;
	s->nbuf = 0;
}

static inline void sha256_update(struct sha256 *s, const void *data, size_t n)
{
	const unsigned char *p = data;
	s->bytes += n;
	while (n > 0) {
		size_t take = 64 - s->nbuf < n ? 64 - s->nbuf : n;
		memcpy(s->buf + s->nbuf, p, take);
		s->nbuf += take;
		p += take;
		n -= take;
		if (s->nbuf == 64) {
			sha256_block(s, s->buf);
			s->nbuf = 0;
		}
	}
}

/* The digest as 64 lower-case hex digits and a NUL. */
static inline void sha256_hex(struct sha256 *s, char out[65])
{
	uint64_t bits = s->bytes * 8;
	unsigned char pad = 0x80, len[8];
	sha256_update(s, &pad, 1);
	pad = 0;
	while (s->nbuf != 56)
		sha256_update(s, &pad, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(s, len, 8);
	for (int i = 0; i < 8; i++)
		snprintf(out + 8 * i, 9, "%08x", (unsigned)s->h[i]);
}

/* 0 and the file's hash in out, or -1 when it cannot be read. */
static inline int sha256_file(const char *path, char out[65])
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	struct sha256 s;
	unsigned char buf[8192];
	size_t n;
	sha256_init(&s);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(&s, buf, n);
	int bad = ferror(f);
	fclose(f);
	if (bad)
		return -1;
	sha256_hex(&s, out);
	return 0;
}

#endif
