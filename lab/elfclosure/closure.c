/*
 * build/elfclosure's walk (closure.h), ldd for another architecture: ldd
 * runs the binary, and an aarch64 binary does not run on an x86 host;
 * this only reads (elfread.c).  Symbolic links are followed inside ROOT (an
 * absolute target is ROOT's, not the host's); a printed path is the one
 * the binary asks for, so copying ROOT/PATH (dereferenced) to the guest's
 * PATH satisfies it.  Search order: DT_RPATH/DT_RUNPATH ($ORIGIN
 * expanded), then Debian's default directories (multiarch first, as
 * Debian's ld.so does).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "closure.h"

static char *cat(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *s = malloc(la + lb + lc + 1);
	if (!s)
		abort();
	memcpy(s, a, la);
	memcpy(s + la, b, lb);
	memcpy(s + la + lb, c, lc + 1);
	return s;
}

/* GNU dirname's dir_len and last_component, where "//" is no root of its own. */
char *closure_dirname(const char *path)
{
	const char *base = path;
	int slash = 0;
	while (*base == '/')
		base++;
	for (const char *p = base; *p; p++) {
		if (*p == '/')
			slash = 1;
		else if (slash)
			base = p, slash = 0;
	}
	size_t prefix = path[0] == '/', len = (size_t)(base - path);
	while (prefix < len && path[len - 1] == '/')
		len--;
	if (!len)
		return strdup(".");
	char *s = strndup(path, len);
	if (!s)
		abort();
	return s;
}

static int is_host(const char *file)
{
	return !strncmp(file, "host:", 5);
}

/* A host file is named relative to ROOT: ROOT's components each become
 * "..", so that ROOT + it reaches the host's PATH (ROOT is physical, so
 * ROOT/../.. walks no symbolic link). */
static char *host_rel(const char *root, const char *path)
{
	size_t n = strlen(root);
	char *s = malloc(3 * n + strlen(path) + 1), *o = s;
	if (!s)
		abort();
	for (size_t i = 0; i < n;) {
		if (root[i] == '/') {
			*o++ = root[i++];
			continue;
		}
		*o++ = '.', *o++ = '.';
		while (i < n && root[i] != '/')
			i++;
	}
	strcpy(o, path);
	return s;
}

/* FILE with its symbolic links resolved inside ROOT, 40 hops at most (then
 * as it is).  A host:PATH is a host file: ROOT's prefix is undone instead. */
char *closure_in_root(const char *root, const char *file)
{
	if (is_host(file))
		return host_rel(root, file + 5);
	char *p = strdup(file);
	for (int n = 0; p && n < 40; n++) {
		char *full = cat(root, p, ""), t[4096];
		struct stat st;
		ssize_t len = lstat(full, &st) == 0 && S_ISLNK(st.st_mode) ? readlink(full, t, sizeof(t) - 1) : -1;
		free(full);
		if (len < 0)
			break;
		t[len] = '\0';
		char *next;
		if (t[0] == '/') {
			next = strdup(t);
		} else {
			char *dir = closure_dirname(p);
			next = cat(dir, "/", t);
			free(dir);
		}
		free(p);
		p = next;
	}
	if (!p)
		abort();
	return p;
}

/* Whether ROOT + FILE's resolution exists (the host follows what is left). */
static int exists(const char *root, const char *file)
{
	char *p = closure_in_root(root, file), *full = cat(root, p, "");
	struct stat st;
	int ok = stat(full, &st) == 0;
	free(p);
	free(full);
	return ok;
}

/* S with every NAME replaced by WITH. */
static char *replace(char *s, const char *name, const char *with)
{
	char *at;
	size_t from = 0;
	while ((at = strstr(s + from, name))) {
		*at = '\0';
		char *t = cat(s, with, at + strlen(name));
		from = (size_t)(at - s) + strlen(with);
		free(s);
		s = t;
	}
	return s;
}

/* The directories of the DT_RPATH/DT_RUNPATH values VALS, with ORIGIN for
 * $ORIGIN and ${ORIGIN}; empty entries are none (ld.so's "." is never in
 * a sysroot). */
static void search_path(const struct strlist *vals, const char *origin, struct strlist *dirs)
{
	for (size_t i = 0; i < vals->n; i++) {
		char *v = strdup(vals->v[i]);
		if (!v)
			abort();
		for (char *c = v; *c; c++)
			if (*c == ':')
				*c = ' ';
		v = replace(replace(v, "$ORIGIN", origin), "${ORIGIN}", origin);
		for (char *tok = strtok(v, " \t\n"); tok; tok = strtok(NULL, " \t\n"))
			strlist_add(dirs, tok);
		free(v);
	}
}

/* Which machine the first file is for: the default directories are its. */
static const struct arch *first_arch(const char *root, const char *first, struct closure *c)
{
	char *p = closure_in_root(root, first), *full = cat(root, p, ""), what[64] = "";
	struct elf_deps d;
	const struct arch *a = NULL;
	if (elf_read(full, &d) == 1) {
		for (size_t i = 0; !a && arch_at(i); i++)
			if (arch_at(i)->elf_machine == d.machine)
				a = arch_at(i);
		snprintf(what, sizeof(what), "ELF machine %u", d.machine);
		elf_deps_free(&d);
	}
	if (!a) {
		size_t n = strlen(full) + strlen(what) + 64;
		c->error = malloc(n);
		if (!c->error)
			abort();
		snprintf(c->error, n, "%s: not an ELF file of a known machine ('%s')", full, what);
	}
	free(p);
	free(full);
	return a;
}

/* What F needs: its interpreter, and each DT_NEEDED found in DIRS. */
static void visit(const char *root, const char *f, const struct strlist *defaults,
		  struct strlist *queue, struct closure *c)
{
	char *real = closure_in_root(root, f), *full = cat(root, real, ""), magic[5] = "", *m = magic;
	struct elf_deps d;
	FILE *fp = fopen(full, "rb");
	if (!fp) {
		fprintf(stderr, "preemptlab: %s: %s\n", full, strerror(errno));
	} else {
		/* As head -c4 | tr -d '\177' saw it: "ELF" once \177 is gone. */
		for (int i = 0, ch; i < 4 && (ch = getc(fp)) != EOF; i++)
			if (ch != 0177)
				*m++ = (char)ch;
		fclose(fp);
	}
	if (strcmp(magic, "ELF") != 0 || elf_read(full, &d) != 1) {
		free(real);
		free(full);
		return;
	}
	if (d.interp) {
		if (!exists(root, d.interp)) {
			char *why = cat(d.interp, " (interpreter of ", f);
			char *line = cat(why, ")", "");
			strlist_add(&c->missing, line);
			free(why);
			free(line);
		}
		strlist_add(&c->out, d.interp);
	}
	char *origin = closure_dirname(is_host(f) ? f + 5 : real);
	struct strlist dirs = { 0 };
	search_path(&d.paths, origin, &dirs);
	for (size_t i = 0; i < defaults->n; i++)
		strlist_add(&dirs, defaults->v[i]);
	for (size_t i = 0; i < d.needed.n; i++) {
		const char *lib = d.needed.v[i];
		char *found = NULL;
		for (size_t j = 0; !found && j < dirs.n; j++) {
			char *cand = cat(dirs.v[j], "/", lib);
			if (exists(root, cand))
				found = cand;
			else
				free(cand);
		}
		if (!found) {
			char *why = cat(lib, " (needed by ", f);
			char *line = cat(why, ")", "");
			strlist_add(&c->missing, line);
			free(why);
			free(line);
			continue;
		}
		strlist_add(&c->out, found);
		strlist_add(queue, found);
		free(found);
	}
	strlist_free(&dirs);
	free(origin);
	elf_deps_free(&d);
	free(real);
	free(full);
}

int closure_run(const char *root, char *const *files, size_t nfiles, struct closure *c)
{
	*c = (struct closure){ 0 };
	const struct arch *a = nfiles ? first_arch(root, files[0], c) : NULL;
	if (!a)
		return -1;
	struct strlist defaults = { 0 }, queue = { 0 }, seen = { 0 };
	const char *dirs[] = { "/lib/", "/usr/lib/", "/lib", "/usr/lib" };
	for (size_t i = 0; i < 4; i++) {
		char *d = cat(dirs[i], i < 2 ? a->triplet : "", "");
		strlist_add(&defaults, d);
		free(d);
	}
	for (size_t i = 0; i < nfiles; i++)
		strlist_add(&queue, files[i]);
	for (size_t next = 0; next < queue.n; next++) {
		if (strlist_has(&seen, queue.v[next]))
			continue;
		strlist_add(&seen, queue.v[next]);
		visit(root, queue.v[next], &defaults, &queue, c);
	}
	strlist_free(&defaults);
	strlist_free(&queue);
	strlist_free(&seen);
	strlist_sort_unique(&c->out);
	strlist_sort_unique(&c->missing);
	return 0;
}

void closure_free(struct closure *c)
{
	strlist_free(&c->out);
	strlist_free(&c->missing);
	free(c->error);
	*c = (struct closure){ 0 };
}
