/*
 * The kernel catalog read in C: kernels/<series> holds "key: value" lines
 * (description, source, models, default, ...).  The planner needs only what
 * a series is called and which models it accepts, so a misspelt kernel or
 * model is refused before scripts/kernel-resolve.sh fetches anything.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plan.h"
#include "vocab.h"

/* Another catalog than TOP/kernels (a test's copy; build/plan --catalog-get). */
static const char *catalog_dir;
void catalog_set_dir(const char *dir)
{
	catalog_dir = dir;
}

static void catalog_path(const char *top, const char *name, char *out, size_t len)
{
	if (catalog_dir)
		snprintf(out, len, "%s%s%s", catalog_dir, *name ? "/" : "", name);
	else
		snprintf(out, len, "%s/kernels%s%s", top, *name ? "/" : "", name);
}

/* The first "KEY: value" line's value, blanks around it dropped (the
 * scripts read the catalog through this too: build/plan --catalog-get). */
static bool catalog_get(const char *top, const char *series, const char *key, char *out,
			size_t len)
{
	char path[1024], line[512];
	catalog_path(top, series, path, sizeof(path));
	FILE *f = fopen(path, "r");
	size_t klen = strlen(key);
	bool found = false;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			char *v = line + klen + 1;
			v += strspn(v, " \t");
			v[strcspn(v, "\r\n")] = '\0';
			for (size_t e = strlen(v); e > 0 && (v[e - 1] == ' ' || v[e - 1] == '\t');)
				v[--e] = '\0';
			snprintf(out, len, "%s", v);
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}

bool catalog_value(const char *top, const char *series, const char *key, char *out, size_t len)
{
	return catalog_get(top, series, key, out, len) && out[0];
}

static int by_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* The series names: catalog files with a source: line. */
static int catalog_list(const char *top, char **names, int max)
{
	char dir[1024], val[64];
	catalog_path(top, "", dir, sizeof(dir));
	DIR *d = opendir(dir);
	int n = 0;
	if (!d)
		plan_die("no kernel catalog at %s", dir);
	for (struct dirent *e; (e = readdir(d)) && n < max;) {
		if (e->d_name[0] == '.')
			continue;
		char path[1400];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (catalog_get(top, e->d_name, "source", val, sizeof(val)))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(*names), by_version);
	return n;
}

/* The series names, one a line (build/plan --catalog-series). */
void catalog_print_series(const char *top)
{
	char *names[64];
	int n = catalog_list(top, names, 64);
	for (int i = 0; i < n; i++) {
		printf("%s\n", names[i]);
		free(names[i]);
	}
}

void catalog_known(const char *top, char *buf, size_t len)
{
	char *names[64];
	int n = catalog_list(top, names, 64);
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", names[i]);
		free(names[i]);
	}
}

/* ARCH: another architecture's build may offer other models (models_arm64:). */
static char catalog_arch[8] = "amd64";
void catalog_set_arch(const char *arch)
{
	snprintf(catalog_arch, sizeof(catalog_arch), "%.7s", arch);
}

static void set_models(struct kernel_ref *k, const char *top, const char *series)
{
	char models[256] = "", def[32] = "", key[32];
	catalog_get(top, series, "models", models, sizeof(models));
	catalog_get(top, series, "default", def, sizeof(def));
	snprintf(key, sizeof(key), "models_%s", catalog_arch);
	if (!arch_find(catalog_arch)->catalog_base &&
	    catalog_value(top, series, key, models, sizeof(models))) {
		snprintf(key, sizeof(key), "default_%s", catalog_arch);
		catalog_get(top, series, key, def, sizeof(def));
	}
	k->models.n = 0;
	if (models[0])
		list_split(&k->models, "models", models);
	for (int i = 0; i < k->models.n; i++)
		if (!vocab_find(&vocab_models, k->models.item[i], NULL))
			plan_die("kernels/%s lists model '%s', which the lab does not know", series,
				 k->models.item[i]);
	/* A catalog's word, not a model of the vocabulary, if it does not fit. */
	if (strlen(def) >= sizeof(k->default_model))
		plan_die("kernels/%s: default model '%s' is no model the lab knows", series, def);
	memcpy(k->default_model, def, strlen(def) + 1);
}

void catalog_resolve(const char *top, const char *asked, const char *var, struct kernel_ref *k)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->asked, sizeof(k->asked), "%s", asked);
	/* A user's image: anything that looks like a path. */
	if (strchr(asked, '/') || strncmp(asked, "bzImage", 7) == 0 ||
	    strncmp(asked, "vmlinuz", 7) == 0) {
		struct stat st;
		if (stat(asked, &st) != 0 || !S_ISREG(st.st_mode))
			plan_die("%s=%s: no kernel image there (give an existing bzImage or vmlinuz)",
				 var, asked);
		const char *base = strrchr(asked, '/');
		snprintf(k->label, sizeof(k->label), "%s", base ? base + 1 : asked);
		snprintf(k->source, sizeof(k->source), "path");
		return;	/* its models are read in the guest, from debugfs */
	}
	/* A series, or an exact version whose series is its longest prefix. */
	char *names[64];
	int n = catalog_list(top, names, 64);
	const char *series = NULL;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(names[i]);
		if (strcmp(asked, names[i]) == 0 ||
		    (strncmp(asked, names[i], l) == 0 && asked[l] == '.' &&
		     (!series || strlen(series) < l)))
			series = names[i];
	}
	if (!series) {
		char known[512];
		catalog_known(top, known, sizeof(known));
		plan_die("%s=%s: unknown kernel; known: %s (a series, an exact version such as "
			 "7.0.13, or a path to a bzImage)", var, asked, known);
	}
	snprintf(k->label, sizeof(k->label), "%s", series);
	catalog_get(top, series, "source", k->source, sizeof(k->source));
	set_models(k, top, series);
	for (int i = 0; i < n; i++)
		free(names[i]);
}

/* The series that have KEY (e.g. package_arm64), space-separated. */
void catalog_with_key(const char *top, const char *key, char *buf, size_t len)
{
	char *names[64], val[256];
	int n = catalog_list(top, names, 64);
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (catalog_value(top, names[i], key, val, sizeof(val)) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "",
						 names[i]);
		free(names[i]);
	}
}
