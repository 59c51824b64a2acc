#include "hold_file.h"

#include <inttypes.h>
#include <stdlib.h>

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
