/*
 * A built kernel's recipe (source: build in kernels/<series>) for one
 * architecture, read for scripts/kernel-build.sh, kernel-resolve.sh and
 * kernel-patch-check.sh, which only fetch, patch, make and move files:
 *
 *   build/plan --kernel-build DIR ARCH SERIES recipe   R_ assignments (eval)
 *   ... hash                 the recipe hash
 *   ... ops | final          the fragments' operations, "OP SYMBOL [VALUE]"
 *                            (final: each symbol's last)
 *   ... args                 those as scripts/config's arguments, quoted
 *   ... check TREE           exit 1 naming the options TREE/.config lost
 *   ... models TREE          exit 1 when TREE's config cannot switch models
 *   ... newest CACHE         the newest finished build of this recipe in
 *                            CACHE/build/, or exit 1 saying how to build it
 *
 * The base architecture reads KEY; another reads KEY_<arch> and falls back
 * to KEY (fragments, patches and the source package are shared; base and
 * target are not, which is why another needs its own base_ and target_).
 */
#include <dirent.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel_recipe.h"
#include "model/sha256.h"
#include "plan.h"

static void get(const char *series, const char *key, char *out, size_t len)
{
	if (!catalog_value(".", series, key, out, len))
		out[0] = '\0';
}

/* KEY for ARCH: KEY itself on the base architecture, KEY_<arch> on another. */
static void arch_get(const struct kernel_recipe *r, const char *key, char *out, size_t len)
{
	char k[64];
	snprintf(k, sizeof(k), "%s_%s", key, r->arch);
	get(r->series, r->base_arch ? key : k, out, len);
}

/* KEY for ARCH, falling back to KEY. */
static void recipe_get(const struct kernel_recipe *r, const char *key, char *out, size_t len)
{
	arch_get(r, key, out, len);
	if (!out[0])
		get(r->series, key, out, len);
}

static bool arch_ok(const char *series, const char *arch)
{
	char k[64], v[256];
	snprintf(k, sizeof(k), "base_%s", arch);
	if (!catalog_value(".", series, k, v, sizeof(v)))
		return false;
	snprintf(k, sizeof(k), "target_%s", arch);
	return catalog_value(".", series, k, v, sizeof(v));
}

/* The built series with a recipe for ARCH, each followed by a blank. */
static void arch_series(const struct kernel_recipe *r, char *out, size_t len)
{
	char known[1024], src[16], *save = NULL;
	size_t used = 0;
	catalog_known(".", known, sizeof(known));
	out[0] = '\0';
	for (char *s = strtok_r(known, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
		get(s, "source", src, sizeof(src));
		if (!strcmp(src, "build") && (r->base_arch || arch_ok(s, r->arch)) && used < len)
			used += (size_t)snprintf(out + used, len - used, "%s ", s);
	}
}

static bool regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .patch files of kernels/patches/ by name, each followed by a blank. */
static void known_patches(const char *dir, char *out, size_t len)
{
	char path[PATH_MAX], *names[64];
	int n = 0;
	size_t used = 0;
	snprintf(path, sizeof(path), "%s/patches", dir);
	DIR *d = opendir(path);
	for (struct dirent *e; d && (e = readdir(d)) && n < 64;) {
		size_t l = strlen(e->d_name);
		if (l > 6 && !strcmp(e->d_name + l - 6, ".patch"))
			names[n++] = strdup(e->d_name);
	}
	if (d)
		closedir(d);
	qsort(names, (size_t)n, sizeof(*names), by_name);
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (used < len)
			used += (size_t)snprintf(out + used, len - used, "%s ", names[i]);
		free(names[i]);
	}
}

/* The files named by a recipe key, as DIR/NAME paths. */
static int recipe_files(const char *dir, const char *list, char out[][PATH_MAX],
			const char *series, const char *what)
{
	char copy[1024], *save = NULL, known[1024] = "";
	int n = 0;
	snprintf(copy, sizeof(copy), "%s", list);
	for (char *f = strtok_r(copy, " \t", &save); f; f = strtok_r(NULL, " \t", &save)) {
		if (n == RECIPE_MAX_FILES)
			plan_fail("kernels/%s names more than %d %ss", series, RECIPE_MAX_FILES, what);
		snprintf(out[n], PATH_MAX, "%s/%s", dir, f);
		if (regular(out[n])) {
			n++;
			continue;
		}
		if (!strcmp(what, "fragment"))
			plan_fail("kernels/%s names fragment %s, which is not in kernels/", series, f);
		known_patches(dir, known, sizeof(known));
		plan_fail("kernels/%s names patch %s, which is not in kernels/ (known: %s)", series, f, known);
	}
	return n;
}

static void hash_file(struct sha256 *h, const char *path, bool from_diff)
{
	FILE *f = fopen(path, "r");
	char line[8192];
	bool on = !from_diff, bol = true;
	if (!f)
		plan_fail("cannot read %s", path);
	while (fgets(line, sizeof(line), f)) {
		if (bol && !strncmp(line, "diff ", 5))
			on = true;
		if (on)
			sha256_update(h, line, strlen(line));
		bol = strchr(line, '\n') != NULL;
	}
	fclose(f);
	if (!on)
		plan_fail("%s has no 'diff ' line: a recipe hashes each patch from its first diff", path);
}

static void hash_text(struct sha256 *h, const char *key, const char *val)
{
	sha256_update(h, key, strlen(key));
	sha256_update(h, ": ", 2);
	sha256_update(h, val, strlen(val));
	sha256_update(h, "\n", 1);
}

/* 12 hex digits over everything that shapes the source, the config and the
 * image: the patches' diffs in order, the base targets, the build target
 * and the fragments' text.  Another architecture's adds its name first, so
 * that the base's hash (and cached build) stays what it was. */
static void recipe_hash(struct kernel_recipe *r)
{
	struct sha256 h;
	char hex[65], target[64];
	sha256_init(&h);
	if (!r->base_arch)
		hash_text(&h, "arch", r->arch);
	for (int i = 0; i < r->npatch; i++) {
		const char *name = strrchr(r->patch[i], '/') + 1;
		hash_text(&h, "patch", name);
		/* A patch counts from its first diff: its cover letter is
		 * prose, and rewording it must not cost a rebuild. */
		hash_file(&h, r->patch[i], true);
	}
	hash_text(&h, "base", r->base);
	recipe_get(r, "target", target, sizeof(target));
	hash_text(&h, "target", target);
	for (int i = 0; i < r->nfrag; i++)
		hash_file(&h, r->frag[i], false);
	sha256_hex(&h, hex);
	snprintf(r->hash, sizeof(r->hash), "%.12s", hex);
}

void recipe_read(const char *dir, const char *arch, const char *series,
		 struct kernel_recipe *r)
{
	char path[PATH_MAX], src[16], list[1024];
	const struct arch *a = arch_find(arch);
	memset(r, 0, sizeof(*r));
	catalog_set_dir(dir);
	snprintf(path, sizeof(path), "%s/%s", dir, series);
	/* A series name is a file name in DIR, never a path out of it. */
	if (strchr(series, '/') || series[0] == '.' || !regular(path)) {
		catalog_known(".", list, sizeof(list));
		fprintf(stderr, "preemptlab: unknown kernel '%s'; known: %s (a series, an exact "
			"version such as 7.0.13, or a path to a bzImage)\n", series, list);
		exit(2);
	}
	if (!a)
		plan_die("ARCH=%s: unknown architecture; use %s", arch, arch_names());
	snprintf(r->series, sizeof(r->series), "%s", series);
	snprintf(r->arch, sizeof(r->arch), "%s", a->name);
	r->base_arch = a->catalog_base;
	for (size_t i = 0; arch_at(i); i++)
		if (arch_at(i)->catalog_base)
			snprintf(r->base_arch_name, sizeof(r->base_arch_name), "%s", arch_at(i)->name);
	/* Another architecture's build has a directory of its own,
	 * build/<series>-arm64/: the base's stays where it was. */
	snprintf(r->dir, sizeof(r->dir), "%s%s%s", series, r->base_arch ? "" : "-",
		 r->base_arch ? "" : r->arch);
	get(series, "source", src, sizeof(src));
	if (strcmp(src, "build"))
		plan_fail("kernels/%s is not built from source (source: %s); make kernel KERNEL=%s "
		     "fetches it", series, src, series);
	/* amd64's defconfig and bzImage mean nothing on another architecture. */
	if (!r->base_arch && !arch_ok(series, r->arch)) {
		arch_series(r, list, sizeof(list));
		plan_fail("kernel %s is built from source and kernels/%s has no %s recipe (base_%s:, "
		     "target_%s:); %s takes a Debian package series or one of the built series "
		     "that have one: %s", series, series, r->arch, r->arch, r->arch, r->arch, list);
	}
	get(series, "suite", r->suite, sizeof(r->suite));
	get(series, "package", r->package, sizeof(r->package));
	recipe_get(r, "base", r->base, sizeof(r->base));
	recipe_get(r, "target", r->target, sizeof(r->target));
	if (!r->target[0])
		snprintf(r->target, sizeof(r->target), "%s", a->kernel_image);
	const char *slash = strrchr(r->target, '/');
	snprintf(r->image, sizeof(r->image), "%s", slash ? slash + 1 : r->target);
	recipe_get(r, "models", r->models, sizeof(r->models));
	recipe_get(r, "default", r->default_model, sizeof(r->default_model));
	recipe_get(r, "build_minutes", r->build_minutes, sizeof(r->build_minutes));
	/* The step count is the architecture's own (another's would mislead). */
	arch_get(r, "build_steps", r->build_steps, sizeof(r->build_steps));
	/* A recipe may combine several fragments, applied in order. */
	recipe_get(r, "fragment", list, sizeof(list));
	r->nfrag = recipe_files(dir, list, r->frag, series, "fragment");
	get(series, "patches", list, sizeof(list));
	r->npatch = recipe_files(dir, list, r->patch, series, "patch");
	recipe_hash(r);
}

long recipe_minutes(const struct kernel_recipe *r, long ncpu)
{
	const char *m = r->build_minutes;
	long minutes = *m && !m[strspn(m, "0123456789")] ? atol(m) : 60;
	return (minutes * 2 + ncpu - 1) / ncpu;
}

static long ncpu(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

/* VAL single-quoted for the shell's eval. */
static void quote(const char *val)
{
	putchar('\'');
	for (const char *p = val; *p; p++)
		if (*p == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*p);
	putchar('\'');
}

static void assign(const char *name, const char *val)
{
	printf("%s=", name);
	quote(val);
	putchar('\n');
}

/* A whole file, NUL-terminated (NULL when it cannot be read). */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL, buf[8192];
	size_t len = 0, got;
	FILE *out = f ? open_memstream(&text, &len) : NULL;
	while (out && (got = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, got, out);
	if (f)
		fclose(f);
	if (out)
		fclose(out);
	return text;
}

static void join(char *out, size_t len, const char (*files)[PATH_MAX], int n, bool base,
		 const char *sep)
{
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < n && used < len; i++) {
		const char *f = base ? strrchr(files[i], '/') + 1 : files[i];
		used += (size_t)snprintf(out + used, len - used, "%s%s", i && !*sep ? " " : "", f);
		if (*sep && used < len)
			used += (size_t)snprintf(out + used, len - used, "%s", sep);
	}
}

static void print_recipe(const struct kernel_recipe *r)
{
	char frags[4096], patches[4096], note[4096], names[2048], num[32];
	join(frags, sizeof(frags), r->frag, r->nfrag, false, "");
	join(patches, sizeof(patches), r->patch, r->npatch, false, "");
	/* What "configuring ..." says after the source package. */
	join(names, sizeof(names), r->patch, r->npatch, true, " ");
	int used = snprintf(note, sizeof(note), "%s%s: make %s, then ", r->npatch ? " + " : "",
			    names, r->base);
	join(names, sizeof(names), r->frag, r->nfrag, true, " ");
	snprintf(note + used, sizeof(note) - (size_t)used, "%sthen olddefconfig",
		 r->nfrag ? names : "none ");
	const char *rows[][2] = {
		{ "R_DIR", r->dir }, { "R_BASE_ARCH", r->base_arch_name }, { "R_SUITE", r->suite },
		{ "R_PACKAGE", r->package }, { "R_BASE", r->base }, { "R_TARGET", r->target },
		{ "R_IMAGE", r->image }, { "R_FRAGMENTS", frags }, { "R_PATCHES", patches },
		{ "R_HASH", r->hash }, { "R_BUILD_MINUTES", r->build_minutes },
		{ "R_STEPS", r->build_steps }, { "R_MODELS", r->models },
		{ "R_DEFAULT", r->default_model }, { "R_CONFIG_NOTE", note },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assign(rows[i][0], rows[i][1]);
	snprintf(num, sizeof(num), "%ld", recipe_minutes(r, ncpu()));
	assign("R_MINUTES", num);
}

/* A built series of several models must let the runner set and read back
 * a model (debugfs sched/preempt): PREEMPT_DYNAMIC and, in a source that
 * still has the symbol (before 6.15), SCHED_DEBUG, which that file needed;
 * 6.12's defconfig leaves it out, so such an image boots every model on
 * its command line but none can be checked. */
static void models_checkable(const struct kernel_recipe *r, const char *config,
			     const char *tree)
{
	char path[PATH_MAX], *kconfig, copy[256], *save = NULL;
	int words = 0;
	snprintf(copy, sizeof(copy), "%s", r->models);
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		words++;
	if (words < 2)
		return;
	if (!config_has_line(config, "CONFIG_PREEMPT_DYNAMIC=y", true))
		plan_fail("kernels/%s lists the models %s, but its config has no PREEMPT_DYNAMIC",
		     r->series, r->models);
	snprintf(path, sizeof(path), "%s/lib/Kconfig.debug", tree);
	kconfig = read_text(path);
	bool symbol = config_has_line(kconfig, "config SCHED_DEBUG", true);
	free(kconfig);
	if (symbol && !config_has_line(config, "CONFIG_SCHED_DEBUG=y", true))
		plan_fail("kernels/%s lists the models %s, but its config has no SCHED_DEBUG, without "
		     "which this source has no debugfs sched/preempt to switch or check a model: "
		     "add CONFIG_SCHED_DEBUG=y to a fragment", r->series, r->models);
}

static int by_version_desc(const void *a, const void *b)
{
	return strverscmp(*(char *const *)b, *(char *const *)a);
}

/* The newest finished build of the recipe (its source version newest), or
 * the error for a series nobody built yet, naming older recipes' builds. */
static int newest(const struct kernel_recipe *r, const char *cache)
{
	char root[PATH_MAX], path[PATH_MAX * 2], other[4096] = "", *names[256];
	int n = 0;
	size_t used = 0, hl = strlen(r->hash);
	snprintf(root, sizeof(root), "%s/build/%s", cache, r->dir);
	DIR *d = opendir(root);
	for (struct dirent *e; d && (e = readdir(d)) && n < 256;) {
		snprintf(path, sizeof(path), "%s/%s/resolved", root, e->d_name);
		if (e->d_name[0] != '.' && regular(path))
			names[n++] = strdup(e->d_name);
	}
	if (d)
		closedir(d);
	qsort(names, (size_t)n, sizeof(*names), by_version_desc);
	int found = -1;
	for (int i = 0; i < n && found < 0; i++) {
		size_t l = strlen(names[i]);
		if (l > hl + 1 && names[i][l - hl - 1] == '-' && !strcmp(names[i] + l - hl, r->hash))
			found = i;
	}
	if (found >= 0)
		printf("%s/%s\n", root, names[found]);
	qsort(names, (size_t)n, sizeof(*names), by_name);
	for (int i = 0; i < n; i++) {
		if (used < sizeof(other))
			used += (size_t)snprintf(other + used, sizeof(other) - used, " %s", names[i]);
		free(names[i]);
	}
	if (found >= 0)
		return 0;
	fprintf(stderr, "preemptlab: kernel %s is not built; `make kernel KERNEL=%s` builds it in "
		"~%ld min", r->series, r->series, recipe_minutes(r, ncpu()));
	if (n)
		fprintf(stderr, " (the cache holds builds of an older recipe:%s; kernels/%s, its "
			"fragments or patches changed since)", other, r->series);
	fputc('\n', stderr);
	return 1;
}

/* The fragments' operations (each symbol's last when FINAL), or exit 1
 * naming the line that is none, and the fragments as the build lists
 * them (each followed by a blank) in frags. */
static int read_ops(const struct kernel_recipe *r, struct frag_op *ops, int max, bool final,
		    char *frags, size_t len)
{
	char bad[4096];
	join(frags, len, r->frag, r->nfrag, false, " ");
	int n = fragment_ops(r, ops, max, bad, sizeof(bad));
	if (n < 0)
		plan_fail("%s: cannot read '%s' (use CONFIG_X=y|m|value or '# CONFIG_X is not set')",
		     frags, bad);
	return final ? fragment_final(ops, n) : n;
}

/* The operations as "OP SYMBOL [VALUE]" lines, or (ARGS) as scripts/config's
 * arguments on one line, quoted for the shell's eval. */
static void print_ops(const struct frag_op *ops, int n, bool args)
{
	static const char *flag[] = { ['e'] = "-e", ['m'] = "-m", ['d'] = "-d", ['v'] = "--set-val" };
	for (int i = 0; i < n; i++) {
		bool v = ops[i].op == 'v';
		if (!args) {
			printf("%c %s%s%s\n", ops[i].op, ops[i].sym, v ? " " : "", ops[i].val);
			continue;
		}
		printf("%s%s ", i ? " " : "", flag[(int)ops[i].op]);
		quote(ops[i].sym);
		if (v)
			putchar(' '), quote(ops[i].val);
	}
	if (args && n)
		putchar('\n');
}

/* TREE/.config after olddefconfig: every fragment option stuck, and the
 * models the recipe lists can be switched and checked. */
static void check_tree(const struct kernel_recipe *r, const char *tree, bool models)
{
	static struct frag_op ops[1024];
	char path[PATH_MAX], frags[4096], bad[4096], *config;
	snprintf(path, sizeof(path), "%s/.config", tree);
	if (!(config = read_text(path)))
		plan_fail("cannot read %s", path);
	if (models)
		models_checkable(r, config, tree);
	/* olddefconfig drops an option whose dependencies are missing without
	 * a word: refuse a kernel that lacks what was asked. */
	else if (fragment_unstuck(ops, read_ops(r, ops, 1024, true, frags, sizeof(frags)), config,
				  bad, sizeof(bad)))
		plan_fail("%s: these options did not survive olddefconfig (missing dependencies?):%s",
		     frags, bad);
	free(config);
}

int recipe_main(const char *dir, const char *arch, const char *series, const char *what,
		const char *arg)
{
	static struct kernel_recipe r;
	static struct frag_op ops[1024];
	char frags[4096];
	bool tree = !strcmp(what, "check") || !strcmp(what, "models");
	bool bare = !strcmp(what, "recipe") || !strcmp(what, "hash") || !strcmp(what, "ops") ||
		    !strcmp(what, "final") || !strcmp(what, "args");
	if (arg ? !tree && strcmp(what, "newest") : !bare) {
		fprintf(stderr, "preemptlab: --kernel-build: %s%s%s: use recipe, hash, ops, final, "
			"args, check TREE, models TREE or newest CACHE\n", what, arg ? " " : "",
			arg ? arg : "");
		return 2;
	}
	recipe_read(dir, arch, series, &r);
	if (!strcmp(what, "recipe"))
		print_recipe(&r);
	else if (!strcmp(what, "hash"))
		puts(r.hash);
	else if (!strcmp(what, "newest"))
		return newest(&r, arg);
	else if (tree)
		check_tree(&r, arg, !strcmp(what, "models"));
	else
		print_ops(ops, read_ops(&r, ops, 1024, !strcmp(what, "final"), frags, sizeof(frags)),
			  !strcmp(what, "args"));
	return 0;
}
