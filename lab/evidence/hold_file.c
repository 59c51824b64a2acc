#include "hold_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void hold_file_write(FILE *f, const struct hold_rec *h, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		fprintf(f, "%" PRId32 " %" PRId32 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			h[i].pid, h[i].cpu, h[i].wait_ns, h[i].acquire_ns, h[i].release_ns);
}

struct hold_rec *hold_file_read(FILE *f, uint64_t *n)
{
	uint64_t cap = 1024;
	struct hold_rec *h = malloc(cap * sizeof(*h));
	char line[256];
	*n = 0;
	while (h && fgets(line, sizeof(line), f)) {
		struct hold_rec r;
		if (sscanf(line, "%" SCNd32 " %" SCNd32 " %" SCNu64 " %" SCNu64 " %" SCNu64,
			   &r.pid, &r.cpu, &r.wait_ns, &r.acquire_ns, &r.release_ns) != 5) {
			free(h);
			return NULL;
		}
		if (*n == cap) {
			cap *= 2;
			struct hold_rec *g = realloc(h, cap * sizeof(*h));
			if (!g) {
				free(h);
				return NULL;
			}
			h = g;
		}
		h[(*n)++] = r;
	}
	return h;
}

int hold_file_dump(const char *prefix, FILE *trace, const struct hold_rec *h, uint64_t n)
{
	static const char *const suffix[2] = { "trace", "holds" };
	int rc = 0;
	for (int k = 0; k < 2; k++) {
		char p[512], buf[65536];
		size_t got;
		snprintf(p, sizeof(p), "%s.%s", prefix, suffix[k]);
		FILE *f = fopen(p, "w");
		if (f && k == 0)
			while ((got = fread(buf, 1, sizeof(buf), trace)) > 0)
				fwrite(buf, 1, got, f);
		else if (f)
			hold_file_write(f, h, n);
		if (!f || (ferror(f) | fclose(f))) {
			fprintf(stderr, "%s: cannot write %s: %s\n", program_invocation_short_name, p,
				strerror(errno));
			rc = -1;
		}
	}
	rewind(trace);
	return rc;
}
