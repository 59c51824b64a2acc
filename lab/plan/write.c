/*
 * The plan on disk.  plan.json is the record (the manifest embeds it);
 * the runners read flat files made from the same structures, never shell
 * code: plan/bench.conf (key TAB value) for scripts/run-plan.sh,
 * plan/units.tsv (one unit a line), and per unit one plan file,
 * plan/UNIT.plan: the keys the cell runner, lab/runner/ (which runs the host's unit
 * too) and the programs read, the keys run-plan.sh runs the unit by
 * (boot.c), then one "cell" line a cell, in order.
 *
 * A cell line is TAB-separated, after "cell":
 *   bufbench ID MODEL PAGES OPTIONAL PROFILE ARGV   ARGV: bufbench's options,
 *                                              blank-separated, exactly;
 *                                              PROFILE: on | off, perf record
 *                                              around this run
 *   pgbench ID HUGE_PAGES MODELS CLIENTS REPEAT    (comma lists)
 *           [MITIGATION PG_VERSION PG_BUILD]      under MITIGATIONS: the cell's
 *                                              mitigation and server: a major
 *                                              (or system) and debian (its
 *                                              package) or a build of the
 *                                              lab's (scripts/pg-build.sh)
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json.h"
#include "knobs.h"
#include "plan.h"
#include "scenario.h"

static void json_list(struct json *j, const char *key, const struct list *l)
{
	json_begin_array(j, key);
	for (int i = 0; i < l->n; i++)
		json_str(j, NULL, l->item[i]);
	json_end_array(j);
}

static void json_kernel(struct json *j, const char *key, const struct kernel_ref *k)
{
	json_begin_object(j, key);
	json_str(j, "asked", k->asked);
	json_str(j, "label", k->label);
	json_str(j, "source", k->source);
	json_list(j, "models_offered", &k->models);
	json_str(j, "default_model", k->default_model);
	json_end_object(j);
}

/* Every scaling a scenario made, so the report can state it. */
static void json_scenario(struct json *j, const struct plan *p)
{
	const struct seed_sizing *s = scenario_seed();
	json_begin_object(j, "scenario");
	json_str(j, "name", p->scenario);
	if (s) {
		json_int(j, "cpus", s->cpus);
		json_int(j, "ram_mb", s->guest ? s->guest_mem_mb : s->ram_mb);
		json_int(j, "clients", s->clients);
		json_double(j, "clients_per_cpu_report", SEED_CLIENTS_PER_CPU);
		json_int(j, "pool_mb", s->pool_mb);
		json_double(j, "pool_share_report", SEED_POOL_SHARE);
		json_int(j, "relation_mb", s->relation_mb);
		json_double(j, "relation_over_pool_report", SEED_RELATION_OVER_POOL);
		json_int(j, "pg_shared_buffers_mb", s->pg_shared_buffers_mb);
		json_int(j, "pg_scale", s->pg_scale);
		json_int(j, "duration_limit_s", s->duration_s);
		json_int(j, "steady_s", s->steady_s);
		json_int(j, "pg_duration_s", s->pg_duration_s);
	}
	const struct hot_sizing *h = scenario_hot();
	if (h) {
		json_int(j, "cpus", h->cpus);
		json_int(j, "clients", h->clients);
		json_int(j, "clients_per_cpu", HOT_CLIENTS_PER_CPU);
		json_int(j, "pool_mb", h->pool_mb);
		json_double(j, "fill_rate_per_s", h->guest ? HOT_GUEST_FILL_RATE : HOT_HOST_FILL_RATE);
		json_int(j, "fill_s_wanted", HOT_FILL_S);
		json_bool(j, "pool_capped", h->pool_capped);
		json_int(j, "relation_mb", h->relation_mb);
		json_int(j, "relation_over_pool", HOT_RELATION_OVER_POOL);
		json_str(j, "spins_per_delay", h->guest ? HOT_GUEST_SPINS : HOT_HOST_SPINS);
		json_str(j, "freelist_stride", h->guest ? HOT_GUEST_STRIDE : HOT_HOST_STRIDE);
		if (h->guest)
			json_str(j, "fault_around", HOT_FAULT_AROUND);
		else
			json_str(j, "fault_around", "the host kernel's own (not settable here)");
		json_int(j, "duration_limit_s", h->duration_s);
		json_int(j, "steady_s", h->steady_s);
	}
	json_end_object(j);
}

static void json_settings(struct json *j, const struct plan *p)
{
	json_scenario(j, p);
	json_begin_object(j, "settings");
	json_kernel(j, "kernel", &p->kernel);
	if (p->has_baseline)
		json_kernel(j, "baseline", &p->baseline);
	else
		json_null(j, "baseline");
	/* What every cell is compared with; same_kernel: only the model differs. */
	if (p->baseline_variant[0])
		json_str(j, "baseline_variant", p->baseline_variant);
	else
		json_null(j, "baseline_variant");
	json_bool(j, "baseline_same_kernel", p->baseline_same_kernel);
	json_str(j, "hugepages", p->hugepages);
	/*
	 * Under MITIGATIONS the lists also hold what the mitigations are made
	 * of (for sizing); the record keeps the base the user gave, so that
	 * the reproduce line asks for the same plan again.
	 */
	struct list base_pages = p->pages, base_locks = p->locks, base_strats = p->strategies;
	if (p->mitigations.n) {
		base_pages.n = base_locks.n = base_strats.n = 1;
		snprintf(base_pages.item[0], PLAN_NAME, "%s", p->mit_pages);
		snprintf(base_locks.item[0], PLAN_NAME, "%s", p->mit_lock);
		snprintf(base_strats.item[0], PLAN_NAME, "%s", p->mit_strategy);
	}
	json_list(j, "pages", &base_pages);
	json_bool(j, "pages_given", p->pages_given);
	json_list(j, "models", &p->models);
	if (p->has_baseline)
		json_list(j, "baseline_models", &p->baseline_models);
	json_list(j, "clients", &p->clients);
	json_list(j, "locks", &base_locks);
	json_list(j, "strategies", &base_strats);
	json_list(j, "mitigations", &p->mitigations);
	json_int(j, "duration_s", p->duration_s);
	json_int(j, "warmup_s", p->warmup_s);
	json_int(j, "repeat", p->repeat);
	json_int(j, "boots", p->boots);
	json_str(j, "pool", p->pool);
	json_str(j, "relation", p->relation);
	json_str(j, "workload", p->workload);
	json_int(j, "freelist_stride", p->freelist_stride);
	json_int(j, "steady_s", p->steady_s);
	json_bool(j, "hold_events", p->hold_events);
	json_bool(j, "repro_min", p->repro_min);
	json_bool(j, "evidence", p->evidence);
	json_bool(j, "costbench", p->costbench);
	json_bool(j, "controls", p->controls);
	if (p->slice_ext_us)
		json_int(j, "slice_ext_us", p->slice_ext_us);
	else
		json_null(j, "slice_ext_us");
	if (p->fault_around_bytes)
		json_int(j, "fault_around_bytes", (long)p->fault_around_bytes);
	else
		json_null(j, "fault_around_bytes");
	char spd[32] = "adaptive";
	if (p->fixed_spins_per_delay)
		snprintf(spd, sizeof(spd), "fixed:%ld", p->fixed_spins_per_delay);
	json_str(j, "spins_per_delay", spd);
	if (p->base_slice_us)
		json_int(j, "base_slice_us", p->base_slice_us);
	else
		json_null(j, "base_slice_us");
	json_list(j, "bufbench_args", &p->bufbench_argv);
	json_begin_object(j, "pgbench");
	json_bool(j, "enabled", p->pgbench);
	if (p->pgbench) {
		json_list(j, "huge_pages", &p->pg_huge_pages);
		json_str(j, "shared_buffers", p->pg_shared_buffers);
		json_list(j, "builtins", &p->pg_builtins);
		json_str(j, "scale", p->pg_scale[0] ? p->pg_scale : "auto");
		json_int(j, "repeat", p->pg_repeat);
		json_int(j, "duration_s", p->pg_duration_s);
		json_int(j, "fillfactor", p->pg_fillfactor);
		json_bool(j, "cold", p->pg_cold);
		json_bool(j, "warmup", p->pg_warmup);
		json_bool(j, "buffercache", p->pg_buffercache);
		json_str(j, "version", p->pg_version);
		json_str(j, "suite", p->pg_suite);
	}
	json_end_object(j);
	json_begin_object(j, "profile");
	json_bool(j, "enabled", p->profile);
	json_int(j, "freq_hz", p->profile_freq);
	json_str(j, "callgraph", p->profile_callgraph);
	json_end_object(j);
	json_str(j, "model_switch", p->model_switch);
	json_str(j, "accel", p->accel);
	json_str(j, "arch", p->arch);
	json_int(j, "icount_shift", p->icount_shift);
	json_str(j, "icount_epoch", p->icount_epoch);
	json_int(j, "vcpus", p->vcpus);
	json_int(j, "host_cpus", p->host_cpus);
	if (strcmp(p->kernel.source, "host") != 0) {
		json_str(j, "host_topology", p->host_topology);
		json_str(j, "pin_vcpus", p->pin);
		json_begin_array(j, "vcpu_pin");
		for (long v = 0; v < p->vcpus; v++)
			json_int(j, NULL, p->vcpu_pin[v]);
		json_end_array(j);
		json_str(j, "guest_hugepages", p->guest_hugepages);
		json_int(j, "guest_hugepages_count", p->guest_hp_pages);
	}
	json_end_object(j);
}

static void json_cell(struct json *j, const struct cell *c)
{
	json_begin_object(j, NULL);
	json_str(j, "id", c->id);
	json_str(j, "tool", c->tool);
	if (strcmp(c->tool, "bufbench") == 0) {
		json_str(j, "model", c->model);
		json_str(j, "pages", c->pages);
		json_str(j, "lock", c->lock);
		json_str(j, "strategy", c->strategy);
		if (c->mitigation[0])
			json_str(j, "mitigation", c->mitigation);
		json_int(j, "clients", c->clients);
		json_int(j, "rep", c->rep);
		json_bool(j, "optional", c->optional);
		const char *names[8];
		int n;
		plan_instrument_names(c->inst, names, &n);
		json_begin_array(j, "instruments");
		for (int i = 0; i < n; i++)
			json_str(j, NULL, names[i]);
		json_end_array(j);
		json_bool(j, "control", c->control);
	} else {
		json_str(j, "huge_pages", c->huge_pages);
		json_list(j, "models", c->pg_models);
		json_list(j, "clients", c->pg_clients);
		json_int(j, "repeat", c->pg_repeat);
		if (c->mitigation[0]) {
			json_str(j, "mitigation", c->mitigation);
			json_str(j, "pg_version", c->pg_major);
			json_str(j, "pg_build", c->pg_build);
		}
	}
	json_end_object(j);
}

static int write_json(const struct plan *p, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	struct json j;
	json_init(&j, f);
	json_begin_object(&j, NULL);
	json_str(&j, "schema", "preemptlab.plan/1");
	json_str(&j, "command", p->command);
	json_settings(&j, p);
	json_begin_object(&j, "sizing");
	json_uint(&j, "segment_bytes", p->segment_bytes);
	json_int(&j, "hugepages_2m", p->hp2m);
	json_int(&j, "hugepages_1g", p->hp1g);
	if (strcmp(p->kernel.source, "host") != 0) {
		json_int(&j, "guest_mem_mb", p->mem_mb);
		json_int(&j, "initramfs_mb", p->rootfs_mb);
	}
	json_end_object(&j);
	json_begin_array(&j, "units");
	size_t cells = 0, bb = 0, pgc = 0, pgr = 0;
	for (int i = 0; i < p->nunits; i++) {
		const struct unit *u = &p->units[i];
		json_begin_object(&j, NULL);
		json_str(&j, "id", u->id);
		json_str(&j, "kind", u->kind);
		json_str(&j, "role", u->role);
		json_str(&j, "kernel", u->kernel->label);
		json_str(&j, "boot_model", u->boot_model);
		json_int(&j, "boot", u->boot);
		if (!strcmp(u->kind, "guest") && !strcmp(p->accel, "icount"))
			json_str(&j, "icount_epoch", u->icount_epoch);
		json_list(&j, "models", &u->models);
		boot_json(&j, p, u);
		json_begin_array(&j, "cells");
		for (size_t c = 0; c < u->ncells; c++)
			json_cell(&j, &u->cells[c]);
		json_end_array(&j);
		json_end_object(&j);
		cells += u->ncells; bb += u->nbufbench; pgc += u->npgbench; pgr += u->npgruns;
	}
	json_end_array(&j);
	json_begin_object(&j, "estimate");
	json_uint(&j, "cells", cells);
	json_uint(&j, "bufbench_cells", bb);
	json_uint(&j, "pgbench_cells", pgc);
	json_uint(&j, "pgbench_runs", pgr);
	json_int(&j, "boots", strcmp(p->kernel.source, "host") == 0 ? 0 : p->nunits);
	json_int(&j, "seconds", p->est_seconds);
	json_end_object(&j);
	json_end_object(&j);
	json_finish(&j);
	return fclose(f);
}

static void join(char *buf, size_t len, const struct list *l, const char *sep)
{
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < l->n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? sep : "", l->item[i]);
}

static void write_cells(FILE *f, const struct plan *p, const struct unit *u)
{
	for (size_t i = 0; i < u->ncells; i++) {
		const struct cell *c = &u->cells[i];
		if (strcmp(c->tool, "pgbench") == 0) {
			char models[512], clients[512];
			join(models, sizeof(models), c->pg_models, ",");
			join(clients, sizeof(clients), c->pg_clients, ",");
			fprintf(f, "cell\tpgbench\t%s\t%s\t%s\t%s\t%ld", c->id, c->huge_pages, models,
				clients, c->pg_repeat);
			/* MITIGATIONS: the mitigation, and the server (major, build) it runs. */
			if (c->mitigation[0])
				fprintf(f, "\t%s\t%s\t%s", c->mitigation, c->pg_major, c->pg_build);
			fputc('\n', f);
			continue;
		}
		fprintf(f, "cell\tbufbench\t%s\t%s\t%s\t%d\t%s\t--clients %ld --duration %ld --warmup %ld "
			"--pool %s --relation %s --workload %s --pages %s --lock %s --strategy %s "
			"--seed %ld", c->id, c->model, c->pages, c->optional,
			c->inst & INST_PROFILE ? "on" : "off", c->clients,
			p->duration_s, p->warmup_s, p->pool, p->relation, p->workload, c->pages,
			c->lock, c->strategy, c->rep);
		/* Only what differs from bufbench's defaults: old cells keep their command. */
		if (p->freelist_stride > 1 && strcmp(c->strategy, "pg19") != 0)
			fprintf(f, " --freelist-stride %ld", p->freelist_stride);
		if (c->mitigation[0])
			fprintf(f, " --mitigation %s", c->mitigation);
		if (p->steady_s > 0)
			fprintf(f, " --steady %ld", p->steady_s);
		if (p->fixed_spins_per_delay)
			fprintf(f, " --spins-per-delay fixed:%ld", p->fixed_spins_per_delay);
		plan_instrument_args(c->inst, f);
		for (int a = 0; a < p->bufbench_argv.n; a++)
			fprintf(f, " %s", p->bufbench_argv.item[a]);
		fputc('\n', f);
		/* ID KIND RUNS LIMIT_S TEXT, as a pgbench cell's (write_pg_runs). */
		fprintf(f, "cell_watch\t%s\tbufbench\t0\t%ld\t%s\n", c->id, u->cell_timeout_s, c->id);
	}
}

/*
 * The PostgreSQL servers the runners must have before any unit, decided
 * once here so that no script counts a cell line's fields to find out:
 * pg_fetch, PG_VERSION's own major where a pgbench cell without a
 * mitigation runs it and it is not the system's (scripts/pg-fetch.sh);
 * pg_servers, each MITIGATIONS cell's server as MAJOR:BUILD, once each
 * (scripts/pg-roots.sh).  "none" where there is nothing to have.
 */
static void write_pg_materials(FILE *f, const struct plan *p)
{
	bool plain = false;
	struct list servers = { .n = 0 };
	for (int u = 0; p->pgbench && u < p->nunits; u++)
		for (size_t i = 0; i < p->units[u].ncells; i++) {
			const struct cell *c = &p->units[u].cells[i];
			char one[PLAN_NAME];
			if (strcmp(c->tool, "pgbench") != 0)
				continue;
			if (!c->mitigation[0]) {
				plain = true;
				continue;
			}
			snprintf(one, sizeof(one), "%s:%s", c->pg_major, c->pg_build);
			if (!list_has(&servers, one) && servers.n < PLAN_MAX_LIST)
				snprintf(servers.item[servers.n++], PLAN_NAME, "%s", one);
		}
	char words[PLAN_MAX_LIST * PLAN_NAME];
	join(words, sizeof(words), &servers, " ");
	fprintf(f, "pg_fetch\t%s\n",
		plain && strcmp(p->pg_version, "system") != 0 ? p->pg_version : "none");
	fprintf(f, "pg_servers\t%s\n", servers.n ? words : "none");
}

static FILE *open_in(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		plan_die("cannot write %s: %s", path, strerror(errno));
	return f;
}

/*
 * Each pgbench cell's runs (pg_runs.c), "pg_run TAB ID LINE": the cell
 * runner gives scripts/pg-run.sh the lines of its cell.  A kernel the
 * catalog gives one model has no debugfs switch: its runs keep the model
 * it booted ("current"), which pgsample records under the catalog's name.
 */
static void write_pg_runs(FILE *f, const struct plan *p, const struct unit *u)
{
	static const struct list current = { .item = { "current" }, .n = 1 };
	bool guest = strcmp(u->kind, "host") != 0;
	for (size_t i = 0; i < u->ncells; i++) {
		const struct cell *c = &u->cells[i];
		if (strcmp(c->tool, "pgbench") != 0)
			continue;
		char prefix[sizeof(c->id) + 16];
		snprintf(prefix, sizeof(prefix), "pg_run\t%s ", c->id);
		struct pg_runs r = {
			.models = u->kernel->models.n == 1 ? &current : c->pg_models,
			.builtins = &p->pg_builtins, .clients = c->pg_clients,
			.repeat = c->pg_repeat, .first_rep = u->pg_rep_base + 1,
			.warmup = p->pg_warmup,
			.cpus = guest ? p->vcpus : pg_runs_cpus_here(),
			.headroom = runner_policy_value("pg_connection_headroom"),
		};
		pg_runs_write(f, prefix, &r);
		/* What the runner's progress line and watchdog take of the cell:
		 * ID KIND RUNS LIMIT_S TEXT (a bufbench cell's: write_cells). */
		char models[512], clients[512];
		join(models, sizeof(models), c->pg_models, ",");
		join(clients, sizeof(clients), c->pg_clients, ",");
		fprintf(f, "cell_watch\t%s\tpgbench\t%zu\t%ld\tpgbench huge_pages=%s models %s clients %s x%ld\n",
			c->id, pg_runs_count(&r), u->pg_timeout_s, c->huge_pages, models, clients, c->pg_repeat);
	}
}

/*
 * What the cell runner (lab/runner/) reads: everything it uses, so
 * that nothing reaches it another way.  A guest's programs sit at fixed
 * paths in its initramfs; the host's in the checkout (top).
 */
static void write_unit_conf(FILE *f, const struct plan *p, const struct unit *u,
			    const char *top, const char *out)
{
	/* A 64 KB cell (arm64's contiguous PTEs) gets as much memory as the
	 * 2 MB reservation, in 64 KB pages, where the kernel has that size. */
	fprintf(f, "kind\t%s\nlabel\t%s\nhugepages_2m\t%ld\nhugepages_64k\t%ld\n", u->kind,
		u->kernel->label, p->hp2m, p->hp2m * 32);
	/* Every model the unit's cells ask for (bufbench and pgbench alike
	 * take the unit's list), checked usable before any cell runs. */
	char models[512];
	join(models, sizeof(models), &u->models, " ");
	fprintf(f, "models\t%s\n", models);
	fprintf(f, "profile\t%s\nprofile_freq\t%ld\nprofile_callgraph\t%s\n",
		p->profile ? "on" : "off", p->profile_freq, p->profile_callgraph);
	fprintf(f, "pg_shared_buffers\t%s\npg_scale\t%s\n", p->pg_shared_buffers, p->pg_scale);
	/* A fill sample a second: pg_buffercache scans every buffer header. */
	fprintf(f, "pg_duration\t%ld\npg_fillfactor\t%ld\npg_cold\t%s\npg_buffercache_ms\t%d\n",
		p->pg_duration_s, p->pg_fillfactor, p->pg_cold ? "on" : "off",
		p->pg_buffercache ? 1000 : 0);
	fprintf(f, "boot\t%ld\nicount_epoch\t%s\n", u->boot, u->icount_epoch);
	write_pg_runs(f, p, u);
	fprintf(f, "repro_min\t%s\n", p->repro_min ? "on" : "off");
	if (p->costbench)
		plan_write_costbench_runs(f);
	fprintf(f, "pg_version\t%s\n", p->pgbench ? p->pg_version : "system");
	/* The kernel's knobs (knobs.c): set before the cells, the host's
	 * restored when the unit ends. */
	knobs_write(f, p, !strcmp(u->kind, "host"));
	fprintf(f, "top\t%s\n", top);
	/* The host's model goes back when the unit ends. */
	fprintf(f, "restore_model\t%d\n", u->restore_model);
	plan_write_runner_policy(f, p, strcmp(u->kind, "host") != 0);
	if (!strcmp(u->kind, "host")) {
		fprintf(f, "bufbench\t%s/build/bufbench\nrepro_min_bin\t%s/build/repro-min\n"
			"costbench_bin\t%s/build/costbench\nperf_dir\t%s/perf\n", top, top, top, out);
		return;
	}
	fprintf(f, "bufbench\t/bin/bufbench-static\nrepro_min_bin\t/bin/repro-min\n"
		"costbench_bin\t/bin/costbench\n");
	fprintf(f, "virt\t%s\nicount_shift\t%ld\n",
		!strcmp(p->accel, "icount") ? "tcg-icount" : p->accel, p->icount_shift);
	/* The booted kernel's config, for its tick (CONFIG_HZ, NO_HZ): the
	 * guest has no /boot, so scripts/run-plan.sh puts the config the
	 * kernel's resolution names (K_CONFIG) here, beside this file.  A
	 * kernel without one (Debian's 7.0 linux-binary) leaves it absent:
	 * the provenance then says unknown, and why.  The host's programs
	 * read /boot/config-RELEASE or /proc/config.gz themselves. */
	fprintf(f, "kernel_config\t/plan/kernel.config\n");
	/* A kernel the catalog gives one model (no PREEMPT_DYNAMIC, no
	 * debugfs file) runs that model: the runner is told which. */
	if (u->kernel->models.n == 1)
		fprintf(f, "static_model\t%s\n", u->kernel->models.item[0]);
}

int plan_write(const struct plan *p, const char *dir, const char *top_dir)
{
	char sub[4096], path[4200], top[PATH_MAX], out[PATH_MAX];
	if (!realpath(top_dir, top) || !realpath(dir, out))
		plan_die("cannot resolve %s or %s: %s", top_dir, dir, strerror(errno));
	snprintf(sub, sizeof(sub), "%s/plan", dir);
	if (mkdir(sub, 0755) != 0 && errno != EEXIST)
		plan_die("cannot create %s: %s", sub, strerror(errno));
	snprintf(path, sizeof(path), "%s/plan.json", dir);
	if (write_json(p, path) != 0)
		plan_die("cannot write %s: %s", path, strerror(errno));

	bool host = strcmp(p->kernel.source, "host") == 0;
	FILE *f = open_in(sub, "bench.conf");
	/* Only keys a runner reads (plan.json has the rest, and
	 * tests/e2e/plan_keys.sh fails on a key nothing reads): kernel names
	 * a run directory after what the planner chose (bench.sh). */
	fprintf(f, "kernel\t%s\n", p->kernel_asked);
	fprintf(f, "host\t%d\nvcpus\t%ld\nmem_mb\t%ld\npgbench\t%s\nprofile\t%s\n", host,
		p->vcpus, p->mem_mb, p->pgbench ? "on" : "off", p->profile ? "on" : "off");
	fprintf(f, "arch\t%s\n", p->arch);
	/* The progress line's starting estimates (units.c), corrected by the
	 * runner as cells finish. */
	fprintf(f, "est_cell_s\t%ld\nest_pg_setup_s\t%ld\nest_pg_run_s\t%ld\nest_boot_s\t%ld\n",
		p->est_cell_s, p->est_pg_setup_s, p->est_pg_run_s, p->est_boot_s);
	/* ... and what it counts down from: every unit's cells, bufbench cells,
	 * pgbench clusters and pgbench runs. */
	size_t cells = 0, bb = 0, pgc = 0, pgr = 0;
	for (int i = 0; i < p->nunits; i++) {
		const struct unit *u = &p->units[i];
		cells += u->ncells, bb += u->nbufbench, pgc += u->npgbench, pgr += u->npgruns;
	}
	fprintf(f, "total_cells\t%zu\ntotal_bufbench\t%zu\ntotal_pgbench\t%zu\ntotal_pgruns\t%zu\n",
		cells, bb, pgc, pgr);
	/* The runner fetches a major (scripts/pg-fetch.sh) before any unit. */
	fprintf(f, "pg_version\t%s\n", p->pgbench ? p->pg_version : "system");
	write_pg_materials(f, p);
	plan_write_poweroff_grace(f);
	if (!host) {
		fprintf(f, "guest_hugepages\t%s\n", p->guest_hugepages);
		fprintf(f, "qemu\t%s\n", boot_emulator(p));
		if (p->nprobe)
			fprintf(f, "probe_timeout_s\t%ld\nprobe_fail_text\t%s\n", p->probe_timeout_s,
				p->probe_fail_text);
	}
	fclose(f);
	if (!host) {
		f = open_in(sub, "pinning.tsv");
		kvm_write_pins(p, f);
		fclose(f);
	}

	f = open_in(sub, "units.tsv");
	for (int i = 0; i < p->nunits; i++) {
		const struct unit *u = &p->units[i];
		const struct kernel_ref *k = u->kernel;
		fprintf(f, "%s\t%s\t%s\t%s\t%s\n", u->id, u->kind, u->role, k->asked,
			u->boot_model[0] ? u->boot_model : "-");
		/* The unit's one plan file: what its runner reads, how
		 * run-plan.sh runs it, then its cells in order. */
		char name[PLAN_NAME + 8];
		snprintf(name, sizeof(name), "%s.plan", u->id);
		FILE *c = open_in(sub, name);
		write_unit_conf(c, p, u, top, out);
		boot_write_unit(c, p, u);
		write_cells(c, p, u);
		fclose(c);
	}
	fclose(f);
	boot_write(p, sub);
	return 0;
}

static void fmt_s(char *buf, size_t len, long s)
{
	if (s >= 60)
		snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, len, "%lds", s);
}

void plan_print_summary(const struct plan *p)
{
	size_t bb = 0, pgc = 0, pgr = 0;
	for (int i = 0; i < p->nunits; i++) {
		bb += p->units[i].nbufbench;
		pgc += p->units[i].npgbench;
		pgr += p->units[i].npgruns;
	}
	char est[32];
	fmt_s(est, sizeof(est), p->est_seconds);
	bool host = strcmp(p->kernel.source, "host") == 0;
	printf("preemptlab: plan: %zu bufbench cells", bb);
	if (pgc)
		printf(", %zu pgbench clusters (%zu runs, PostgreSQL %s%s%s)", pgc, pgr,
		       p->pg_version, strcmp(p->pg_version, "system") ? " from " : "",
		       strcmp(p->pg_version, "system") ? p->pg_suite : "");
	if (host)
		printf(" on the host");
	else
		printf(" in %d boot%s (%ld vCPUs, %ld MB)", p->nunits, p->nunits == 1 ? "" : "s",
		       p->vcpus, p->mem_mb);
	printf(", about %s%s\n", est, host ? "" : " plus fetching and boots");
}
