/*
 * build/elfclosure ROOT FILE...: prints, one guest path a line, sorted
 * unique, the shared libraries (and the program interpreter) that the ELF
 * files FILE... need, transitively, as ld.so would find them inside ROOT,
 * an unpacked sysroot of possibly another architecture (closure.c).
 * FILE: a path inside ROOT, or host:PATH, a host file (e.g. the lab's
 * cross-built program) whose libraries are ROOT's.  Exits 1, naming each,
 * when a library cannot be found in ROOT.  Called by scripts/pg-root-lib.sh
 * and scripts/initramfs.sh.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "closure.h"

static int die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "preemptlab: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 1;
}

int main(int argc, char **argv)
{
	struct stat st;
	char root[PATH_MAX];
	if (argc < 3)
		return die("usage: %s ROOT FILE...", argv[0]);
	if (stat(argv[1], &st) != 0 || !S_ISDIR(st.st_mode))
		return die("%s: no such sysroot directory", argv[1]);
	/* Physical, so that ROOT/../.. (a host file) walks no symbolic link. */
	if (!realpath(argv[1], root))
		return die("%s: no such sysroot directory", argv[1]);
	struct closure c;
	if (closure_run(root, argv + 2, (size_t)(argc - 2), &c) != 0) {
		int rc = die("%s", c.error);
		closure_free(&c);
		return rc;
	}
	int rc = 0;
	if (c.missing.n) {
		for (size_t i = 0; i < c.missing.n; i++)
			fprintf(stderr, "  %s\n", c.missing.v[i]);
		fprintf(stderr, "preemptlab: %zu shared librar(y/ies) above are not in %s: unpack the package that ships each\n",
			c.missing.n, root);
		rc = 1;
	} else {
		for (size_t i = 0; i < c.out.n; i++)
			printf("%s\n", c.out.v[i]);
	}
	closure_free(&c);
	return fflush(stdout) == 0 ? rc : 1;
}
