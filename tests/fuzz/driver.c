/*
 * Where clang's libFuzzer cannot be had: a deterministic mutation driver
 * for the same targets, built with ASan and UBSan by gcc.  It runs the
 * target over every seed, then over mutations of them (bit flips, bytes
 * that matter to the readers, insertions, deletions, repeats and splices,
 * from a fixed xorshift seed, so a failure reruns the same way) until the
 * time is up.  Usage: driver SECONDS SEED_FILE...
 * FUZZ_CRASH_FILE: where the input in hand goes when a sanitizer ends the
 * run (a leak is found at exit: then it is only the last input).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sanitizer/common_interface_defs.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_LEN 65536

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const uint8_t *cur;
static size_t cur_n;

static void keep_input(void)
{
	const char *path = getenv("FUZZ_CRASH_FILE");
	FILE *f = path && cur ? fopen(path, "wb") : NULL;
	if (f) {
		fwrite(cur, 1, cur_n, f);
		fclose(f);
	}
}

/* Every input goes through here, so the one in hand is known. */
static void run_one(const uint8_t *b, size_t n)
{
	cur = b, cur_n = n;
	LLVMFuzzerTestOneInput(b, n);
}

struct seed {
	uint8_t *b;
	size_t n;
};

static void mutate(uint8_t *b, size_t *n, const struct seed *s, size_t ns)
{
	static const uint8_t special[] = { 0, 0xff, 0x1b, '\n', '\t', ' ', ';', ':', '"', '\\',
					   '{', '}', '[', ']', ',', '9', '-', '.', 'e', 0xc3, 0xa9 };
	size_t at = *n ? next() % *n : 0, len = 1 + next() % 16;
	switch (next() % 6) {
	case 0:
		if (*n)
			b[at] ^= (uint8_t)(1u << (next() % 8));
		break;
	case 1:
		if (*n)
			b[at] = special[next() % sizeof(special)];
		break;
	case 2:
		if (*n < MAX_LEN) {
			memmove(b + at + 1, b + at, *n - at);
			b[at] = special[next() % sizeof(special)];
			(*n)++;
		}
		break;
	case 3:
		if (at + len <= *n) {
			memmove(b + at, b + at + len, *n - at - len);
			*n -= len;
		}
		break;
	case 4:
		if (at + len <= *n && *n + len <= MAX_LEN) {
			memmove(b + at + len, b + at, *n - at);
			*n += len;
		}
		break;
	default: {
		const struct seed *o = &s[next() % ns];
		size_t from = o->n ? next() % o->n : 0, k = o->n - from < len ? o->n - from : len;
		if (*n + k <= MAX_LEN) {
			memmove(b + at + k, b + at, *n - at);
			memcpy(b + at, o->b + from, k);
			*n += k;
		}
	}
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s SECONDS SEED_FILE...\n", argv[0]);
		return 2;
	}
	double secs = atof(argv[1]);
	__sanitizer_set_death_callback(keep_input);
	size_t ns = 0;
	struct seed *s = calloc((size_t)argc, sizeof(*s));
	for (int i = 2; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f)
			continue;
		s[ns].b = malloc(MAX_LEN);
		s[ns].n = fread(s[ns].b, 1, MAX_LEN, f);
		fclose(f);
		run_one(s[ns].b, s[ns].n);
		ns++;
	}
	if (!ns) {
		fprintf(stderr, "%s: no seed could be read\n", argv[0]);
		return 2;
	}
	uint8_t *b = malloc(2 * MAX_LEN);
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long runs = 0;
	do {
		for (int k = 0; k < 256; k++, runs++) {
			const struct seed *o = &s[next() % ns];
			size_t n = o->n;
			memcpy(b, o->b, n);
			for (int m = 1 + (int)(next() % 8); m > 0; m--)
				mutate(b, &n, s, ns);
			run_one(b, n);
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	printf("driver: %ld inputs from %zu seeds in %.0f s, no sanitizer report\n", runs, ns, secs);
	for (size_t i = 0; i < ns; i++)
		free(s[i].b);
	free(s);
	free(b);
	return 0;
}
