/*
 * The planner's tables, for the scripts: one architecture table and one
 * kernel catalog parser serve C and shell alike, so that a script never
 * keeps a case list of architectures or a second reader of kernels/.
 *
 *   build/plan --arch-info [ARCH [KEY]]   ARCH's row (default: the host's;
 *                                         ARCH may be readelf's machine name),
 *                                         "key TAB value" lines, or KEY's value
 *   build/plan --catalog-get DIR SERIES KEY   the value of "KEY:" in DIR/SERIES
 *   build/plan --catalog-series DIR [SOURCE|--list]
 *                                         the series of catalog DIR (those
 *                                         of SOURCE; --list: with descriptions)
 *   build/plan --catalog-resolve DIR KERNEL [ARCH]
 *                                         what KERNEL names in catalog DIR
 *                                         (catalog_resolve's rules, the plan's):
 *                                         "key TAB value" lines source, series,
 *                                         version (an exact one asked, or
 *                                         empty), image (a path asked), and
 *                                         for ARCH (default the base one)
 *                                         models, default, suite, package,
 *                                         also and cache (the store's name:
 *                                         SERIES, or SERIES-ARCH); a kernel
 *                                         ARCH cannot take exits 1 naming
 *                                         those it can
 *   build/plan --catalog-pick SERIES SUITE REGEX [EXACT]
 *                                         of kapt_candidates' lines on stdin
 *                                         (newest first) the newest, or that
 *                                         of EXACT; exit 1 naming those
 *                                         there are when none fits
 *
 * An unknown architecture exits 2 naming the known ones; a key the row or
 * the catalog entry does not have prints nothing and exits 1.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

static const char *yes(bool b)
{
	return b ? "1" : "0";
}

static const char *str(const char *s)
{
	return s ? s : "";
}

/* A row by Debian's or uname's name, or by the machine readelf -h names
 * ("Advanced Micro Devices X86-64"). */
static const struct arch *lookup(const char *name)
{
	const struct arch *a = arch_find(name);
	for (size_t i = 0; !a && arch_at(i); i++)
		if (strstr(name, arch_at(i)->readelf_machine))
			a = arch_at(i);
	return a;
}

int info_arch(const char *name, const char *key)
{
	const char *host = arch_host();
	const struct arch *a = lookup(name && *name ? name : host);
	if (!a) {
		fprintf(stderr, "preemptlab: ARCH=%s: unknown architecture; use %s\n", name,
			arch_names());
		return 2;
	}
	char suffix[16] = "", bin[32] = "build";
	const char *base = a->name;
	for (size_t i = 0; arch_at(i); i++)
		if (arch_at(i)->catalog_base)
			base = arch_at(i)->name;
	if (!a->catalog_base)
		snprintf(suffix, sizeof(suffix), "_%s", a->name);
	/* A cross-built architecture's guest programs are static, in their own
	 * directory (mk/cross.mk), whichever host builds them. */
	if (a->cross_prefix)
		snprintf(bin, sizeof(bin), "build-%s", a->name);
	const char *rows[][2] = {
		{ "name", a->name },
		{ "uname", a->uname },
		{ "native", yes(!strcmp(a->name, host)) },
		{ "qemu", a->qemu },
		{ "qemu_var", a->qemu_var },
		{ "qemu_package", a->qemu_package },
		{ "console", a->console },
		{ "cross_prefix", str(a->cross_prefix) },
		{ "cross_package", str(a->cross_package) },
		{ "catalog_base", yes(a->catalog_base) },
		/* The row whose keys have no suffix: its lists name architecture
		 * "all" packages (linux-source) for every build. */
		{ "catalog_base_arch", base },
		/* Catalog keys of this architecture end in it (package_arm64:). */
		{ "catalog_suffix", suffix },
		{ "host_userland", yes(a->host_userland) },
		{ "guest_bin_dir", bin },
		{ "kernel_arch", a->kernel_arch },
		{ "kernel_image", a->kernel_image },
		{ "triplet", a->triplet },
		{ "readelf_machine", a->readelf_machine },
		{ "file_machine", a->file_machine },
		{ "qemu_user", a->qemu_user },
		{ "no_rseq_slice", str(a->no_rseq_slice) },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!key)
			printf("%s\t%s\n", rows[i][0], rows[i][1]);
		else if (!strcmp(key, rows[i][0])) {
			printf("%s\n", rows[i][1]);
			return rows[i][1][0] ? 0 : 1;
		}
	}
	return key ? 1 : 0;
}

int info_catalog_get(const char *dir, const char *series, const char *key)
{
	char val[512];
	/* A series name is a file name in DIR, never a path out of it. */
	if (strchr(series, '/') || series[0] == '.')
		return 1;
	catalog_set_dir(dir);
	if (!catalog_value(".", series, key, val, sizeof(val)))
		return 1;
	printf("%s\n", val);
	return 0;
}

/* The series whose source is SOURCE (all when NULL), one a line, or
 * with --list each with its description (kernel-resolve.sh --list). */
int info_catalog_series(const char *dir, const char *source)
{
	char known[1024], val[256], *save = NULL;
	bool list = source && !strcmp(source, "--list");
	catalog_set_dir(dir);
	catalog_known(".", known, sizeof(known));
	for (char *s = strtok_r(known, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
		if (!catalog_value(".", s, list ? "description" : "source", val, sizeof(val)))
			val[0] = '\0';
		if (list)
			printf("%-9s %s\n", s, val);
		else if (!source || !strcmp(val, source))
			printf("%s\n", s);
	}
	return 0;
}

/* The series that have KEY, each followed by a blank (the refusals' list). */
static const char *with_key(const char *key)
{
	static char buf[1024];
	catalog_with_key(".", key, buf, sizeof(buf) - 1);
	if (buf[0])
		strcat(buf, " ");
	return buf;
}

static void get(const char *series, const char *key, char *out, size_t len)
{
	if (!catalog_value(".", series, key, out, len))
		out[0] = '\0';
}

int info_catalog_resolve(const char *dir, const char *kernel, const char *arch)
{
	struct kernel_ref k;
	const struct arch *a = arch_find(arch ? arch : "");
	char models[256] = "", def[32] = "", suite[64] = "", pkg[256] = "", also[256] = "",
	     key[48], val[256], base[8] = "", cache[128];
	for (size_t i = 0; arch_at(i); i++)
		if (arch_at(i)->catalog_base)
			snprintf(base, sizeof(base), "%s", arch_at(i)->name);
	if (!a)
		a = arch_find(base);
	catalog_set_dir(dir);
	catalog_resolve(".", kernel, "KERNEL", &k);	/* an unknown one exits 2 */
	bool path = !strcmp(k.source, "path");
	const char *exact = !path && strcmp(kernel, k.label) ? kernel : "", *s = k.label;
	printf("source\t%s\nseries\t%s\nversion\t%s\nimage\t%s\n", k.source, k.label, exact,
	       path ? kernel : "");
	if (path)
		return 0;	/* its models are read in the guest, from debugfs */
	/* Another architecture's build may offer other models (models_arm64:). */
	get(s, "models", models, sizeof(models));
	get(s, "default", def, sizeof(def));
	snprintf(key, sizeof(key), "models_%s", a->name);
	if (!a->catalog_base && catalog_value(".", s, key, models, sizeof(models))) {
		snprintf(key, sizeof(key), "default_%s", a->name);
		get(s, key, def, sizeof(def));
	}
	snprintf(key, sizeof(key), "package_%s", a->name);
	/* A built series cross-builds for another architecture when its recipe
	 * has one (base_arm64:, target_arm64:); a host series does not. */
	if (!strcmp(k.source, "build") && !a->catalog_base) {
		char b[48], t[48];
		snprintf(b, sizeof(b), "base_%s", a->name);
		snprintf(t, sizeof(t), "target_%s", a->name);
		if (!catalog_value(".", s, b, val, sizeof(val)) ||
		    !catalog_value(".", s, t, val, sizeof(val))) {
			char known[1024], src[16], *save = NULL, list[1024] = "";
			catalog_known(".", known, sizeof(known));
			for (char *n = strtok_r(known, " ", &save); n; n = strtok_r(NULL, " ", &save)) {
				get(n, "source", src, sizeof(src));
				if (!strcmp(src, "build") && catalog_value(".", n, b, val, sizeof(val)) &&
				    catalog_value(".", n, t, val, sizeof(val)))
					strcat(strcat(list, n), " ");
			}
			plan_fail("kernel %s is built from source and kernels/%s has no %s recipe (%s:, "
			       "%s:); %s takes a Debian package series or one of the built series that "
			       "have one: %s", s, s, a->name, b, t, a->name, list);
		}
	} else if (strcmp(k.source, "apt") && !a->catalog_base)
		plan_fail("kernel %s (%s) is %s only; ARCH=%s takes a Debian package series: %s", s,
		       k.source, base, a->name, with_key(key));
	get(s, "suite", suite, sizeof(suite));
	get(s, "package", pkg, sizeof(pkg));
	if (!strcmp(k.source, "host") && *exact) {
		char known[1024];
		catalog_known(".", known, sizeof(known));
		fprintf(stderr, "preemptlab: unknown kernel '%s'; known: %s (a series, an exact "
			"version such as 7.0.13, or a path to a bzImage)\n", kernel, known);
		exit(2);
	}
	if (!strcmp(k.source, "build") && *exact) {
		char bare[256];
		size_t n = 0;
		for (const char *p = pkg; *p && n + 1 < sizeof(bare); p++)
			if (!strchr("[]^$\\", *p))
				bare[n++] = *p;
		bare[n] = '\0';
		plan_fail("%s is built from source: ask for '%s' itself (its version is that of %s in %s)",
		       s, s, bare, suite);
	}
	if (strcmp(k.source, "apt") && strcmp(k.source, "build") && strcmp(k.source, "host"))
		plan_fail("kernels/%s: unknown source '%s' (apt, build or host)", s, k.source);
	/* The package regex for ARCH: "package:" is the base architecture's,
	 * "package_arm64:" arm64's (a series without one has no kernel of that
	 * architecture, and says so). */
	if (!strcmp(k.source, "apt") && !a->catalog_base)
		get(s, key, pkg, sizeof(pkg));
	if (!strcmp(k.source, "apt") && !pkg[0])
		plan_fail("kernel %s has no %s package in kernels/%s (no %s:); %s series: %s", s, a->name,
		       s, key, a->name, with_key(key));
	get(s, "also", also, sizeof(also));
	snprintf(cache, sizeof(cache), "%s%s%s", s, a->catalog_base ? "" : "-",
		 a->catalog_base ? "" : a->name);
	printf("models\t%s\ndefault\t%s\nsuite\t%s\npackage\t%s\nalso\t%s\ncache\t%s\n", models, def,
	       suite, pkg, also, cache);
	return 0;
}

/* A version by its second field ("package upstream-version pkg-version"). */
static int by_upstream(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int catalog_pick(char *cands, const char *exact, char *line, size_t len, char *versions,
		 size_t vlen)
{
	char *all[256], *save = NULL;
	int n = 0, found = -1;
	for (char *l = strtok_r(cands, "\n", &save); l && n < 256; l = strtok_r(NULL, "\n", &save)) {
		char ver[128] = "";
		sscanf(l, "%*s %127s", ver);
		if (found < 0 && (!exact || !*exact || !strcmp(ver, exact))) {
			snprintf(line, len, "%s", l);
			found = n;
		}
		all[n++] = l;
	}
	if (!n)
		return 1;
	if (found >= 0)
		return 0;
	/* The packaged versions, each once, oldest first. */
	char *vers[256];
	size_t used = 0;
	for (int i = 0; i < n; i++) {
		vers[i] = strchr(all[i], ' ') ? strchr(all[i], ' ') + 1 : all[i];
		vers[i][strcspn(vers[i], " ")] = '\0';
	}
	qsort(vers, (size_t)n, sizeof(*vers), by_upstream);
	versions[0] = '\0';
	for (int i = 0; i < n; i++)
		if ((!i || strcmp(vers[i], vers[i - 1])) && used < vlen)
			used += (size_t)snprintf(versions + used, vlen - used, "%s ", vers[i]);
	return 2;
}

/* The candidate a KERNEL value takes (stdin: kapt_candidates' lines, newest
 * first): the newest, or the exact version asked for. */
int info_catalog_pick(const char *series, const char *suite, const char *regex, const char *exact)
{
	char *text = NULL, line[512], versions[4096];
	size_t len = 0;
	FILE *in = open_memstream(&text, &len);
	for (int c; in && (c = getchar()) != EOF;)
		fputc(c, in);
	if (in)
		fclose(in);
	int rc = catalog_pick(text ? text : (char[]){ "" }, exact, line, sizeof(line), versions,
			      sizeof(versions));
	free(text);
	if (rc == 1)
		plan_fail("no package matching %s in %s (has Debian dropped it? edit kernels/%s)", regex,
		       suite, series);
	if (rc == 2)
		plan_fail("no %s in %s; packaged %s versions: %s", exact, suite, series, versions);
	puts(line);
	return 0;
}
