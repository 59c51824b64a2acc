/*
 * What the PostgreSQL materials scripts fetch and build, decided here so
 * that the shell only downloads, unpacks and compiles:
 *
 *   build/plan [--top DIR] --pg-major [MAJOR [KEY]]
 *       pg/majors (or PREEMPTLAB_PG_MAJORS): without MAJOR its "major suite"
 *       lines; with it "key TAB value" lines (suite, and base: the suite
 *       of its libraries) or KEY's value (scripts/pg-fetch.sh)
 *   build/plan [--top DIR] --pg-source [MAJOR [KEY]]
 *       pg/sources (or PREEMPTLAB_PG_SOURCES) the same way (suite, base,
 *       status; scripts/pg-source.sh, pg-build.sh)
 *   build/plan --pg-suites      the suites scripts/pg-fetch.sh --survey reads
 *   build/plan [--top DIR] --pg-build MAJOR PATCH [KEY]
 *       the build's patch file ("" for none), its Debian 12 build deps and
 *       the configure flags it drops (scripts/pg-build.sh)
 *   build/plan --pg-configure-flags SRCVER PATCH < FLAGS
 *       Debian's configure flags, one a line, as the lab's build keeps them
 *   build/plan --pg-root-expect MAJOR < TREES
 *       what scripts/pg-fetch.sh makes of its packages' trees (deb-tree.sh's
 *       lines, in the order the packages were unpacked): the tree its
 *       root holds, for scripts/pg-root-check.sh
 *   build/plan --pg-guest-packages MAJOR
 *       the packages of the system PostgreSQL MAJOR a guest of another
 *       architecture carries (scripts/pg-guest-root.sh)
 *   build/plan --pg-package-set MAJOR SUITE PACKAGES BASE PACKAGES
 *       the packages scripts/pg-fetch.sh unpacks for MAJOR, from the
 *       verified Packages lists of its suite and base suite: "package
 *       version suite" lines, the server, its client and libpq5 from SUITE,
 *       then the shared libraries their Depends and Pre-Depends name,
 *       transitively, each from BASE when it has it (Debian's shlibs
 *       Depends are exactly what the ELF files link against)
 *
 * A major a catalog does not have, a source it marks unavailable or a
 * patch that does not exist exits 2 naming what there is.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* The suites the archive offers PostgreSQL majors in, oldest first. */
static const char suites[] = "bookworm bookworm-backports trixie trixie-backports sid experimental";

int pg_catalog_read(const char *path, struct pg_row *rows, int max)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int n = 0;
	while (f && n < max && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "#\n")] = '\0';
		struct pg_row *r = &rows[n];
		r->status[0] = '\0';
		if (sscanf(line, "%7s %31s %399[^\n]", r->major, r->suite, r->status) < 2)
			continue;
		/* "18 sid ok # why" is ok: the comment's blanks are not the status's. */
		for (size_t e = strlen(r->status); e && strchr(" \t", r->status[e - 1]); e--)
			r->status[e - 1] = '\0';
		n++;
	}
	if (f)
		fclose(f);
	return n;
}

/* A backports, security or experimental suite holds only what differs from
 * its base: the libraries (and postgresql-common-dev) come from the base. */
void pg_base_suite(const char *suite, char *base, size_t len)
{
	size_t n = strlen(suite);
	if (!strcmp(suite, "experimental"))
		snprintf(base, len, "sid");
	else if (n > 10 && !strcmp(suite + n - 10, "-backports"))
		snprintf(base, len, "%.*s", (int)(n - 10), suite);
	else if (n > 9 && !strcmp(suite + n - 9, "-security"))
		snprintf(base, len, "%.*s", (int)(n - 9), suite);
	else
		snprintf(base, len, "%s", suite);
}

/* "15 (bookworm), 17 (trixie)": the rows (those whose status is ok when
 * ok_only). */
static void rows_available(const struct pg_row *r, int n, bool ok_only, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && off < len; i++)
		if (!ok_only || !strcmp(r[i].status, "ok"))
			off += (size_t)snprintf(buf + off, len - off, "%s%s (%s)", off ? ", " : "",
						r[i].major, r[i].suite);
}

/* Print "key TAB value" rows, or KEY's value (exit 1 for no such key). */
static int print_rows(const char *rows[][2], size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++) {
		if (!key)
			printf("%s\t%s\n", rows[i][0], rows[i][1]);
		else if (!strcmp(key, rows[i][0])) {
			printf("%s\n", rows[i][1]);
			return 0;
		}
	}
	return key ? 1 : 0;
}

static void catalog_path(const char *top, const char *env, const char *file, char *path, size_t len)
{
	if (getenv(env) && *getenv(env))
		snprintf(path, len, "%s", getenv(env));
	else
		snprintf(path, len, "%s/pg/%s", top, file);
}

int info_pg_major(const char *top, const char *major, const char *key)
{
	char path[4200], known[1024], base[32];
	struct pg_row r[32];
	catalog_path(top, "PREEMPTLAB_PG_MAJORS", "majors", path, sizeof(path));
	int n = pg_catalog_read(path, r, 32);
	for (int i = 0; !major && i < n; i++)
		printf("%s %s\n", r[i].major, r[i].suite);
	for (int i = 0; major && i < n; i++) {
		if (strcmp(r[i].major, major))
			continue;
		pg_base_suite(r[i].suite, base, sizeof(base));
		const char *rows[][2] = { { "suite", r[i].suite }, { "base", base } };
		return print_rows(rows, sizeof(rows) / sizeof(rows[0]), key);
	}
	if (!major)
		return 0;
	rows_available(r, n, false, known, sizeof(known));
	plan_die("PostgreSQL %s is not in Debian's archive (pg/majors, from `scripts/pg-fetch.sh "
		 "--survey` over %s); available: %s", major, suites, known);
}

int info_pg_source(const char *top, const char *major, const char *key)
{
	char path[4200], known[1024], base[32];
	struct pg_row r[32];
	catalog_path(top, "PREEMPTLAB_PG_SOURCES", "sources", path, sizeof(path));
	int n = pg_catalog_read(path, r, 32);
	for (int i = 0; !major && i < n; i++)
		printf("%s %s %s\n", r[i].major, r[i].suite, r[i].status);
	if (!major)
		return 0;
	rows_available(r, n, true, known, sizeof(known));
	for (int i = 0; i < n; i++) {
		if (strcmp(r[i].major, major))
			continue;
		if (strcmp(r[i].status, "ok"))
			plan_die("Debian's source of PostgreSQL %s cannot be fetched here: %s (pg/sources); "
				 "sources there are: %s", major, r[i].status, known);
		pg_base_suite(r[i].suite, base, sizeof(base));
		const char *rows[][2] = { { "suite", r[i].suite }, { "base", base },
					  { "status", r[i].status } };
		return print_rows(rows, sizeof(rows) / sizeof(rows[0]), key);
	}
	plan_die("PostgreSQL %s has no source in pg/sources; available: %s", major, known);
}

int info_pg_suites(void)
{
	printf("%s\n", suites);
	return 0;
}

/*
 * PostgreSQL, libpq's headers (pgsample is cross-built against them), and
 * the libraries readelf's NEEDED closure of initdb, postgres, pg_ctl,
 * pgbench, the modules initdb loads and libpq reaches (bookworm).  apt's
 * Depends would bring much more (LLVM for JIT, perl for the cluster
 * tools): only what the guest's programs load is fetched.
 */
int info_pg_guest_packages(const char *major)
{
	printf("postgresql-%s postgresql-client-%s libpq5 libpq-dev libc6 libgcc-s1 libstdc++6 zlib1g "
	       "libzstd1 liblz4-1 liblzma5 libxml2 libicu72 libssl3 libgssapi-krb5-2 libkrb5-3 "
	       "libk5crypto3 libkrb5support0 libcom-err2 libkeyutils1 libldap-2.5-0 libsasl2-2 "
	       "libgnutls30 libgmp10 libhogweed6 libnettle8 libidn2-0 libunistring2 libp11-kit0 "
	       "libffi8 libtasn1-6 libpam0g libaudit1 libcap-ng0 libsystemd0 libcap2 libgcrypt20 "
	       "libgpg-error0\n", major, major);
	return 0;
}

/* Debian 12 packages the kept flags need (headers, dtrace, the tools). */
static const char build_deps[] = "gcc make bison flex perl pkgconf mawk libicu-dev libssl-dev "
	"libxml2-dev zlib1g-dev libreadline-dev liblz4-dev libzstd-dev libnuma-dev liburing-dev "
	"systemtap-sdt-dev";
/* Flags of the package the lab drops, and why (each for what the lab never
 * loads), so that their -dev packages are not needed. */
static const char *const drop[] = {
	"--with-tcl", "--with-perl", "--with-python", "--with-pam", "--with-gssapi", "--with-ldap",
	"--with-libxslt", "--with-uuid=e2fs", "--with-selinux", "--with-systemd", "--with-libcurl",
	"--with-llvm", "--enable-nls", "--enable-tap-tests", NULL,
};
static const char drop_why[] = "procedural languages (tcl, perl, python), authentication (pam, "
	"gssapi, ldap; the clusters use trust), contrib modules the lab does not load (xml2: libxslt, "
	"uuid-ossp: uuid, sepgsql: selinux), sd_notify (pg_ctl starts the servers), OAuth (libcurl), "
	"JIT (llvm; left out of the fetched roots too), message translations (the clusters are "
	"--no-locale), TAP tests";
/* Programs the dropped flags would have configure look for. */
static const char *const drop_vars[] = { "PROVE=", "PYTHON=", "XSLTPROC=", "LLVM_CONFIG=", "CLANG=",
					 NULL };

/* The patches pg/patches/MAJOR has, space-separated, each followed by a space. */
static void patches(const char *top, const char *major, char *buf, size_t len)
{
	char pat[4200];
	glob_t g;
	size_t off = 0;
	buf[0] = '\0';
	snprintf(pat, sizeof(pat), "%s/pg/patches/%s/*.patch", top, major);
	if (glob(pat, 0, NULL, &g) != 0)
		return;
	for (size_t i = 0; i < g.gl_pathc && off < len; i++) {
		const char *b = strrchr(g.gl_pathv[i], '/') + 1;
		off += (size_t)snprintf(buf + off, len - off, "%.*s ", (int)(strlen(b) - 6), b);
	}
	globfree(&g);
}

int info_pg_patches(const char *top, const char *major)
{
	char names[2048];
	patches(top, major, names, sizeof(names));
	for (char *s = strtok(names, " "); s; s = strtok(NULL, " "))
		printf("%s\n", s);
	return 0;
}

int info_pg_build(const char *top, const char *major, const char *patch, const char *key)
{
	char pfile[4200] = "", names[2048], dropped[1024];
	size_t off = 0;
	if (strcmp(patch, "none")) {
		snprintf(pfile, sizeof(pfile), "%s/pg/patches/%s/%s.patch", top, major, patch);
		FILE *f = strchr(patch, '/') ? NULL : fopen(pfile, "r");
		if (!f) {
			patches(top, major, names, sizeof(names));
			plan_die("no patch %s for PostgreSQL %s; pg/patches/%s has: %s", patch, major,
				 major, names);
		}
		fclose(f);
	}
	for (int i = 0; drop[i]; i++)
		off += (size_t)snprintf(dropped + off, sizeof(dropped) - off, "%s ", drop[i]);
	snprintf(dropped + off, sizeof(dropped) - off, "— %s", drop_why);
	const char *rows[][2] = { { "patch", pfile }, { "deps", build_deps }, { "dropped", dropped } };
	return print_rows(rows, sizeof(rows) / sizeof(rows[0]), key);
}

bool pg_configure_flag(const char *flag, const char *srcver, const char *patch, char *out,
		       size_t len)
{
	for (int i = 0; drop[i]; i++)
		if (!strcmp(flag, drop[i]))
			return false;
	for (int i = 0; drop_vars[i]; i++)
		if (!strncmp(flag, drop_vars[i], strlen(drop_vars[i])))
			return false;
	/* --with-extra-version says the build and its patch, so the server's
	 * version() (in every document) names them. */
	if (!strncmp(flag, "--with-extra-version=", 21))
		snprintf(out, len, "--with-extra-version= (Debian %s, preemptlab build, patch %s)",
			 srcver, patch);
	else
		snprintf(out, len, "%s", flag);
	return true;
}

int info_pg_configure_flags(const char *srcver, const char *patch)
{
	char line[4096], out[4200];
	bool version = false;
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (pg_configure_flag(line, srcver, patch, out, sizeof(out))) {
			version |= !strncmp(out, "--with-extra-version=", 21);
			printf("%s\n", out);
		}
	}
	return version ? 0 : 1;
}

/* A Depends entry worth unpacking: a shared library.  LLVM is the JIT
 * provider's (left out with it), perl's are the cluster tools'. */
bool pg_library_package(const char *name)
{
	if (!strncmp(name, "libllvm", 7) || !strncmp(name, "libperl", 7))
		return false;
	size_t n = strlen(name);
	if (n >= 5 && !strcmp(name + n - 5, "-perl"))
		return false;
	return !strncmp(name, "lib", 3) || !strcmp(name, "zlib1g");
}

/* One Depends entry ("libc6 (>= 2.38) | libfoo:any"): its alternatives up
 * to the first that is no library, space-separated, into out. */
void pg_depends_entry(const char *entry, char *out, size_t len)
{
	char buf[1024], *save = NULL;
	size_t j = 0, off = 0;
	int depth = 0;
	for (size_t i = 0; entry[i] && j < sizeof(buf) - 1; i++) {
		depth += entry[i] == '(';
		if (!depth)
			buf[j++] = entry[i] == '|' ? ' ' : entry[i];
		depth -= entry[i] == ')' && depth;
	}
	buf[j] = '\0';
	out[0] = '\0';
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char *any = strstr(w, ":any");
		if (any)
			memmove(any, any + 4, strlen(any + 4) + 1);
		if (!pg_library_package(w))
			break;
		off += (size_t)snprintf(out + off, len - off, "%s%s", off ? " " : "", w);
	}
}

/* One suite's Packages list: each paragraph's name, version and
 * dependency lines (Depends and Pre-Depends, in the paragraph's order). */
struct pg_pkg {
	char *name, *version, *deps[2];
};
struct pg_list {
	const char *suite;
	struct pg_pkg *p;
	size_t n, cap;
};

static char *dup_value(const char *line, size_t skip)
{
	char *v = strdup(line + skip);
	if (!v)
		plan_die("out of memory reading a Packages list");
	v[strcspn(v, "\n")] = '\0';
	return v;
}

static void read_list(struct pg_list *l, const char *suite, const char *path)
{
	char line[65536];
	FILE *f = fopen(path, "r");
	if (!f)
		plan_die("cannot read %s (%s's Packages list)", path, suite);
	l->suite = suite;
	struct pg_pkg cur = { 0 };
	int nd = 0;
	for (bool more = true; more;) {
		more = fgets(line, sizeof(line), f) != NULL;
		if (!more || line[0] == '\n') {
			if (cur.name && cur.version) {
				if (l->n == l->cap) {
					l->cap = l->cap ? 2 * l->cap : 4096;
					l->p = realloc(l->p, l->cap * sizeof(*l->p));
					if (!l->p)
						plan_die("out of memory reading %s", path);
				}
				l->p[l->n++] = cur;
			} else {
				free(cur.name), free(cur.version), free(cur.deps[0]), free(cur.deps[1]);
			}
			memset(&cur, 0, sizeof(cur));
			nd = 0;
		} else if (!strncmp(line, "Package: ", 9) && !cur.name)
			cur.name = dup_value(line, 9);
		else if (!strncmp(line, "Version: ", 9) && !cur.version)
			cur.version = dup_value(line, 9);
		else if (nd < 2 && !strncmp(line, "Depends: ", 9))
			cur.deps[nd++] = dup_value(line, 9);
		else if (nd < 2 && !strncmp(line, "Pre-Depends: ", 13))
			cur.deps[nd++] = dup_value(line, 13);
	}
	fclose(f);
}

/* NAME's paragraph in L (VERSION's, or the first: a suite's list holds one
 * version a package, as apt-cache madison shows it), or NULL. */
static const struct pg_pkg *find(const struct pg_list *l, const char *name, const char *version)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->p[i].name, name) && (!version || !strcmp(l->p[i].version, version)))
			return &l->p[i];
	return NULL;
}

struct pg_set {
	const char *name[512], *suite[512];
	const struct pg_pkg *pkg[512];
	int n;
};

/* Add NAME from FIRST's list, or else the other one's; false when neither
 * has it. */
static bool pick(struct pg_set *set, const struct pg_list *first, const struct pg_list *other,
		 const char *name)
{
	for (const struct pg_list *l = first; l; l = l == first ? other : NULL) {
		const struct pg_pkg *p = find(l, name, NULL);
		if (p && set->n < 512) {
			set->name[set->n] = p->name, set->suite[set->n] = l->suite, set->pkg[set->n] = p;
			set->n++;
			return true;
		}
	}
	return false;
}

int info_pg_package_set(const char *major, const char *suite, const char *suite_list,
			const char *base, const char *base_list)
{
	static struct pg_list s, b;
	static struct pg_set set;
	char start[128], out[1024];
	read_list(&s, suite, suite_list);
	if (strcmp(base, suite))
		read_list(&b, base, base_list);
	/* The server, its client and libpq5 from the major's suite; the
	 * libraries from the base suite first. */
	snprintf(start, sizeof(start), "postgresql-%s postgresql-client-%s libpq5", major, major);
	for (char *save = NULL, *w = strtok_r(start, " ", &save); w; w = strtok_r(NULL, " ", &save))
		pick(&set, &s, NULL, w);
	const struct pg_list *first = b.n ? &b : &s, *other = b.n ? &s : NULL;
	for (int q = 0; q < set.n; q++) {
		for (int k = 0; k < 2 && set.pkg[q]->deps[k]; k++) {
			char deps[65536], *save = NULL;
			snprintf(deps, sizeof(deps), "%s", set.pkg[q]->deps[k]);
			/* Of an entry's library alternatives, the first that exists. */
			for (char *e = strtok_r(deps, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
				char *save2 = NULL;
				pg_depends_entry(e, out, sizeof(out));
				for (char *d = strtok_r(out, " ", &save2); d; d = strtok_r(NULL, " ", &save2)) {
					bool have = false;
					for (int i = 0; i < set.n && !have; i++)
						have = !strcmp(set.name[i], d);
					if (have || pick(&set, first, other, d))
						break;
				}
			}
		}
	}
	for (int i = 0; i < set.n; i++)
		printf("%s %s %s\n", set.name[i], set.pkg[i]->version, set.suite[i]);
	return 0;
}

struct tree_line {
	char *line, *path;
	size_t order;
};

static int by_path(const void *a, const void *b)
{
	const struct tree_line *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* A path of the merged /usr link L ("lib": /lib is usr/lib): L itself or
 * under it. */
static bool under(const char *path, const char *l)
{
	size_t n = strlen(l);
	return !strncmp(path, l, n) && (path[n] == '\0' || path[n] == '/');
}

int info_pg_root_expect(const char *major)
{
	char bin[64], lib[64], buf[8192];
	snprintf(bin, sizeof(bin), "usr/lib/postgresql/%s/bin/", major);
	snprintf(lib, sizeof(lib), "usr/lib/postgresql/%s/lib/", major);
	size_t n = 0, cap = 0, nb = strlen(bin), nl = strlen(lib);
	struct tree_line *t = NULL;
	while (fgets(buf, sizeof(buf), stdin)) {
		buf[strcspn(buf, "\n")] = '\0';
		char *p = strchr(buf, '\t');
		p = p ? strchr(p + 1, '\t') : NULL;
		if (!p)
			continue;
		p++;
		/* The JIT provider (llvmjit*.so and its bitcode) is left out. */
		const char *in_lib = !strncmp(p, lib, nl) ? p + nl : NULL;
		size_t ln = in_lib ? strlen(in_lib) : 0;
		if (in_lib && ((!strncmp(in_lib, "llvmjit", 7) && ln > 3 &&
				!strcmp(in_lib + ln - 3, ".so") && !strchr(in_lib, '/')) ||
			       !strncmp(in_lib, "bitcode/", 8)))
			continue;
		char line[8300];
		/* The programs are in bin.elf/, bin/ holds their wrappers. */
		if (!strncmp(p, bin, nb))
			snprintf(line, sizeof(line), "%.*s%.*s.elf/%s", (int)(p - buf), buf, (int)nb - 1,
				 bin, p + nb);
		else
			snprintf(line, sizeof(line), "%s", buf);
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			t = realloc(t, cap * sizeof(*t));
			if (!t)
				plan_die("out of memory reading the packages' trees");
		}
		t[n].line = strdup(line);
		if (!t[n].line)
			plan_die("out of memory reading the packages' trees");
		t[n].path = strchr(strchr(t[n].line, '\t') + 1, '\t') + 1;
		t[n].order = n;
		n++;
	}
	/* Later packages over earlier ones (cp -al): a path's last line. */
	qsort(t, n, sizeof(*t), by_path);
	bool has[2] = { false, false }, usr[2] = { false, false };
	const char *merged[2] = { "lib", "lib64" }, *usr_dir[2] = { "usr/lib/", "usr/lib64/" };
	for (size_t i = 0; i < n; i++) {
		for (int k = 0; k < 2; k++) {
			has[k] |= under(t[i].path, merged[k]);
			usr[k] |= !strncmp(t[i].path, usr_dir[k], strlen(usr_dir[k]));
		}
		if (i + 1 == n || strcmp(t[i].path, t[i + 1].path))
			printf("%s\n", t[i].line);
	}
	/* Debian's merged /usr: the links pg-fetch.sh adds where no package
	 * ships /lib or /lib64 and usr/ has them. */
	for (int k = 0; k < 2; k++)
		if (!has[k] && usr[k])
			printf("l\tusr/%s\t%s\n", merged[k], merged[k]);
	return 0;
}
