/*
 * Loading and grouping.  Cells are sorted so every output lists them in the
 * same order: tool, group (workload, lock, strategy, page size, clients),
 * then variant, least preemptible model first, so the baseline usually
 * comes first.
 */
#include "results.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "instruments.h"
#include "manifest/manifest.h"
#include "lab_vocab.h"
#include "statistics.h"

static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d) {
		fprintf(stderr, "report: out of memory\n");
		exit(1);
	}
	return d;
}

/* The vocabulary lists models least preemptible first; RT after them all. */
int model_rank(const char *m)
{
	int r = vocab_rank(&vocab_models, m);
	if (r >= 0)
		return r;
	return !strcmp(m, "rt") ? (int)vocab_models.n : (int)vocab_models.n + 1;
}

/* A vocabulary's rank; a name outside it after them all, by name. */
static int vocab_cmp(const struct vocab *v, const char *a, const char *b)
{
	int ra = vocab_rank(v, a), rb = vocab_rank(v, b);
	ra = ra < 0 ? (int)v->n : ra;
	rb = rb < 0 ? (int)v->n : rb;
	return ra != rb ? ra - rb : strcmp(a, b);
}

static int num_cmp(long a, long b)
{
	return (a > b) - (a < b);
}

int cell_order_cmp(const struct cell *a, const struct cell *b, const enum cell_key *keys)
{
	int c = 0;
	for (; !c && *keys != CK_END; keys++) {
		switch (*keys) {
		case CK_END: break;
		case CK_TOOL: c = strcmp(a->tool, b->tool); break;
		case CK_WORKLOAD:
			c = vocab_cmp(!strcmp(a->tool, "pgbench") ? &vocab_pg_builtins : &vocab_workloads,
				      a->workload, b->workload);
			break;
		case CK_LOCK: c = vocab_cmp(&vocab_locks, a->lock, b->lock); break;
		case CK_STRATEGY: c = vocab_cmp(&vocab_strategies, a->strategy, b->strategy); break;
		case CK_MITIGATION:
			c = mitigation_rank(a->mitigation) - mitigation_rank(b->mitigation);
			if (!c)
				c = strcmp(a->mitigation, b->mitigation);
			break;
		case CK_PAGE_KB: c = num_cmp(a->page_kb, b->page_kb); break;
		case CK_CLIENTS: c = num_cmp(a->clients, b->clients); break;
		case CK_KERNEL: c = strverscmp(a->kernel_label, b->kernel_label); break;
		case CK_MODEL: c = model_rank(a->model) - model_rank(b->model); break;
		case CK_RELEASE: c = strverscmp(a->kernel_release, b->kernel_release); break;
		}
	}
	return c;
}

int variant_cmp(const struct cell *a, const struct cell *b)
{
	static const enum cell_key variant[] = { CK_KERNEL, CK_MODEL, CK_RELEASE, CK_END };
	return cell_order_cmp(a, b, variant);
}

int doc_emulated(const struct json_read_val *d)
{
	const struct json_read_val *e = json_read_path(d, "provenance.emulated");
	if (e && e->type == JR_BOOL)
		return e->b;
	return !strncmp(json_read_str(d, "provenance.virtualization", ""), "tcg", 3);
}

bool cell_median(const struct cell *c, const char *path, double *out)
{
	double *v = malloc((c->nruns ? c->nruns : 1) * sizeof(*v));
	size_t n = 0;
	if (!v)
		exit(1);
	for (size_t i = 0; i < c->nruns; i++)
		if (json_read_num(c->runs[i]->doc, path, &v[n]))
			n++;
	if (n)
		*out = st_median(v, n);
	free(v);
	return n > 0;
}

const char *page_name(long kb, char *buf, size_t len)
{
	if (kb >= 1048576 && kb % 1048576 == 0)
		snprintf(buf, len, "%ld GB", kb / 1048576);
	else if (kb >= 1024 && kb % 1024 == 0)
		snprintf(buf, len, "%ld MB", kb / 1024);
	else
		snprintf(buf, len, "%ld KB", kb);
	return buf;
}

/* The vocabulary's order (none first); an unknown name after every known one. */
int mitigation_rank(const char *m)
{
	int r = vocab_rank(&vocab_mitigations, m);
	return r < 0 ? 1000 : r;
}

static int cell_cmp(const void *pa, const void *pb)
{
	static const enum cell_key order[] = {
		CK_TOOL, CK_WORKLOAD, CK_LOCK, CK_STRATEGY, CK_MITIGATION, CK_PAGE_KB, CK_CLIENTS,
		CK_KERNEL, CK_MODEL, CK_RELEASE, CK_END,
	};
	return cell_order_cmp(pa, pb, order);
}

static int same_cell(const struct cell *a, const struct cell *b)
{
	return !strcmp(a->tool, b->tool) &&
	       !strcmp(a->kernel_label, b->kernel_label) &&
	       !strcmp(a->kernel_release, b->kernel_release) &&
	       !strcmp(a->model, b->model) && a->page_kb == b->page_kb &&
	       !strcmp(a->lock, b->lock) && !strcmp(a->strategy, b->strategy) &&
	       !strcmp(a->mitigation, b->mitigation) &&
	       !strcmp(a->workload, b->workload) && a->clients == b->clients &&
	       !strcmp(a->source ? a->source : "", b->source ? b->source : "");
}

/* Fill the identity of a cell from a document; -1 names what is missing. */
static int cell_of(const struct json_read_val *d, struct cell *c, const char **missing)
{
	double pk, cl, tps;
	memset(c, 0, sizeof(*c));
	c->tool = json_read_str(d, "tool", NULL);
	c->kernel_label = json_read_str(d, "provenance.kernel_label", NULL);
	c->kernel_release = json_read_str(d, "provenance.kernel_release", "");
	c->model = json_read_str(d, "provenance.preempt_model", "unknown");
	c->lock = json_read_str(d, "provenance.lock", json_read_str(d, "config.lock", ""));
	c->strategy = json_read_str(d, "provenance.strategy", json_read_str(d, "config.strategy", ""));
	c->mitigation = json_read_str(d, "config.mitigation", "none");
	if (!c->tool) {
		*missing = "tool";
		return -1;
	}
	c->workload = json_read_str(d, !strcmp(c->tool, "pgbench") ? "config.builtin" : "config.workload", "");
	if (!c->kernel_label) {
		*missing = "provenance.kernel_label";
		return -1;
	}
	if (!json_read_num(d, "provenance.page_size_kb", &pk)) {
		*missing = "provenance.page_size_kb";
		return -1;
	}
	if (!json_read_num(d, "config.clients", &cl)) {
		*missing = "config.clients";
		return -1;
	}
	if (!json_read_num(d, "results.tps", &tps)) {
		*missing = "results.tps";
		return -1;
	}
	/* What keys a cell must be a value the lab can have written. */
	if (pk < 1 || pk > (1 << 24) || pk != floor(pk)) {
		*missing = "provenance.page_size_kb in 1..16777216 (a whole number of KB)";
		return -1;
	}
	if (cl < 1 || cl > (1 << 20) || cl != floor(cl)) {
		*missing = "config.clients in 1..1048576 (a whole number)";
		return -1;
	}
	if (tps < 0) {
		*missing = "results.tps of 0 or more";
		return -1;
	}
	c->page_kb = (long)pk;
	c->clients = (long)cl;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/*
 * bufbench's results.phases is an array; metrics are dotted paths.  Index
 * it by name as results.phase.fill and results.phase.steady, so that every
 * statistic and comparison of the report applies to a phase unchanged.
 */
static void index_phases(struct json_read_val *doc)
{
	struct json_read_val *res = (struct json_read_val *)json_read_get(doc, "results");
	const struct json_read_val *ph = json_read_get(res, "phases");
	if (!ph || ph->type != JR_ARR || json_read_get(res, "phase"))
		return;
	struct json_read_val *by_name = json_read_new_object();
	for (size_t i = 0; i < ph->n; i++) {
		const char *name = json_read_str(ph->items[i], "name", NULL);
		if (name && (!strcmp(name, "fill") || !strcmp(name, "steady")) &&
		    !json_read_get(by_name, name))
			json_read_add(by_name, name, json_read_copy(ph->items[i]));
	}
	json_read_add(res, "phase", by_name);
}

/*
 * Documents written before issue 24 call the wait share spin_share: read
 * it under its name (results and each phase), so old runs and the recorded
 * fixtures compare with new ones.
 */
static void alias_wait_share(struct json_read_val *obj)
{
	const struct json_read_val *old = json_read_get(obj, "spin_share");
	if (obj && obj->type == JR_OBJ && old && !json_read_get(obj, "wait_share"))
		json_read_add(obj, "wait_share", json_read_copy(old));
}

static void upgrade_names(struct json_read_val *doc)
{
	struct json_read_val *res = (struct json_read_val *)json_read_get(doc, "results");
	alias_wait_share(res);
	const struct json_read_val *ph = json_read_get(res, "phases");
	for (size_t i = 0; ph && ph->type == JR_ARR && i < ph->n; i++)
		alias_wait_share(ph->items[i]);
}

/*
 * The instruments that made system calls inside the strategy lock's hold
 * (config.in_hold_syscalls, issue 24), or NULL.  A document without the
 * field predates it: its --hold-events read the counters inside the hold.
 */
static const char *in_hold_instrument(const struct json_read_val *doc)
{
	const struct json_read_val *l = json_read_path(doc, "config.in_hold_syscalls");
	if (l && l->type == JR_ARR)
		return l->n && l->items[0]->type == JR_STR ? l->items[0]->str : NULL;
	return json_read_true(doc, "config.hold_events") ? "hold_events" : NULL;
}

static void null_keys(struct json_read_val *obj, const char *const *keys)
{
	for (size_t i = 0; obj && obj->type == JR_OBJ && i < obj->n; i++)
		for (const char *const *k = keys; *k; k++)
			if (!strcmp(obj->keys[i], *k)) {
				json_read_free(obj->items[i]);
				obj->items[i] = json_read_new_object();
				obj->items[i]->type = JR_NULL;
			}
}

/*
 * Refuse to compare the timings of a run whose instrument ran inside the
 * hold: it lengthened every hold and added a preemption point to it (0.54x
 * fill tps at 1024 clients on the host from the instrument alone).  Its
 * times, rates and shares become null, so no comparison, chart or table
 * can use them; its counts (holds with a fault, switches) stay.
 */
static void refuse_timings(struct json_read_val *doc, bool keep_tail)
{
	static const char *const run_keys[] = { "tps", "wait_share", "spin_share",
		"cpu_spin_share", "rho", "latency_us", "latency_p99_us", "time_to_fill_s", "t_tail",
		"timeline", "waiter_sleeps", NULL };
	/* T_tail and the waiters' sleeps exist only where the holds were
	 * recorded: an instrumented run with a bare twin keeps them. */
	static const char *const twin_keys[] = { "tps", "wait_share", "spin_share",
		"cpu_spin_share", "latency_us", "latency_p99_us", "time_to_fill_s", "timeline",
		NULL };
	static const char *const lock_keys[] = { "wait_ns", "hold_ns", "max_hold_ns",
		"max_wait_ns", "fault_hold_ns", "switch_hold_ns", "sleep_ns", "hold_hist",
		"wait_hist", "switch_hold_hist", NULL };
	const char *const *keys = keep_tail ? twin_keys : run_keys;
	struct json_read_val *res = (struct json_read_val *)json_read_get(doc, "results");
	null_keys(res, keys);
	const char *const groups[] = { "phases", "phase" };
	for (int g = 0; g < 2; g++) {
		struct json_read_val *ph = (struct json_read_val *)json_read_get(res, groups[g]);
		for (size_t i = 0; ph && (ph->type == JR_ARR || ph->type == JR_OBJ) && i < ph->n; i++) {
			null_keys(ph->items[i], keys);
			null_keys((struct json_read_val *)json_read_get(ph->items[i], "strategy"), lock_keys);
		}
	}
	struct json_read_val *locks = (struct json_read_val *)json_read_get(doc, "locks");
	for (size_t i = 0; locks && locks->type == JR_OBJ && i < locks->n; i++)
		null_keys(locks->items[i], lock_keys);
}

/* Append the usable documents of dir/runs to r, their cells keyed by source. */
static int load_dir(struct results *r, const char *dir, const char *source, char *err,
		    size_t errlen)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/runs", dir);
	DIR *dh = opendir(path);
	if (!dh) {
		snprintf(err, errlen, "%s: no runs/ directory; give a results directory made by make bench (results/<timestamp>-<kernel>)", dir);
		return -1;
	}
	char **names = NULL;
	size_t nn = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(dh))) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".json"))
			continue;
		if (nn == cap) {
			cap = cap ? cap * 2 : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				exit(1);
		}
		names[nn++] = xstrdup(de->d_name);
	}
	closedir(dh);
	if (nn)  /* no documents: names is NULL, which qsort must not get */
		qsort(names, nn, sizeof(*names), name_cmp);

	/* Room for every document: cells and runs point into these arrays. */
	size_t first_run = r->nruns;
	/* Cells of earlier directories point into runs: as indices while it moves. */
	for (size_t k = 0; k < r->ncells; k++)
		for (size_t j = 0; j < r->cells[k].nruns; j++)
			r->cells[k].runs[j] = (struct run *)(uintptr_t)(r->cells[k].runs[j] - r->runs);
	r->runs = realloc(r->runs, (r->nruns + nn + 1) * sizeof(*r->runs));
	r->cells = realloc(r->cells, (r->ncells + nn + 1) * sizeof(*r->cells));
	if (!r->runs || !r->cells)
		exit(1);
	for (size_t k = 0; k < r->ncells; k++)
		for (size_t j = 0; j < r->cells[k].nruns; j++)
			r->cells[k].runs[j] = r->runs + (uintptr_t)r->cells[k].runs[j];
	for (size_t i = 0; i < nn; i++) {
		char msg[512];
		snprintf(path, sizeof(path), "%s/runs/%s", dir, names[i]);
		struct json_read_val *doc = json_read_parse_file(path, msg, sizeof(msg));
		if (!doc) {
			txt_printf(stderr, "report: skipping %s\n", msg);
			r->skipped++;
			free(names[i]);
			continue;
		}
		upgrade_names(doc);
		index_phases(doc);
		/* SCENARIO=overhead's first run of a boot (slower: FACTS) is not compared. */
		size_t nl = strlen(names[i]);
		if (nl > 10 && !strcmp(names[i] + nl - 10, "-warm.json")) {
			r->nwarm++;
			json_read_free(doc);
			free(names[i]);
			continue;
		}
		double tps_raw = NAN, fill_raw = NAN;
		json_read_num(doc, "results.tps", &tps_raw);
		json_read_num(doc, "results.phase.fill.tps", &fill_raw);
		struct cell key;
		const char *missing = "";
		int bad = cell_of(doc, &key, &missing);
		key.source = source;
		/* Across machines "host" names no kernel: its release does. */
		if (source && !bad && !strcmp(key.kernel_label, "host") && key.kernel_release[0])
			key.kernel_label = key.kernel_release;
		if (bad) {
			txt_printf(stderr, "report: skipping %s: no %s (see docs/json.md)\n", path, missing);
			r->skipped++;
			json_read_free(doc);
			free(names[i]);
			continue;
		}
		/* A failed or cut-short run would pull its cell's statistics. */
		const char *why = NULL;
		const struct json_read_val *cv = json_read_path(doc, "complete");
		if (*json_read_str(doc, "results.error", ""))
			why = json_read_str(doc, "results.error", "");
		else if (json_read_true(doc, "results.interrupted"))
			why = "interrupted";
		else if (cv && cv->type == JR_BOOL && !cv->b)
			why = "incomplete";
		if (why) {
			char line[700];
			names[i][strlen(names[i]) - 5] = 0;
			snprintf(line, sizeof(line), "%s: %s", names[i], why);
			r->excluded = realloc(r->excluded, (r->nexcluded + 1) * sizeof(*r->excluded));
			if (!r->excluded)
				exit(1);
			r->excluded[r->nexcluded++] = xstrdup(line);
			json_read_free(doc);
			free(names[i]);
			continue;
		}
		const char *inst = in_hold_instrument(doc);
		if (inst) {
			char line[700];
			refuse_timings(doc, false);
			snprintf(line, sizeof(line), "%.*s: timings not compared, taken with %s read "
				 "inside the strategy lock's hold (config.in_hold_syscalls); its "
				 "counts are kept", (int)(strlen(names[i]) - 5), names[i], inst);
			r->refused = realloc(r->refused, (r->nrefused + 1) * sizeof(*r->refused));
			if (!r->refused)
				exit(1);
			r->refused[r->nrefused++] = xstrdup(line);
		}
		struct run *run = &r->runs[r->nruns++];
		run->path = xstrdup(path);
		names[i][strlen(names[i]) - 5] = 0;
		run->name = names[i];
		run->doc = doc;
		run->inst = run_instruments(doc, dir, run->name);
		run->tps_raw = tps_raw;
		run->fill_tps_raw = fill_raw;
		run->timed_by_twin = 0;
		struct cell *c = NULL;
		for (size_t k = 0; k < r->ncells; k++)
			if (same_cell(&r->cells[k], &key))
				c = &r->cells[k];
		if (!c) {
			c = &r->cells[r->ncells++];
			*c = key;
			c->runs = calloc(nn, sizeof(*c->runs));
			if (!c->runs)
				exit(1);
		}
		c->runs[c->nruns++] = run;
	}
	free(names);
	if (r->nruns == first_run) {
		snprintf(err, errlen, "%s/runs: no usable result documents (%zu skipped); run make bench first", dir, r->skipped);
		return -1;
	}
	return 0;
}

/*
 * Timings never from an instrumented run (issue 24): in a cell that has
 * bare runs beside instrumented ones (CONTROLS=on, SCENARIO=overhead), the
 * instrumented runs' times, rates and shares are set aside, so every
 * table, ratio and chart takes the bare runs'; their counts (holds with a
 * fault or a switch, the evidence, T_tail) stay, and only they have them.
 */
static void apply_controls(struct results *r)
{
	r->ntwinned = r->nuntwinned = r->nbare = 0;
	for (size_t k = 0; k < r->ncells; k++) {
		struct cell *c = &r->cells[k];
		size_t bare = 0;
		for (size_t i = 0; i < c->nruns; i++)
			bare += c->runs[i]->inst == 0;
		r->nbare += bare;
		for (size_t i = 0; i < c->nruns; i++) {
			struct run *run = c->runs[i];
			if (!run->inst)
				continue;
			if (!bare) {
				r->nuntwinned++;
				continue;
			}
			if (!run->timed_by_twin)
				refuse_timings(run->doc, true);
			run->timed_by_twin = 1;
			r->ntwinned++;
		}
	}
}

/* Sort the cells and name them. */
static void finish_cells(struct results *r)
{
	qsort(r->cells, r->ncells, sizeof(*r->cells), cell_cmp);
	for (size_t k = 0; k < r->ncells; k++) {
		struct cell *c = &r->cells[k];
		char pg[32];
		c->id = (int)k + 1;
		if (c->source)
			snprintf(c->variant, sizeof(c->variant), "%s/%s/%s", c->kernel_label, c->model,
				 c->source);
		else
			snprintf(c->variant, sizeof(c->variant), "%s/%s", c->kernel_label, c->model);
		/* Named only where there is one: reports without mitigations read as before. */
		char mit[64] = "";
		if (strcmp(c->mitigation, "none") != 0)
			snprintf(mit, sizeof(mit), ", mitigation %s", c->mitigation);
		snprintf(c->group, sizeof(c->group), "%s %s, %ld clients, %s pages, lock %s, strategy %s%s",
			 c->tool, c->workload, c->clients, page_name(c->page_kb, pg, sizeof(pg)),
			 c->lock, c->strategy, mit);
	}
}

/*
 * dir/manifest.json when it is the one schema build/manifest writes;
 * another (a run from before it) is read as no manifest, said once.
 */
static struct json_read_val *manifest_load(const char *dir)
{
	char path[4096], msg[512];
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	struct json_read_val *m = json_read_parse_file(path, msg, sizeof(msg));
	if (m && strcmp(json_read_str(m, "schema", ""), MANIFEST_SCHEMA)) {
		fprintf(stderr, "report: %s is not %s (an older run?): read without it\n", path,
			MANIFEST_SCHEMA);
		json_read_free(m);
		m = NULL;
	}
	return m;
}

int results_load(struct results *r, const char *dir, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->dir = xstrdup(dir);
	if (load_dir(r, dir, NULL, err, errlen))
		return -1;
	apply_controls(r);
	finish_cells(r);
	r->manifest = manifest_load(dir);
	return 0;
}

/* The machine a run was made on: its manifest's, else its documents'. */
static const char *machine_of(const struct json_read_val *manifest, const char *dir)
{
	const char *h = manifest ? json_read_str(manifest, "host.hostname", NULL) : NULL;
	if (h && *h)
		return h;
	char path[4096], msg[512];
	snprintf(path, sizeof(path), "%s/runs", dir);
	DIR *dh = opendir(path);
	struct dirent *de;
	static char found[256];
	found[0] = 0;
	while (dh && !found[0] && (de = readdir(dh))) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/runs/%s", dir, de->d_name);
		struct json_read_val *doc = json_read_parse_file(path, msg, sizeof(msg));
		if (doc)
			snprintf(found, sizeof(found), "%s", json_read_str(doc, "provenance.hostname", ""));
		json_read_free(doc);
	}
	if (dh)
		closedir(dh);
	return found[0] ? found : "unknown";
}

static const char *base_name(const char *dir)
{
	const char *b = strrchr(dir, '/');
	return b && b[1] ? b + 1 : dir;
}

int results_load_many(struct results *r, char **dirs, size_t n, const char *out, char *err,
		      size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->dir = xstrdup(out);
	r->sources = calloc(n + 1, sizeof(*r->sources));
	if (!r->sources)
		exit(1);
	char path[4096];
	for (size_t i = 0; i < n; i++) {
		struct source *s = &r->sources[r->nsources++];
		s->dir = xstrdup(dirs[i]);
		s->manifest = manifest_load(dirs[i]);
		s->label = xstrdup(machine_of(s->manifest, dirs[i]));
	}
	/* One machine twice (two boots, two kernels): its runs keep apart by directory. */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			if (i != j && !strcmp(r->sources[i].label, r->sources[j].label) &&
			    !strchr(r->sources[i].label, ':')) {
				for (size_t k = 0; k < n; k++) {
					if (strcmp(r->sources[k].label, r->sources[i].label) || k == i)
						continue;
					snprintf(path, sizeof(path), "%s:%s", r->sources[k].label,
						 base_name(r->sources[k].dir));
					free(r->sources[k].label);
					r->sources[k].label = xstrdup(path);
				}
				snprintf(path, sizeof(path), "%s:%s", r->sources[i].label,
					 base_name(r->sources[i].dir));
				free(r->sources[i].label);
				r->sources[i].label = xstrdup(path);
			}
	for (size_t i = 0; i < n; i++)
		if (load_dir(r, dirs[i], r->sources[i].label, err, errlen))
			return -1;
	apply_controls(r);
	finish_cells(r);
	return 0;
}

void results_free(struct results *r)
{
	for (size_t i = 0; i < r->nruns; i++) {
		free(r->runs[i].path);
		free(r->runs[i].name);
		json_read_free(r->runs[i].doc);
	}
	for (size_t k = 0; k < r->ncells; k++)
		free(r->cells[k].runs);
	for (size_t i = 0; i < r->nexcluded; i++)
		free(r->excluded[i]);
	free(r->excluded);
	for (size_t i = 0; i < r->nrefused; i++)
		free(r->refused[i]);
	free(r->refused);
	free(r->runs);
	free(r->cells);
	free(r->dir);
	json_read_free(r->manifest);
	for (size_t i = 0; i < r->nsources; i++) {
		free(r->sources[i].dir);
		free(r->sources[i].label);
		json_read_free(r->sources[i].manifest);
	}
	free(r->sources);
}
