/*
 * A kernel resolution from the cache (the "resolved" file of a fetched
 * image or a finished build: K_NAME='value' lines, which callers eval),
 * checked before it is used again and printed with its paths re-rooted,
 * for scripts/kernel-resolve.sh:
 *
 *   build/plan --kernel-resolution FILE
 *
 * Exit 1 with the reason on stderr when FILE may not be used (issue 35,
 * N2): each line a plain K_NAME='value' (the lines reach the caller's
 * eval, so no quote of a value may end it), its image a regular file
 * inside FILE's directory, with the sha256 recorded when it was unpacked
 * or built.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel_resolution.h"
#include "model/sha256.h"

__attribute__((format(printf, 1, 2))) static void note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("preemptlab: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* FILE's directory as `cd DIR && pwd` gives it: absolute, with . and ..
 * taken lexically, symbolic links kept (the path that reached the cache). */
static void logical_dir(const char *file, char *out, size_t len)
{
	char path[PATH_MAX * 2], cwd[PATH_MAX];
	const char *pwd = getenv("PWD");
	struct stat a, b;
	snprintf(path, sizeof(path), "%s", file);
	char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(path, sizeof(path), ".");
	else
		*(slash == path ? slash + 1 : slash) = '\0';
	if (path[0] != '/') {
		if (!pwd || pwd[0] != '/' || stat(pwd, &a) || stat(".", &b) || a.st_ino != b.st_ino ||
		    a.st_dev != b.st_dev)
			pwd = getcwd(cwd, sizeof(cwd)) ? cwd : "/";
		char rel[PATH_MAX];
		snprintf(rel, sizeof(rel), "%.*s", PATH_MAX - 1, path);
		snprintf(path, sizeof(path), "%.*s/%s", PATH_MAX - 1, pwd, rel);
	}
	size_t used = 0;
	out[0] = '\0';
	for (char *save = NULL, *c = strtok_r(path, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			char *up = strrchr(out, '/');
			used = up ? (size_t)(up - out) : 0;
			out[used] = '\0';
			continue;
		}
		if (used < len)
			used += (size_t)snprintf(out + used, len - used, "/%s", c);
	}
	if (!out[0])
		snprintf(out, len, "/");
}

/* LINE (K_IMAGE='...' or K_CONFIG='...') re-rooted: the value's part up to
 * the last /TAIL/ (the resolution's directory, as the cache lays it out)
 * becomes DIR. */
static void reroot(const char *line, const char *tail, const char *dir, FILE *out)
{
	const char *open = strchr(line, '\'') + 1, *close = strchr(open, '\'');
	size_t tl = strlen(tail);
	const char *last = NULL;
	for (const char *p = open; p + tl + 2 <= (close ? close : open + strlen(open)); p++)
		if (p[0] == '/' && !strncmp(p + 1, tail, tl) && p[tl + 1] == '/')
			last = p;
	if (!last) {
		fputs(line, out);
		return;
	}
	fprintf(out, "%.*s%s/%s", (int)(open - line), line, dir, last + tl + 2);
}

/* A line the caller's eval may take: K_NAME='value', no other quote. */
static bool plain(const char *l)
{
	size_t n = strspn(l + 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	const char *v = l + 2 + n;
	if (strncmp(l, "K_", 2) || !n || strncmp(v, "='", 2))
		return false;
	const char *q = strchr(v + 2, '\'');
	return q && !strcmp(q, "'");
}

/* The values of KEY's lines, one a line (as sed -n would print them). */
static void values(char **lines, int n, const char *key, char *out, size_t len)
{
	size_t used = 0, kl = strlen(key);
	out[0] = '\0';
	for (int i = 0; i < n; i++)
		if (!strncmp(lines[i], key, kl) && !strncmp(lines[i] + kl, "='", 2) && used < len)
			used += (size_t)snprintf(out + used, len - used, "%s%.*s", used ? "\n" : "",
						 (int)(strlen(lines[i]) - kl - 3), lines[i] + kl + 2);
}

int kernel_resolution(const char *file)
{
	char dir[PATH_MAX], tail[PATH_MAX], img[PATH_MAX], sha[256], real[PATH_MAX],
	     fdir[PATH_MAX], *text = NULL, *lines[128];
	size_t len = 0;
	int n = 0;
	FILE *f = fopen(file, "r"), *out = open_memstream(&text, &len);
	logical_dir(file, dir, sizeof(dir));
	/* tail: the directory's last two components, as they stand in dir. */
	char *base = strrchr(dir, '/');
	*base = '\0';
	char *prev = strrchr(dir, '/');
	*base = '/';
	snprintf(tail, sizeof(tail), "%s", prev ? prev + 1 : dir);
	/* The paths were written absolute, under whatever path reached the
	 * cache then (another checkout, a worktree's symlink); the cache's own
	 * layout below that is what stays, so only the part up to the
	 * resolution's directory is replaced. */
	for (char line[4096]; f && fgets(line, sizeof(line), f);) {
		if (!strncmp(line, "K_IMAGE='", 9) || !strncmp(line, "K_CONFIG='", 10))
			reroot(line, tail, dir, out);
		else
			fputs(line, out);
	}
	if (f)
		fclose(f);
	fclose(out);
	/* Checked as the shell's $(...) kept it: trailing newlines dropped. */
	char *copy = strdup(text);
	for (size_t e = strlen(copy); e > 0 && copy[e - 1] == '\n';)
		copy[--e] = '\0';
	bool ok = true;
	for (char *l = copy, *next; l && n < 128; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		lines[n++] = l;
		ok = ok && plain(l);
	}
	int rc = 1;
	if (!ok) {
		note("%s holds a line that is not K_NAME='value': not used", file);
		goto done;
	}
	values(lines, n, "K_IMAGE", img, sizeof(img));
	values(lines, n, "K_SHA256", sha, sizeof(sha));
	if (!realpath(file, fdir))
		snprintf(fdir, sizeof(fdir), "%s", file);
	*strrchr(fdir, '/') = '\0';
	/* realpath(1): all but the image's last component must exist. */
	bool inside = false;
	if (img[0] && realpath(img, real))
		inside = true;
	else if (img[0] && strrchr(img, '/')) {
		char parent[PATH_MAX];
		snprintf(parent, sizeof(parent), "%.*s", (int)(strrchr(img, '/') - img), img);
		inside = realpath(parent[0] ? parent : "/", real) != NULL;
		if (inside && strlen(real) + strlen(strrchr(img, '/')) < sizeof(real))
			strcat(real, strrchr(img, '/'));
	}
	size_t dl = strlen(fdir);
	if (!inside || strncmp(real, fdir, dl) || real[dl] != '/') {
		note("%s names an image outside %s ('%s'): not used", file, fdir, img);
		goto done;
	}
	struct stat st;
	if (lstat(img, &st) || S_ISLNK(st.st_mode) || stat(img, &st) || !S_ISREG(st.st_mode)) {
		note("%s is not a regular file (a link?): %s not used", img, file);
		goto done;
	}
	char now[65] = "";
	sha256_file(img, now);
	if (strcmp(now, sha)) {
		note("%s has sha256 %s, not the %s recorded when it was made: changed since, not used",
		     img, now, sha);
		goto done;
	}
	fputs(text, stdout);
	rc = 0;
done:
	free(copy);
	free(text);
	return rc;
}
