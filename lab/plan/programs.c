/*
 * The programs a plan will run, looked up before anything is made.
 *
 * A fresh machine once planned a guest, created its results directory,
 * fetched two kernels and booted nothing, because QEMU had never been
 * installed: the failure surfaced minutes later as "qemu-system-x86_64:
 * not found" in the runner.  Every external program a unit needs is found
 * here instead, on PATH (or at the path its variable names), and a plan
 * that lacks one is refused at once with the Debian package that provides
 * it.  The package names are the ones ./configure installs
 * (./configure --list-packages); tests/e2e/packages.sh checks that each
 * program below is provided by a package on that list.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"

/* NAME as a command: a path (it contains a slash) or a PATH search. */
static bool runnable(const char *name)
{
	struct stat st;
	if (strchr(name, '/'))
		return stat(name, &st) == 0 && S_ISREG(st.st_mode) && access(name, X_OK) == 0;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/bin:/bin";
	char dir[PATH_MAX + NAME_MAX + 2];
	while (*path) {
		size_t n = strcspn(path, ":");
		if (n == 0) {
			snprintf(dir, sizeof(dir), "./%s", name);
		} else {
			if (n > PATH_MAX)
				n = PATH_MAX;
			snprintf(dir, sizeof(dir), "%.*s/%s", (int)n, path, name);
		}
		if (stat(dir, &st) == 0 && S_ISREG(st.st_mode) && access(dir, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

static void need(const char *prog, const char *var, const char *pkg, const char *why)
{
	if (runnable(prog))
		return;
	if (var)
		plan_die("%s=%s: no such program (needed for %s); unset %s, or apt-get install %s "
			 "(./configure --install-deps)", var, prog, why, var, pkg);
	plan_die("no %s here (needed for %s); apt-get install %s (or ./configure --install-deps)", prog,
		 why, pkg);
}

/* The emulator the runner will start: the architecture's, or its variable's ($QEMU). */
static void need_emulator(const struct plan *p)
{
	const char *var = p->garch->qemu_var;
	const char *given = var_get(var);
	const char *pkg = p->garch->qemu_package;
	char why[sizeof(p->kernel_asked) + 64];
	snprintf(why, sizeof(why), "the %s guests of KERNEL=%s", p->arch, p->kernel_asked);
	if (given && *given)
		need(given, var, pkg, why);
	else
		need(p->garch->qemu, NULL, pkg, why);
}

void plan_check_programs(const struct plan *p)
{
	bool guest = strcmp(p->kernel.source, "host") != 0;
	/* No jq: the scripts read JSON with build/jget and write it with
	 * build/manifest, build/jobj and build/attach-manifest. */
	if (guest) {
		need_emulator(p);
		/* The initramfs: busybox, packed with cpio and gzip. */
		if (p->garch->host_userland)
			need("/bin/busybox", NULL, "busybox-static", "the guests' initramfs");
		need("cpio", NULL, "cpio", "the guests' initramfs");
		/* Kernels and arm64 packages come through the private apt,
		 * whose signatures gpgv checks, unpacked with dpkg-deb. */
		need("gpgv", NULL, "gpgv", "checking the signed package lists of the kernels");
		need("dpkg-deb", NULL, "dpkg", "unpacking the kernel packages");
	}
	if (p->profile)
		need("perf", NULL, "linux-perf", "PROFILE=on");
	/* PostgreSQL's binaries come from the host's packages, for the host and
	 * for an amd64 guest (scripts/pg-guest-files.sh); an arm64 guest's are
	 * Debian's arm64 ones, fetched through the private apt. */
	if (p->pgbench && (!guest || p->garch->host_userland) && !p->cross) {
		bool found = false;
		char bin[PATH_MAX];
		for (int v = 30; v >= 12 && !found; v--) {
			snprintf(bin, sizeof(bin), "/usr/lib/postgresql/%d/bin/pgbench", v);
			found = runnable(bin);
		}
		if (!found)
			plan_die("PGBENCH=on: no PostgreSQL server and pgbench in /usr/lib/postgresql/*/bin; "
				 "apt-get install postgresql-15 postgresql-contrib (or ./configure "
				 "--install-deps), or PGBENCH=off");
	}
}
