/*
 * The planner's tables, for the scripts: one architecture table and one
 * kernel catalog parser serve C and shell alike, so that a script never
 * keeps a case list of architectures or a second reader of kernels/.
 *
 *   build/plan --arch-info [ARCH [KEY]]   ARCH's row (default: the host's;
 *                                         ARCH may be readelf's machine name),
 *                                         "key TAB value" lines, or KEY's value
 *   build/plan --catalog-get DIR SERIES KEY   the value of "KEY:" in DIR/SERIES
 *   build/plan --catalog-series DIR           the series of catalog DIR
 *   build/plan --catalog-resolve DIR KERNEL   what KERNEL names in catalog DIR
 *                                         (catalog_resolve's rules, the plan's):
 *                                         "key TAB value" lines source, series,
 *                                         version (an exact one asked, or
 *                                         empty) and image (a path asked)
 *
 * An unknown architecture exits 2 naming the known ones; a key the row or
 * the catalog entry does not have prints nothing and exits 1.
 */
#include <stdio.h>
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
 * ("Advanced Micro Devices X86-64": scripts/elf-closure.sh). */
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

int info_catalog_series(const char *dir)
{
	catalog_set_dir(dir);
	catalog_print_series(".");
	return 0;
}

int info_catalog_resolve(const char *dir, const char *kernel)
{
	struct kernel_ref k;
	catalog_set_dir(dir);
	catalog_resolve(".", kernel, "KERNEL", &k);	/* an unknown one exits 2 */
	bool path = !strcmp(k.source, "path");
	printf("source\t%s\nseries\t%s\nversion\t%s\nimage\t%s\n", k.source, k.label,
	       !path && strcmp(kernel, k.label) ? kernel : "", path ? kernel : "");
	return 0;
}
