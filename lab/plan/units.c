/*
 * The units of a bench and their cells.  A unit is what one runner process
 * carries out: the host (a unit that does not boot) or one guest boot.
 * Under MODEL_SWITCH=boot a guest kernel gets one unit per model, chosen
 * with preempt= on its command line; under runtime one unit switches its
 * models through debugfs.  Within a unit the repetition is outermost, so
 * slow drift of a noisy machine spreads over every cell alike instead of
 * biasing one model or page size.  BOOTS=N boots every guest unit N times,
 * the boot outermost of all for the same reason; a boot's runs continue
 * the numbering (and bufbench's seed) of the boot before, so a cell pools
 * the runs of all its boots and its spread includes what differs between
 * boots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plan.h"

/* Cell ids name files: no '/' or blank, and stable across lab versions. */
static void safe_name(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
	for (char *c = dst; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
}

/*
 * Boot b's clock starts b - 1 seconds after the plan's epoch: under icount
 * the same epoch would replay the same instructions, and N boots would
 * then measure one boot N times.
 */
static void boot_epoch(const char *epoch, long boot, char *out, size_t len)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	if (!strptime(epoch, "%Y-%m-%dT%H:%M:%S", &tm)) {
		snprintf(out, len, "%s", epoch);
		return;
	}
	time_t t = timegm(&tm) + (time_t)(boot - 1);
	gmtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

/*
 * The array doubles when full: one cell more at a time made each new cell
 * copy all the cells before it, quadratic in a unit's cells (FORCE=1 with
 * REPEAT=1000 CLIENTS=1..32 took over 60 s and 2.2 GB).
 */
static struct cell *new_cell(struct unit *u)
{
	if (u->ncells == u->cells_cap) {
		size_t cap = u->cells_cap ? 2 * u->cells_cap : 16;
		struct cell *c = realloc(u->cells, cap * sizeof(*u->cells));
		if (!c)
			plan_die("out of memory");
		u->cells = c;
		u->cells_cap = cap;
	}
	struct cell *c = &u->cells[u->ncells++];
	memset(c, 0, sizeof(*c));
	return c;
}

/* A page size asked "where it can be had" may be skipped, not failed. */
static bool optional_pages(const struct plan *p, const struct unit *u, const char *pages)
{
	if (p->pages_given || strcmp(p->hugepages, "compare") != 0)
		return false;
	if (strcmp(pages, "1g") == 0)
		return true;
	/* A guest reserves its 2 MB pages itself; a host may have none to give. */
	return strcmp(pages, "2m") == 0 && strcmp(u->kind, "host") == 0;
}

/* The plan's cells so far: counted before they are made, so that a plan
 * far past PLAN_MAX_CELLS stops before it takes the memory. */
static size_t planned_cells;

static void count_cells(size_t more)
{
	planned_cells += more;
	if (planned_cells > PLAN_MAX_CELLS && !plan_forced())
		plan_die("this plan has over %zu cells, more than the %d a plan may have: narrow "
			 "REPEAT, CLIENTS, MODELS, PAGES, LOCKS or BOOTS, or FORCE=1 to plan it anyway",
			 planned_cells, PLAN_MAX_CELLS);
}

#define MAX_VARIANTS 8

/* One cell: its id and fields; mit is "" outside MITIGATIONS, v its
 * instruments (CONTROLS, SCENARIO=overhead). */
static void bufbench_cell(struct unit *u, const char *label, bool named_model, const char *model,
			  const char *pages, const char *lock, const char *strategy, long clients,
			  long rep, bool optional, const char *mit, const struct variant *v)
{
	struct cell *x = new_cell(u);
	char strat[40] = "", m[32] = "";
	/* pg is the default: today's ids stay as they were. */
	if (strcmp(strategy, "pg") != 0)
		snprintf(strat, sizeof(strat), "-%s", strategy);
	if (mit[0])
		snprintf(m, sizeof(m), "-mit_%s", mit);
	for (char *ch = strat; *ch; ch++)
		if (*ch == ':')
			*ch = '_';
	for (char *ch = m; *ch; ch++)
		if (*ch == ':')
			*ch = '_';
	snprintf(x->tool, sizeof(x->tool), "bufbench");
	snprintf(x->model, sizeof(x->model), "%s", model);
	snprintf(x->pages, sizeof(x->pages), "%s", pages);
	snprintf(x->lock, sizeof(x->lock), "%s", lock);
	snprintf(x->strategy, sizeof(x->strategy), "%s", strategy);
	snprintf(x->mitigation, sizeof(x->mitigation), "%s", mit);
	x->clients = clients;
	x->rep = rep;
	x->optional = optional;
	x->inst = v ? v->set : 0;
	x->control = v ? v->control : false;
	snprintf(x->id, sizeof(x->id), "bufbench-%s%s%s-%s-%s%s%s-c%ld-r%ld%s", label,
		 named_model ? "-" : "", named_model ? model : "", pages, lock, strat, m, clients, rep,
		 v ? v->suffix : "");
	u->nbufbench++;
}

/* MITIGATIONS: each mitigation x model x clients, from the one base, each
 * with the plan's instrument variants. */
static void mitigation_cells(const struct plan *p, struct unit *u, const char *label,
			     bool named_model)
{
	struct variant var[MAX_VARIANTS];
	int nvar = plan_variants(p, 1, var, MAX_VARIANTS);
	count_cells((size_t)p->repeat * (size_t)u->models.n * (size_t)p->mitigations.n * 2 *
		    (size_t)p->clients.n * (size_t)nvar);
	for (long r = u->rep_base + 1; r <= u->rep_base + p->repeat; r++) {
		nvar = plan_variants(p, r, var, MAX_VARIANTS);
		for (int mo = 0; mo < u->models.n; mo++)
			for (int mi = 0; mi < p->mitigations.n; mi++) {
				struct mit_variant v[2];
				int n = mitigation_variants(p, u, p->mitigations.item[mi], v);
				for (int k = 0; k < n; k++)
					for (int c = 0; c < p->clients.n; c++)
						for (int i = 0; i < nvar; i++)
							bufbench_cell(u, label, named_model, u->models.item[mo],
								      v[k].pages, v[k].lock, v[k].strategy,
								      strtol(p->clients.item[c], NULL, 10), r,
								      v[k].optional, p->mitigations.item[mi], &var[i]);
			}
	}
}

static void bufbench_cells(const struct plan *p, struct unit *u)
{
	char label[PLAN_NAME];
	bool host = strcmp(u->kind, "host") == 0;
	bool named_model = !host || strcmp(u->models.item[0], "current") != 0 || u->models.n > 1;
	safe_name(label, sizeof(label), u->kernel->label);
	if (p->mitigations.n) {
		mitigation_cells(p, u, label, named_model);
		return;
	}
	struct variant var[MAX_VARIANTS];
	int nvar = plan_variants(p, 1, var, MAX_VARIANTS);
	bool overhead = !strcmp(p->scenario, "overhead");
	count_cells((size_t)p->repeat * (size_t)u->models.n * (size_t)p->pages.n *
		    (size_t)p->locks.n * (size_t)p->strategies.n * (size_t)p->clients.n *
		    (size_t)nvar + (overhead ? 1 : 0));
	/*
	 * SCENARIO=overhead: a boot's first run is slower (18-30% in a 2 s
	 * cell under icount, FACTS), which would land on whichever variant
	 * ran first: one bare run of the first cell (seed 0, paired with
	 * nothing) takes it.
	 */
	long first = u->rep_base + (overhead ? 0 : 1);
	for (long r = first; r <= u->rep_base + p->repeat; r++)
		for (int m = 0; m < u->models.n; m++)
			for (int pg = 0; pg < p->pages.n; pg++)
				for (int l = 0; l < p->locks.n; l++)
					for (int s = 0; s < p->strategies.n; s++)
						for (int c = 0; c < p->clients.n; c++) {
		bool warm = r == u->rep_base;
		if (warm && (m || pg || l || s || c))
			continue;
		nvar = warm ? 1 : plan_variants(p, r, var, MAX_VARIANTS);
		if (warm) {
			var[0].set = 0;
			var[0].control = false;
			snprintf(var[0].suffix, sizeof(var[0].suffix), "-warm");
		}
		for (int v = 0; v < nvar; v++)
			bufbench_cell(u, label, named_model, u->models.item[m], p->pages.item[pg],
				      p->locks.item[l], p->strategies.item[s],
				      strtol(p->clients.item[c], NULL, 10), r,
				      optional_pages(p, u, p->pages.item[pg]), "", &var[v]);
	}
}

/* One pgbench cell: one cluster serving the unit's models, clients and repeats. */
static struct cell *pgbench_cell(const struct plan *p, struct unit *u, const char *label,
				 const char *hp, const char *mit)
{
	struct cell *x = new_cell(u);
	snprintf(x->tool, sizeof(x->tool), "pgbench");
	snprintf(x->huge_pages, sizeof(x->huge_pages), "%s", hp);
	x->pg_models = &u->models;
	x->pg_clients = &p->clients;
	x->pg_repeat = p->pg_repeat;
	char boot[24] = "", m[40] = "";
	if (p->boots > 1)
		snprintf(boot, sizeof(boot), "-b%ld", u->boot);
	if (mit[0])
		snprintf(m, sizeof(m), "-mit_%s", mit);
	snprintf(x->id, sizeof(x->id), "pgbench-%s%s%s-hp%s%s%s", label,
		 u->boot_model[0] ? "-" : "", u->boot_model, hp, m, boot);
	u->npgbench++;
	count_cells(1);
	const struct pg_runs runs = { .models = x->pg_models, .builtins = &p->pg_builtins,
				      .clients = x->pg_clients, .repeat = x->pg_repeat,
				      .warmup = p->pg_warmup };
	u->npgruns += pg_runs_count(&runs);
	return x;
}

/* MITIGATIONS: one cluster per mitigation that exists in PostgreSQL
 * (pg_mitigations.c chose its server and huge_pages). */
static void pg_mitigation_cells(const struct plan *p, struct unit *u, const char *label)
{
	for (int i = 0; i < p->npg_mits; i++) {
		const struct pg_mit *m = &p->pg_mits[i];
		struct cell *x = pgbench_cell(p, u, label, m->huge_pages, m->name);
		snprintf(x->mitigation, sizeof(x->mitigation), "%s", m->name);
		snprintf(x->pg_major, sizeof(x->pg_major), "%s", m->major);
		snprintf(x->pg_build, sizeof(x->pg_build), "%s", m->build);
	}
}

/* One cluster per huge_pages setting serves every model, client count and repetition. */
static void pgbench_cells(const struct plan *p, struct unit *u)
{
	char label[PLAN_NAME];
	if (!p->pgbench)
		return;
	safe_name(label, sizeof(label), u->kernel->label);
	if (p->npg_mits) {
		pg_mitigation_cells(p, u, label);
		return;
	}
	for (int h = 0; h < p->pg_huge_pages.n; h++)
		pgbench_cell(p, u, label, p->pg_huge_pages.item[h], "");
}

static struct unit *new_unit(struct plan *p, const char *id, const char *kind, const char *role,
			     struct kernel_ref *k, long boot)
{
	if (p->nunits == PLAN_MAX_UNITS)
		plan_die("more than %d boots: narrow MODELS, BOOTS or the kernels", PLAN_MAX_UNITS);
	struct unit *u = &p->units[p->nunits++];
	memset(u, 0, sizeof(*u));
	if (p->boots > 1)
		snprintf(u->id, sizeof(u->id), "%s.b%ld", id, boot);
	else
		snprintf(u->id, sizeof(u->id), "%s", id);
	snprintf(u->kind, sizeof(u->kind), "%s", kind);
	snprintf(u->role, sizeof(u->role), "%s", role);
	u->kernel = k;
	u->boot = boot;
	u->rep_base = (boot - 1) * p->repeat;
	u->pg_rep_base = (boot - 1) * p->pg_repeat;
	boot_epoch(p->icount_epoch, boot, u->icount_epoch, sizeof(u->icount_epoch));
	return u;
}

static void guest_units(struct plan *p, const char *role, struct kernel_ref *k,
			const struct list *models, long boot)
{
	bool per_model = strcmp(p->model_switch, "boot") == 0 &&
			 !(models->n == 1 && strcmp(models->item[0], "current") == 0);
	if (!per_model) {
		struct unit *u = new_unit(p, role, "guest", role, k, boot);
		u->models = *models;
		bufbench_cells(p, u);
		pgbench_cells(p, u);
		return;
	}
	for (int m = 0; m < models->n; m++) {
		char id[PLAN_NAME * 2];
		snprintf(id, sizeof(id), "%s.%s", role, models->item[m]);
		struct unit *u = new_unit(p, id, "guest", role, k, boot);
		snprintf(u->boot_model, sizeof(u->boot_model), "%s", models->item[m]);
		u->models.n = 1;
		snprintf(u->models.item[0], PLAN_NAME, "%s", models->item[m]);
		bufbench_cells(p, u);
		pgbench_cells(p, u);
	}
}

void plan_units(struct plan *p)
{
	p->nunits = 0;
	planned_cells = 0;
	if (strcmp(p->kernel.source, "host") == 0) {
		struct unit *u = new_unit(p, "host", "host", "host", &p->kernel, 1);
		u->models = p->models;
		bufbench_cells(p, u);
		pgbench_cells(p, u);
		return;
	}
	for (long b = 1; b <= p->boots; b++) {
		if (p->has_baseline)
			guest_units(p, "baseline", &p->baseline, &p->baseline_models, b);
		guest_units(p, "main", &p->kernel, &p->models, b);
	}
}

/*
 * Seconds the bench should take: each bufbench cell its warm-up and
 * duration plus process start and the environment probes; each pgbench
 * cluster its setup (about a minute under TCG), each pgbench run its
 * duration plus pgsample's start; each boot its time to the runner.
 */
void plan_estimate(struct plan *p)
{
	bool host = strcmp(p->kernel.source, "host") == 0;
	bool tcg = !host && strcmp(p->accel, "kvm") != 0;
	long cell = p->warmup_s + p->duration_s + (tcg ? 4 : 1);
	if (p->steady_s > 0) {
		/*
		 * A run ends --steady seconds after its fill.  Filling takes about
		 * three misses per buffer at a relation 1.06x the pool, at roughly
		 * 15k misses/s natively and 3k under TCG (measured here): a rough
		 * guide, the duration stays the limit.
		 */
		long fill = (long)(3 * (p->pool_bytes / 8192) / (tcg ? 3000 : 15000));
		if (fill + p->steady_s < p->duration_s)
			cell = p->warmup_s + fill + p->steady_s + (tcg ? 4 : 1);
	}
	long setup = host ? 15 : tcg ? 60 : 20, run = p->pg_duration_s + 5, boot = tcg ? 15 : 5;
	/* pgbench -i under emulation: 25.7 s for scale 3 in a 6.12 guest
	 * (pgbench's own "done in"), initdb and the server's start beside it. */
	long scale = p->pg_scale[0] ? strtol(p->pg_scale, NULL, 10) : 0;
	if (tcg && scale > 0)
		setup = 35 + 9 * scale;
	/* repro-min, once per guest unit: a quarter pool under TCG, ~15 s. */
	if (!host && p->repro_min)
		boot += tcg ? 15 : 3;
	/*
	 * Another architecture's guest (arm64 from x86) emulates every
	 * instruction the slow way: an arm64 7.0 boot with two clusters set up
	 * (initdb, pgbench -i -s 3), their runs, a bufbench cell and repro-min
	 * took 148 virtual and 599 wall seconds here, at a host load of 10-15.
	 */
	if (tcg && p->cross) {
		setup = 150;
		boot = 40;
		run += p->pg_duration_s;
	}
	run += p->pg_cold ? 3 : 0;	/* a server restart before each run */
	p->est_cell_s = cell;
	p->est_pg_setup_s = setup;
	p->est_pg_run_s = run;
	p->est_boot_s = host ? 0 : boot;
	p->est_seconds = 0;
	for (int i = 0; i < p->nunits; i++) {
		const struct unit *u = &p->units[i];
		p->est_seconds += (long)u->nbufbench * cell + (long)u->npgbench * setup +
				  (long)u->npgruns * run + (host ? 0 : boot);
		/* costbench: ~1 s of virtual time a model, more wall time under TCG. */
		if (p->costbench)
			p->est_seconds += (long)u->models.n * (tcg ? 10 : 2);
	}
	if (p->est_seconds > PLAN_MAX_HOURS * 3600L && !plan_forced())
		plan_die("this plan would take about %ld hours, more than the %d a plan may take: "
			 "narrow it (REPEAT, DURATION, CLIENTS, MODELS, BOOTS), or FORCE=1 to plan it anyway",
			 p->est_seconds / 3600, PLAN_MAX_HOURS);
}
