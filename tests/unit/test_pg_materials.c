/*
 * What the PostgreSQL materials scripts fetch and build (lab/plan/pg_materials.c):
 * the catalogs' rows, the base suites, the configure flags the lab's build
 * keeps and the Depends entries a fetched root unpacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "plan/plan.h"

static const char *base(const char *suite)
{
	static char b[32];
	pg_base_suite(suite, b, sizeof(b));
	return b;
}

static const char *entry(const char *e)
{
	static char out[256];
	pg_depends_entry(e, out, sizeof(out));
	return out;
}

static const char *flag(const char *f)
{
	static char out[256];
	return pg_configure_flag(f, "18.6-3", "prefault", out, sizeof(out)) ? out : "(dropped)";
}

int main(void)
{
	char path[] = "/tmp/test_pg_materials.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	fputs("# major suite status\n\n15 bookworm ok\n17 trixie-security missing 17.12: 404 (in trixie)\n"
	      "18   sid  ok # a comment\n19\n", f);
	fclose(f);
	struct pg_row r[8];
	int n = pg_catalog_read(path, r, 8);
	unlink(path);
	CHECK(n == 3, "comments, blank lines and a row without a suite are skipped: %d rows", n);
	CHECK(n == 3 && !strcmp(r[1].suite, "trixie-security") &&
		      !strcmp(r[1].status, "missing 17.12: 404 (in trixie)"),
	      "a status keeps its words: '%s'", n == 3 ? r[1].status : "");
	CHECK(n == 3 && !strcmp(r[2].major, "18") && !strcmp(r[2].status, "ok"),
	      "a comment ends the row (status '%s')", n == 3 ? r[2].status : "");
	n = pg_catalog_read(PREEMPTLAB_TOP "/pg/majors", r, 8);
	CHECK(n >= 2 && !strcmp(r[0].major, "15") && !strcmp(r[0].suite, "bookworm"),
	      "pg/majors: %d majors, the first 15 from bookworm", n);

	CHECK(!strcmp(base("trixie-backports"), "trixie"), "backports: the base suite's libraries");
	CHECK(!strcmp(base("trixie-security"), "trixie"), "security: the base suite's");
	CHECK(!strcmp(base("experimental"), "sid"), "experimental: sid's");
	CHECK(!strcmp(base("bookworm"), "bookworm"), "a full suite is its own base");

	CHECK(!strcmp(flag("--with-llvm"), "(dropped)"), "JIT's flag is dropped");
	CHECK(!strcmp(flag("PYTHON=/usr/bin/python3"), "(dropped)"), "a dropped language's program too");
	CHECK(!strcmp(flag("--with-uuid=e2fs"), "(dropped)"), "uuid-ossp's flag (with its value)");
	CHECK(!strcmp(flag("--with-openssl"), "--with-openssl"), "the others are kept as they are");
	CHECK(!strcmp(flag("--with-extra-version= (Debian 18.6-3)"),
		      "--with-extra-version= (Debian 18.6-3, preemptlab build, patch prefault)"),
	      "the version names the lab's build and its patch: %s",
	      flag("--with-extra-version= (Debian 18.6-3)"));

	CHECK(pg_library_package("libssl3") && pg_library_package("zlib1g"), "libraries are unpacked");
	CHECK(!pg_library_package("libllvm19") && !pg_library_package("libjson-perl") &&
		      !pg_library_package("libperl5.40") && !pg_library_package("tzdata"),
	      "LLVM, perl's and non-libraries are not");
	CHECK(!strcmp(entry(" libc6 (>= 2.38)"), "libc6"), "a version constraint goes: '%s'",
	      entry(" libc6 (>= 2.38)"));
	CHECK(!strcmp(entry("libzstd1 (>= 1.5) | libfoo:any"), "libzstd1 libfoo"),
	      "alternatives, :any dropped: '%s'", entry("libzstd1 (>= 1.5) | libfoo:any"));
	CHECK(!strcmp(entry("libgssapi-krb5-2 | debconf (>= 0.5) | libbar"), "libgssapi-krb5-2"),
	      "alternatives end at the first that is no library: '%s'",
	      entry("libgssapi-krb5-2 | debconf (>= 0.5) | libbar"));
	CHECK(!strcmp(entry(" postgresql-common (>= 252~)"), ""), "a non-library entry gives nothing");

	/* The package set, from two tiny lists: sid's server and libpq5, the
	 * libraries from the base suite first, an alternative that exists. */
	char sl[] = "/tmp/test_pg_materials.XXXXXX", bl[] = "/tmp/test_pg_materials.XXXXXX";
	f = fdopen(mkstemp(sl), "w");
	fputs("Package: postgresql-19\nVersion: 19~rc1-1\nPre-Depends: libc6 (>= 2.38)\n"
	      "Depends: libssl3t64 | libnot, postgresql-common, libllvm19, libnone | libzstd1\n\n"
	      "Package: libpq5\nVersion: 19~rc1-1\nDepends: libc6\n\n"
	      "Package: libc6\nVersion: 2.99-1\n\nPackage: libssl3t64\nVersion: 3.9-1\n", f);
	fclose(f);
	f = fdopen(mkstemp(bl), "w");
	fputs("Package: libc6\nVersion: 2.41-1\n\nPackage: libzstd1\nVersion: 1.5-1\n"
	      "Depends: libc6\n", f);
	fclose(f);
	fflush(stdout);
	char out[] = "/tmp/test_pg_materials.XXXXXX";
	int ofd = mkstemp(out), saved = dup(1);
	dup2(ofd, 1);
	info_pg_package_set("19", "experimental", sl, "sid", bl);
	fflush(stdout);
	dup2(saved, 1);
	char got[512] = "";
	FILE *g = fopen(out, "r");
	got[fread(got, 1, sizeof(got) - 1, g)] = '\0';
	fclose(g);
	unlink(sl), unlink(bl), unlink(out);
	char said[512];
	snprintf(said, sizeof(said), "%s", got);
	for (char *c = said; *c; c++)
		*c = *c == '\n' ? ';' : *c;
	CHECK(!strcmp(got, "postgresql-19 19~rc1-1 experimental\nlibpq5 19~rc1-1 experimental\n"
			   "libc6 2.41-1 sid\nlibssl3t64 3.9-1 experimental\nlibzstd1 1.5-1 sid\n"),
	      "the set: the server and libpq5 from the suite, libc6 from the base first, no "
	      "LLVM, the alternative that exists: %s", said);
	return CHECK_DONE();
}
