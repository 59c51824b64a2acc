/*
 * A catalog kernel built from source (source: build in kernels/<series>):
 * its recipe for one architecture (kernel_recipe.c) and the config
 * fragment it applies (kernel_fragment.c), for scripts/kernel-build.sh and
 * its kin through build/plan --kernel-build (the scripts only fetch, make
 * and move files).
 */
#ifndef PREEMPTLAB_KERNEL_RECIPE_H
#define PREEMPTLAB_KERNEL_RECIPE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define RECIPE_MAX_FILES 16

struct kernel_recipe {
	char series[96], arch[8], dir[112];	/* dir: series, or series-ARCH */
	bool base_arch;				/* the catalog's unsuffixed keys */
	char base_arch_name[8];
	char suite[64], package[256];		/* the source package, any arch */
	char base[256], target[64], image[64];	/* image: the target's file name */
	char models[256], default_model[32];
	char build_minutes[16], build_steps[16];
	char frag[RECIPE_MAX_FILES][PATH_MAX];
	char patch[RECIPE_MAX_FILES][PATH_MAX];
	int nfrag, npatch;
	char hash[13];
};

/* The recipe of SERIES in catalog DIR for ARCH (refusals exit 1 naming
 * the fix; an unknown series exits 2). */
void recipe_read(const char *dir, const char *arch, const char *series,
		 struct kernel_recipe *r);
/* The catalog's measured 2-core minutes, scaled to NCPU processors. */
long recipe_minutes(const struct kernel_recipe *r, long ncpu);
/* build/plan --kernel-build DIR ARCH SERIES WHAT [ARG] (kernel_recipe.c). */
int recipe_main(const char *dir, const char *arch, const char *series, const char *what,
		const char *arg);

/* One fragment line as scripts/config applies it. */
struct frag_op {
	char op;		/* e (=y), m (=m), d (is not set), v (--set-val) */
	char sym[128];
	char val[256];
};

/* The fragments' operations in order: their count, or -1 with the line
 * that is none in bad. */
int fragment_ops(const struct kernel_recipe *r, struct frag_op *ops, int max, char *bad,
		 size_t badlen);
/* Each symbol's last operation only, in order: the new count. */
int fragment_final(struct frag_op *ops, int n);
/* TEXT (a .config, a Kconfig) has the line LINE, or (whole false) a line
 * that starts with it. */
bool config_has_line(const char *text, const char *line, bool whole);
/* The operations CONFIG (a .config) does not hold, as " SYM=y SYM(unset)
 * ..." in out: how many. */
int fragment_unstuck(const struct frag_op *ops, int n, const char *config, char *out,
		     size_t len);

#endif
