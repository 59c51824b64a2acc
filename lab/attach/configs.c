/* Kernel config excerpts: what of a config matters to this regression (attach.h). */
#include "attach.h"

#include <stdlib.h>
#include <string.h>

/* The options, set or "# ... is not set", that an excerpt keeps: the
 * preemption model, the tick, rseq, the scheduler, huge pages, NUMA and
 * the guest's paravirtualisation, and which kernel and compiler. */
static const char *const kept[] = {
	"PREEMPT", "HZ", "NO_HZ", "RSEQ", "SCHED_", "TRANSPARENT_HUGEPAGE", "HUGETLB", "NUMA",
	"KVM_GUEST", "PARAVIRT", "LOCALVERSION", "CC_VERSION_TEXT",
};

bool attach_excerpt_line(const char *line)
{
	if (!strncmp(line, "# ", 2))
		line += 2;
	if (strncmp(line, "CONFIG_", 7))
		return false;
	line += 7;
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		if (!strncmp(line, kept[i], strlen(kept[i])))
			return true;
	return false;
}

int attach_write_excerpt(const char *path, const char *out)
{
	/* Written even when PATH cannot be read: an empty excerpt says so. */
	FILE *o = fopen(out, "w");
	if (!o)
		return -1;
	FILE *in = fopen(path, "r");
	if (!in) {
		fclose(o);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, in)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (attach_excerpt_line(line))
			fprintf(o, "%s\n", line);
	}
	free(line);
	int bad = ferror(in);
	fclose(in);
	return fclose(o) || bad ? -1 : 0;
}

char *attach_config_base(const char *path)
{
	char *dir = strdup(path);
	if (!dir)
		return NULL;
	/* basename(1) of dirname(1): "." for a bare name; "" in the root,
	 * where the shell's "$st/kernel-configs//-config" was "-config". */
	const char *d = ".";
	char *slash = strrchr(dir, '/');
	if (slash) {
		while (slash > dir && slash[-1] == '/')
			slash--;
		*slash = '\0';
		d = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	}
	size_t n = strlen(d) + strlen(attach_base(path)) + 2;
	char *base = malloc(n);
	if (base)
		snprintf(base, n, "%s-%s", d, attach_base(path));
	free(dir);
	return base;
}

/* A release is a document's word: one that is not a plain file name (a
 * path, a glob) names no config of this host. */
bool attach_release_ok(const char *rel)
{
	if (!rel[0] || rel[0] == '.')
		return false;
	return strspn(rel, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+~-") ==
	       strlen(rel);
}
