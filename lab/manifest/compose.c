/*
 * The manifest: the plan, and what came of it.  Planned facts (a unit's
 * kind, role and models, the cell count) are taken from plan.json, never
 * restated by the runner; observed ones (kernel image, accelerator, boot
 * times, why a cell has no result) from logs/outcomes.tsv; counts of
 * results from the run directory itself.
 */
#include "manifest.h"

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

static const char *str_of(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* A run fact as a string, null when the runner had none. */
static json_t *fact(json_t *run, const char *key)
{
	const char *s = str_of(run, key);
	return *s ? json_string(s) : json_null();
}

/*
 * MITIGATIONS' servers (logs/pg-roots.tsv, scripts/pg-roots.sh): per
 * (version, build) the root and package; build is debian (the package)
 * or the lab's build of Debian's source with its patch (none, prefault,
 * touch-before-lock).  Empty without MITIGATIONS' pgbench cells.
 */
static json_t *pg_servers(const char *rundir)
{
	char path[4200], line[8192];
	json_t *a = json_array();
	snprintf(path, sizeof(path), "%s/logs/pg-roots.tsv", rundir);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *fld[4] = { 0 }, *p = line;
		line[strcspn(line, "\n")] = '\0';
		for (int i = 0; i < 4 && p; i++) {
			fld[i] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (!fld[3])
			continue;
		json_t *o = json_object();
		json_object_set_new(o, "version", json_string(fld[0]));
		json_object_set_new(o, "build", json_string(fld[1]));
		json_object_set_new(o, "patch", strcmp(fld[1], "debian") ? json_string(fld[1]) : json_null());
		json_object_set_new(o, "root", *fld[2] ? json_string(fld[2]) : json_null());
		json_object_set_new(o, "package", json_string(fld[3]));
		json_array_append_new(a, o);
	}
	if (f)
		fclose(f);
	return a;
}

/* Copy src's key into dst (null when absent): the manifest's keys are fixed. */
static void take(json_t *dst, json_t *src, const char *key)
{
	json_t *v = json_object_get(src, key);
	json_object_set(dst, key, v ? v : json_null());
}

static size_t count_files(const char *dir, const char *prefix, const char *suffix)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0, pl = strlen(prefix), sl = strlen(suffix);
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l >= pl + sl && !strncmp(e->d_name, prefix, pl) &&
		    !strcmp(e->d_name + l - sl, suffix))
			n++;
	}
	closedir(d);
	return n;
}

static json_t *plan_unit(json_t *plan, const char *id)
{
	size_t i;
	json_t *u;
	json_array_foreach(json_object_get(plan, "units"), i, u) {
		if (!strcmp(str_of(u, "id"), id))
			return u;
	}
	return NULL;
}

static json_t *host_object(json_t *run)
{
	struct utsname un;
	json_t *h = json_object();
	if (uname(&un) == 0) {
		char all[5 * sizeof(un.release) + 16];
		/* uname -a on GNU/Linux: the operating system ends the line. */
		snprintf(all, sizeof(all), "%s %s %s %s %s GNU/Linux", un.sysname, un.nodename,
			 un.release, un.version, un.machine);
		json_object_set_new(h, "release", json_string(un.release));
		json_object_set_new(h, "uname", json_string(all));
	}
	cpu_set_t set;
	int cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 0;
	json_object_set_new(h, "cpus", cpus ? json_integer(cpus) : json_null());
	json_object_set_new(h, "hostname", json_string(un.nodename));
	json_object_set_new(h, "preempt_before", fact(run, "preempt_before"));
	json_object_set_new(h, "preempt_after", fact(run, "preempt_after"));
	return h;
}

static json_t *unit_object(json_t *plan, json_t *seen)
{
	static const char *const kernel_keys[] = {
		"label", "arch", "version", "package", "package_version", "suite", "image",
		"image_sha256", "config", "release",
	};
	const char *id = str_of(seen, "unit");
	json_t *pu = plan_unit(plan, id), *u = json_object();
	json_object_set_new(u, "unit", json_string(id));
	take(u, pu, "kind");
	take(u, pu, "role");
	for (size_t k = 0; k < sizeof(kernel_keys) / sizeof(kernel_keys[0]); k++)
		take(u, seen, kernel_keys[k]);
	take(u, pu, "models");
	take(u, pu, "boot_model");
	const char *accel = str_of(seen, "accel");
	json_object_set_new(u, "accel", json_string(accel));
	json_object_set_new(u, "emulated", json_boolean(strcmp(accel, "kvm") != 0));
	take(u, seen, "cmdline");
	const char *ghp = str_of(seen, "guest_hugepages");
	char mem[96];
	snprintf(mem, sizeof(mem), "host huge pages of %s (memfd hugetlb)", ghp);
	json_object_set_new(u, "guest_memory",
			    !strcmp(str_of(pu, "kind"), "host") ? json_null()
			    : !*ghp || !strcmp(ghp, "off") ? json_string("host memory")
			    : json_string(mem));
	return u;
}

static json_t *boot_object(json_t *seen)
{
	static const char *const keys[] = {
		"unit", "label", "boot", "end", "wall_s", "ready_s", "first_result_s",
		"console", "channel", "vcpus_pinned", "pin_log",
	};
	json_t *b = json_object();
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		take(b, seen, keys[k]);
	return b;
}

static json_t *cells_object(const char *rundir, json_t *plan, json_t *seen)
{
	char runs[4096];
	snprintf(runs, sizeof(runs), "%s/runs", rundir);
	size_t failed = 0, unavailable = 0, passed = 0, i;
	json_t *c, *list = json_array();
	json_array_foreach(seen, i, c) {
		const char *st = str_of(c, "status");
		failed += !strcmp(st, "failed");
		unavailable += !strcmp(st, "unavailable");
		passed += !strcmp(st, "passed");
		if (strcmp(st, "passed")) {
			json_t *o = json_object();
			take(o, c, "id");
			take(o, c, "status");
			take(o, c, "reason");
			take(o, c, "log");
			json_array_append_new(list, o);
		}
	}
	json_t *cells = json_object();
	json_t *total = json_object_get(json_object_get(plan, "estimate"), "cells");
	json_object_set(cells, "total", total ? total : json_null());
	json_object_set_new(cells, "ok",
			    json_integer((json_int_t)(count_files(runs, "bufbench-", ".json") + passed)));
	json_object_set_new(cells, "failed", json_integer((json_int_t)failed));
	json_object_set_new(cells, "unavailable", json_integer((json_int_t)unavailable));
	json_object_set_new(cells, "pgbench_documents",
			    json_integer((json_int_t)count_files(runs, "pgbench-", ".json")));
	/* Cells without a result, and why: failed, or unavailable here. */
	json_object_set_new(cells, "outcomes", list);
	return cells;
}

json_t *manifest_compose(const char *rundir, char *err, size_t errlen)
{
	char path[4096];
	json_error_t je;
	snprintf(path, sizeof(path), "%s/plan.json", rundir);
	json_t *plan = json_load_file(path, 0, &je);
	if (!plan || !json_is_object(plan)) {
		snprintf(err, errlen, "%s: %s", path, plan ? "not an object" : je.text);
		json_decref(plan);
		return NULL;
	}
	struct outcomes oc;
	snprintf(path, sizeof(path), "%s/logs/outcomes.tsv", rundir);
	if (outcomes_read(path, &oc, err, errlen)) {
		outcomes_free(&oc);
		json_decref(plan);
		return NULL;
	}
	json_t *m = json_object(), *settings = json_object_get(plan, "settings");
	json_object_set_new(m, "schema", json_string(MANIFEST_SCHEMA));
	take(m, plan, "command");
	json_object_set_new(m, "lab_revision", fact(oc.run, "lab_revision"));
	json_object_set_new(m, "host", host_object(oc.run));
	json_object_set_new(m, "qemu", fact(oc.run, "qemu"));
	/* PG_VERSION: the major asked, the package that ran, and where the
	 * fetched root was (null: the host's own server). */
	json_t *pg = json_object();
	json_object_set_new(pg, "version", fact(oc.run, "pg_version"));
	json_object_set_new(pg, "package", fact(oc.run, "pg_package"));
	json_object_set_new(pg, "root", fact(oc.run, "pg_root"));
	json_object_set_new(pg, "servers", pg_servers(rundir));
	json_object_set_new(m, "postgresql", pg);

	int on_host = !strcmp(str_of(json_object_get(settings, "kernel"), "source"), "host");
	char perf[4096];
	snprintf(perf, sizeof(perf), "%s/perf", rundir);
	json_t *prof = json_object();
	json_object_set_new(prof, "where", json_string(on_host ? "host" : "guest"));
	json_object_set_new(prof, "event", json_string(on_host
		? "perf default (cycles, or cpu-clock without a PMU)" : "cpu-clock"));
	json_object_set_new(prof, "profiles", json_integer((json_int_t)(
		count_files(perf, "", ".perf.txt") + count_files(perf, "", ".folded"))));
	json_object_set_new(m, "profile", prof);

	size_t i;
	json_t *o, *units = json_array(), *boots = json_array();
	json_array_foreach(oc.units, i, o)
		json_array_append_new(units, unit_object(plan, o));
	json_array_foreach(oc.boots, i, o)
		json_array_append_new(boots, boot_object(o));
	json_object_set_new(m, "units", units);
	json_object_set_new(m, "boots", boots);
	json_object_set_new(m, "cells", cells_object(rundir, plan, oc.cells));

	json_t *st = json_object_get(oc.run, "started"), *en = json_object_get(oc.run, "ended");
	json_object_set_new(m, "wall_s", json_is_integer(st) && json_is_integer(en)
		? json_integer(json_integer_value(en) - json_integer_value(st)) : json_null());
	json_object_set_new(m, "interrupted", json_boolean(json_is_true(json_object_get(oc.run, "interrupted"))));
	json_object_set_new(m, "stopped_by", fact(oc.run, "stopped_by"));
	json_object_set(m, "plan", plan);
	outcomes_free(&oc);
	json_decref(plan);
	return m;
}
