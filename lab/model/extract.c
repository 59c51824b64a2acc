/* The model's inputs from an EVIDENCE run (see extract.h, docs/scale.md). */
#include "extract.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "closed.h"
#include "json_read.h"
#include "statistics.h"

/*
 * The tick: the document's provenance.kernel_hz where it is recorded (from
 * the kernel's config, or measured: kernel_tick_source says which).
 * Documents from before the field: 7.2-lab is built from x86 defconfig
 * (CONFIG_HZ=1000 in its .config), 7.2-lab-hz250 with HZ=250; Debian's
 * amd64 kernels and the host are HZ=250.  Named so a reader can check it.
 */
static int hz_of(const struct json_read_val *d, const char *label, char *src, size_t len)
{
	double hz;
	if (json_read_num(d, "provenance.kernel_hz", &hz) && hz >= 1) {
		snprintf(src, len, "provenance.kernel_hz (%s)",
			 json_read_str(d, "provenance.kernel_tick_source", "?"));
		/* A path of the document's goes into model-inputs.json as it is. */
		for (char *c = src; *c; c++)
			if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
				*c = '?';
		return (int)hz;
	}
	/* kernels/7.2-lab-hz250: 7.2-lab with fragments/hz250.config. */
	if (strncmp(label, "7.2-lab-hz250", 13) == 0) {
		snprintf(src, len, "7.2-lab-hz250's fragments/hz250.config: CONFIG_HZ=250");
		return 250;
	}
	if (strncmp(label, "7.2-lab", 7) == 0) {
		snprintf(src, len, "7.2-lab's .config (x86 defconfig): CONFIG_HZ=1000");
		return 1000;
	}
	snprintf(src, len, "Debian amd64 config: CONFIG_HZ=250 (kernel %s)", label);
	return 250;
}

static const struct json_read_val *phase(const struct json_read_val *arr, const char *name)
{
	for (size_t i = 0; arr && arr->type == JR_ARR && i < arr->n; i++)
		if (strcmp(json_read_str(arr->items[i], "name", ""), name) == 0)
			return arr->items[i];
	return NULL;
}

static double num(const struct json_read_val *v, const char *path)
{
	double x;
	return json_read_num(v, path, &x) ? x : 0;
}

/* An instrument inside the hold, named; NULL when there was none. */
static const char *in_hold(const struct json_read_val *doc)
{
	const struct json_read_val *ihs = json_read_path(doc, "config.in_hold_syscalls");
	if (ihs && ihs->type == JR_ARR && ihs->n > 0)
		return "config.in_hold_syscalls is not empty (--hold-events=in-hold)";
	if (!ihs && json_read_true(doc, "config.hold_events"))
		return "hold_events: true in a document older than issue 24 (in the hold)";
	return NULL;
}

static struct extract_group *group_for(struct extract_set *s, const char *page, int clients, int cpus)
{
	for (int i = 0; i < s->ngroups; i++)
		if (strcmp(s->g[i].page, page) == 0 && s->g[i].clients == clients &&
		    s->g[i].cpus == cpus)
			return &s->g[i];
	if (s->ngroups == MX_MAX_GROUPS)
		return NULL;
	struct extract_group *g = &s->g[s->ngroups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->page, sizeof(g->page), "%s", page);
	g->clients = clients;
	g->cpus = cpus;
	g->fault_around_pages = -1;
	return g;
}

/* Counts into a channel: k stalled of n faulting holds for model pm, ns over timed stalls. */
static void add_channel(struct extract_group *g, enum channel c, enum pmodel pm, double k, double n,
			double ns, double timed)
{
	g->ch[c].k[pm] += k;
	g->ch[c].n[pm] += n;
	g->ch[c].ns += ns;
	g->ch[c].timed += timed;
}

/* The channels' counts from a fill phase's census (e: its evidence), where it traced them. */
static void add_census(struct extract_group *g, enum pmodel pm, const struct json_read_val *e)
{
	const struct json_read_val *c = json_read_path(e, "census");
	if (!c)
		return;
	double hf = num(e, "holds_with_fault");
	const struct json_read_val *fz = json_read_path(c, "freezes");
	if (fz) {
		double f = num(fz, "fault.n");
		add_channel(g, CH_EMU_FREEZE, pm, num(fz, "no_fault.n") + f, hf,
			    num(fz, "no_fault.ns") + num(fz, "fault.ns"), num(fz, "no_fault.n") + f);
		g->fz_faulted += f;
	}
	const struct json_read_val *r = json_read_path(c, "routes.blocked_in_fault");
	if (r) {
		/* Its own channel now: out of q, so that no stall is counted twice. */
		g->qb[pm] += num(e, "q_m.blocked_in_fault");
		add_channel(g, CH_BLOCKED, pm, num(e, "q_m.blocked_in_fault"), num(e, "q_m.n"),
			    num(r, "offcpu_ns"), num(r, "n"));
	}
	if (json_read_true(c, "wakeups.traced"))
		add_channel(g, CH_WAKEUP, pm, num(c, "wakeups.slept_in_fault"), hf,
			    num(c, "wakeups.local.total_ns") + num(c, "wakeups.remote.total_ns"),
			    num(c, "wakeups.local.n") + num(c, "wakeups.remote.n"));
	if (json_read_true(c, "ticks.traced"))
		add_channel(g, CH_TICK_SPAN, pm, num(c, "ticks.spanning_tick"), num(c, "ticks.fault_holds"),
			    0, 0);
}

/*
 * One document into its group; 1 when it was used, 0 when skipped, -1 a
 * mitigation's.  bare: a document without evidence counts too, for what
 * the run itself measured (tps, acquisitions and faults per transaction).
 */
static int add_doc(struct extract_set *s, const struct json_read_val *d, double twin_tps, int bare)
{
	/*
	 * SCENARIO=mitigations puts each mitigation beside none on the same
	 * kernel and model: only the unmitigated cells are the lock the model
	 * describes (a prefaulted pool has no faulting holds, hugepages is
	 * another page size, pg19 and partitioned another strategy).  Older
	 * documents have no config.mitigation: they are unmitigated.
	 */
	const char *mit = json_read_str(d, "config.mitigation", "none");
	if (strcmp(mit, "none") != 0) {
		s->mitigated++;
		return -1;
	}
	const struct json_read_val *ev = json_read_path(d, "evidence.phases");
	const struct json_read_val *rp = json_read_path(d, "results.phases");
	const struct json_read_val *e = phase(ev, "fill"), *p = phase(rp, "fill");
	enum pmodel pm;
	if (strcmp(json_read_str(d, "tool", ""), "bufbench") != 0 || (!e && !bare) || !p ||
	    pmodel_parse(json_read_str(d, "provenance.preempt_model", ""), &pm) != 0 ||
	    *json_read_str(d, "results.error", "") || num(p, "transactions") <= 0)
		return 0;
	struct extract_group *g = group_for(s, json_read_str(d, "provenance.page_policy", "?"),
				       (int)num(d, "config.clients"), (int)num(d, "provenance.cpus"));
	if (!g || g->runs == MX_MAX_RUNS)
		return 0;
	if (!g->runs) {
		const char *label = json_read_str(d, "provenance.kernel_label", "?");
		snprintf(g->kernel, sizeof(g->kernel), "%s", label);
		snprintf(g->virt, sizeof(g->virt), "%s", json_read_str(d, "provenance.virtualization", "?"));
		snprintf(g->revision, sizeof(g->revision), "%s", json_read_str(d, "provenance.lab_revision", "?"));
		g->hz = hz_of(d, label, g->hz_source, sizeof(g->hz_source));
		double fa;
		if (json_read_num(d, "provenance.fault_around_pages", &fa))
			g->fault_around_pages = (int)fa;
		g->pool_pages = num(d, "config.pool_pages");
		g->block_size = num(d, "config.block_size");
		g->segment_bytes = num(d, "config.segment_bytes");
	}
	/* Runs of one family made by different code: name every revision, so
	 * that a dirty one among them is not hidden behind the first. */
	const char *rev = json_read_str(d, "provenance.lab_revision", "?");
	size_t rl = strlen(g->revision), vl = strlen(rev);
	int rseen = 0;
	for (const char *k = g->revision; (k = strstr(k, rev)) != NULL; k += vl)
		if ((k == g->revision || k[-1] == '+') && (k[vl] == '\0' || k[vl] == '+'))
			rseen = 1;
	if (!rseen && rl + vl + 2 <= sizeof(g->revision))
		snprintf(g->revision + rl, sizeof(g->revision) - rl, "+%s", rev);
	/* A family may span kernels (a baseline's none beside 7.0's lazy): name them all. */
	const char *label = json_read_str(d, "provenance.kernel_label", "?");
	size_t kl = strlen(g->kernel), ll = strlen(label);
	int seen = 0;
	for (const char *k = g->kernel; (k = strstr(k, label)) != NULL; k += ll)
		if ((k == g->kernel || k[-1] == '+') && (k[ll] == '\0' || k[ll] == '+'))
			seen = 1;
	if (!seen && kl + ll + 2 <= sizeof(g->kernel))
		snprintf(g->kernel + kl, sizeof(g->kernel) - kl, "+%s", label);
	g->runs++;
	/* Timings from the bare twin where there is one: the trace slows the run. */
	g->tps[pm][g->ntps[pm]++] = twin_tps > 0 ? twin_tps : num(p, "tps");
	s->twinned += twin_tps > 0;
	g->m[g->runs - 1] = num(p, "strategy.acquisitions") / num(p, "transactions");
	g->fpt[g->nfpt++] = num(p, "minor_faults") / num(p, "transactions");
	if (!e) {
		s->bare++;
		return 1;
	}
	g->qk[pm] += num(e, "q_m.k");
	g->qn[pm] += num(e, "q_m.n");
	g->holds += num(e, "holds");
	g->holds_fault += num(e, "holds_with_fault");

	/* T: a stalled holder's mean time off CPU, then the lock's mean free tail. */
	double oc = num(e, "offcpu.count"), ons = num(e, "offcpu.total_ns");
	double tc = num(p, "t_tail.count"), tm = num(p, "t_tail.mean_us");
	g->offcpu_ns += ons;
	g->offcpu_count += oc;
	g->tail_us_sum += tm * tc;
	g->tail_count += tc;
	if (oc > 0)
		g->t_us[g->nt++] = ons / oc / 1000 + tm;

	const struct json_read_val *h = json_read_path(p, "strategy.hold_hist");
	for (size_t i = 0; h && h->type == JR_ARR && i < h->n && i < 32; i++)
		g->hold_hist[i] += h->items[i]->num;
	g->switched += num(e, "holds_switched");
	add_census(g, pm, e);
	double fc;
	if (json_read_num(d, "provenance.fault_cost_ns", &fc) && fc > 0)
		g->fault_ns[g->nfault++] = fc;
	return 1;
}

/*
 * The fill tps of NAME's bare twin (NAME with -ctl before .json, CONTROLS:
 * the same seed in the same boot without the instrument), 0 without one.
 * The instrumented run's own counts stay the model's (issue 24): only its
 * time is the instrument's as much as the lock's.
 */
static double twin_fill_tps(const char *dir, const char *name)
{
	size_t l = strlen(name);
	if (l < 5 || (l > 9 && strcmp(name + l - 9, "-ctl.json") == 0))
		return 0;
	char path[8192], err[256];
	snprintf(path, sizeof(path), "%s/%.*s-ctl.json", dir, (int)(l - 5), name);
	if (access(path, R_OK) != 0)
		return 0;
	struct json_read_val *t = json_read_parse_file(path, err, sizeof(err));
	if (!t)
		return 0;
	const struct json_read_val *p = phase(json_read_path(t, "results.phases"), "fill");
	double tps = p && !*json_read_str(t, "results.error", "") ? num(p, "tps") : 0;
	json_read_free(t);
	return tps;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * What X0 per page size needs beyond one group: the same run's faults per
 * transaction at the other page sizes (same clients and CPUs), and the
 * run's costbench fault costs.
 */
static void link_pages(const char *rundir, struct extract_set *s)
{
	struct fault_costs c;
	fc_scan_run(rundir, &c);
	for (int i = 0; i < s->ngroups; i++) {
		struct extract_group *g = &s->g[i];
		g->costs = c;
		for (int j = 0; j < s->ngroups; j++) {
			const struct extract_group *h = &s->g[j];
			int p = inputs_page_index(h->page);
			if (p >= 0 && h->clients == g->clients && h->cpus == g->cpus && h->nfpt)
				g->faults_by_page[p] = st_mean(h->fpt, (size_t)h->nfpt);
		}
	}
}

static int scan(const char *rundir, struct extract_set *s, int bare, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/runs", rundir);
	DIR *dh = opendir(dir);
	if (!dh) {
		snprintf(err, errlen, "%s: no runs/ directory (a make bench results directory?)", rundir);
		return MX_ERR;
	}
	char *names[1024];
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dh)) && n < 1024) {
		size_t l = strlen(de->d_name);
		if (l > 5 && strcmp(de->d_name + l - 5, ".json") == 0)
			names[n++] = strdup(de->d_name);
	}
	closedir(dh);
	/* Sorted: the groups and their runs come out in the same order every time. */
	qsort(names, n, sizeof(char *), cmp_name);
	int rc = MX_OK;
	for (size_t i = 0; i < n; i++) {
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		struct json_read_val *d = json_read_parse_file(path, err, errlen);
		if (!d) {
			rc = MX_ERR;
			break;
		}
		const char *why = in_hold(d);
		if (why) {
			snprintf(err, errlen, "%s: %s; an instrument inside the hold lengthens every "
				 "hold, so its q and T describe the instrument, not the lock: "
				 "measure without it", path, why);
			json_read_free(d);
			rc = MX_IN_HOLD;
			break;
		}
		if (add_doc(s, d, twin_fill_tps(dir, names[i]), bare) == 0)
			s->skipped++;
		json_read_free(d);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	if (rc == MX_OK)
		link_pages(rundir, s);
	if (rc == MX_OK && s->ngroups == 0) {
		snprintf(err, errlen, "%s: no bufbench run with %s and a known preemption model", dir,
			 bare ? "a fill phase" : "evidence (make bench EVIDENCE=on)");
		rc = MX_ERR;
	}
	return rc;
}

int extract_scan(const char *rundir, struct extract_set *s, char *err, size_t errlen)
{
	return scan(rundir, s, 0, err, errlen);
}

int extract_scan_timed(const char *rundir, struct extract_set *s, char *err, size_t errlen)
{
	int rc = scan(rundir, s, 0, err, errlen);
	if (rc != MX_ERR || s->ngroups > 0)
		return rc;
	/* No evidence anywhere: the run was bare, and its times are its own. */
	char why[512];
	snprintf(why, sizeof(why), "%s", err);
	rc = scan(rundir, s, 1, err, errlen);
	if (rc == MX_ERR && s->ngroups == 0)
		snprintf(err, errlen, "%s", why);
	return rc;
}

double extract_hist_median_us(const double *hist, int n, double *lo_us, double *hi_us)
{
	double total = 0, cum = 0;
	for (int i = 0; i < n; i++)
		total += hist[i];
	for (int i = 0; i < n && total > 0; i++) {
		if (cum + hist[i] >= total / 2 && hist[i] > 0) {
			double lo = ldexp(1, i) / 1000, hi = ldexp(1, i + 1) / 1000;
			*lo_us = lo;
			*hi_us = hi;
			return lo + (total / 2 - cum) / hist[i] * (hi - lo);
		}
		cum += hist[i];
	}
	*lo_us = *hi_us = 0;
	return 0;
}

/* Mean of x with its t interval; exact when one value. */
static void mean_ci(const double *x, int n, double *v, double *lo, double *hi)
{
	*v = st_mean(x, (size_t)n);
	double hw = n > 1 ? st_t_critical(0.05, n - 1) * st_stddev(x, (size_t)n) / sqrt(n) : 0;
	*lo = *v - hw > 0 ? *v - hw : 0;
	*hi = *v + hw;
}

/* Geometric mean of rates with the t interval of the log. */
static void gmean_ci(const double *x, int n, double *v, double *lo, double *hi)
{
	double l[MX_MAX_RUNS] = { 0 };
	for (int i = 0; i < n; i++)
		l[i] = log(x[i]);
	double m = st_mean(l, (size_t)n);
	double hw = n > 1 ? st_t_critical(0.05, n - 1) * st_stddev(l, (size_t)n) / sqrt(n) : 0;
	*v = exp(m);
	*lo = exp(m - hw);
	*hi = exp(m + hw);
}

static void put_value(FILE *f, const char *key, double v, double lo, double hi, const char *end)
{
	fprintf(f, "  \"%s\": { \"value\": %.6g, \"lo\": %.6g, \"hi\": %.6g }%s\n", key, v, lo, hi, end);
}

/*
 * Fault durations from the holds' own timings: the faulting holds are the
 * longest but for the switched ones (which hold off-CPU time), so the
 * histogram's top holds_fault holds below its top `switched` ones.  Each
 * still includes the hold's own microseconds, which the median subtracts.
 */
/* The faulting holds' histogram buckets (their counts in take). */
static void fault_take(const struct extract_group *g, double take[32])
{
	double qk = 0;
	for (int i = 0; i < PM_COUNT; i++)
		qk += g->qk[i];
	/* The faulting holds that were also switched are among the skipped. */
	double skip = g->switched, want = g->holds_fault - qk;
	for (int i = 31; i >= 0 && want > 0; i--) {
		double c = g->hold_hist[i];
		double s = c < skip ? c : skip;
		skip -= s;
		c -= s;
		take[i] = c < want ? c : want;
		want -= take[i];
	}
}

/* The run's own fault microbenchmark: the one point used when no hold faulted. */
static double fault_point_us(const struct extract_group *g)
{
	return g->nfault ? st_median(g->fault_ns, (size_t)g->nfault) / 1000 : 1;
}

/* A bucket's edges less the median hold (a fault's own time). */
static void fault_edges(int i, double hold_med_us, double *lo, double *hi)
{
	*lo = fmax(0, ldexp(1, i) / 1000 - hold_med_us);
	*hi = fmax(0, ldexp(1, i + 1) / 1000 - hold_med_us);
}

/* The mean of the distribution put_faults writes (uniform inside a bucket). */
static double fault_mean_us(const struct extract_group *g, double hold_med_us)
{
	double take[32] = { 0 }, n = 0, sum = 0, lo, hi;
	fault_take(g, take);
	for (int i = 0; i < 32; i++) {
		fault_edges(i, hold_med_us, &lo, &hi);
		n += take[i];
		sum += take[i] * (lo + hi) / 2;
	}
	return n > 0 ? sum / n : fault_point_us(g);
}

static void put_faults(FILE *f, const struct extract_group *g, double hold_med_us)
{
	double take[32] = { 0 };
	fault_take(g, take);
	fprintf(f, "  \"fault_us\": { \"histogram\": [");
	int first = 1;
	for (int i = 0; i < 32; i++) {
		if (take[i] <= 0)
			continue;
		double lo, hi;
		fault_edges(i, hold_med_us, &lo, &hi);
		fprintf(f, "%s[%.4g, %.4g, %.0f]", first ? "" : ", ", lo, hi, take[i]);
		first = 0;
	}
	if (first) {
		/* No faulting hold: the run's own fault microbenchmark, one point. */
		double c = fault_point_us(g);
		fprintf(f, "[%.4g, %.4g, 1]", c, c);
	}
	fprintf(f, "] },\n");
}

/* X0 per page size's inputs (x0page.h). */
static void put_page_fields(FILE *f, const struct extract_group *g)
{
	double v, lo, hi;
	mean_ci(g->fpt, g->nfpt, &v, &lo, &hi);
	put_value(f, "faults_per_txn", v, lo, hi, ",");
	fprintf(f, "  \"segment_bytes\": %.0f,\n  \"faults_per_txn_by_page\": {", g->segment_bytes);
	int first = 1;
	for (int p = 0; p < MI_PAGES; p++)
		if (g->faults_by_page[p] > 0) {
			fprintf(f, "%s \"%s\": %.6g", first ? "" : ",", inputs_page_name(p), g->faults_by_page[p]);
			first = 0;
		}
	fprintf(f, " },\n");
	if (!g->costs.docs)
		return;
	fprintf(f, "  \"fault_costs_us\": {");
	for (int p = 0; p < MI_PAGES; p++)
		fprintf(f, " \"%s\": { \"alloc\": %.6g, \"map\": %.6g },", inputs_page_name(p),
			g->costs.alloc_us[p], g->costs.map_us[p]);
	fprintf(f, " \"source\": \"");
	/* The run directory's name is a document's text here: keep it a JSON string. */
	for (const char *c = g->costs.source; *c; c++)
		if (*c >= 0x20 && *c != '"' && *c != '\\')
			fputc(*c, f);
	fprintf(f, "\" },\n");
}

/*
 * One channel's member of "channels": p per model that measured it, k of n
 * with its Wilson interval, and t_us where some stall was timed.  The
 * emulator's freezes: p per faulting hold counts frozen holds of either
 * kind (so that m p_f p is their rate per acquisition), and t is their
 * length beyond what the hold would have taken (a faulting one's fault,
 * the provenance's cost, taken off).  A blocked holder's time is its time
 * off CPU less its wakeup's latency, which is the wakeup channel's.  A
 * tick inside the fault makes no stall of its own: lazy's upgrade there
 * is q's in_fault route, so the channel says so (inside_q) and has no t.
 */
static void put_channel(FILE *f, const struct extract_group *g, enum channel c, bool *first)
{
	const struct extract_channel *x = &g->ch[c];
	int have = 0;
	for (int i = 0; i < PM_COUNT; i++) {
		have += x->n[i] > 0;
		if (x->k[i] > x->n[i])
			return;
	}
	if (!have)
		return;
	fprintf(f, "%s\n    \"%s\": {\n      \"p\": {", *first ? "" : ",", ch_key(c));
	*first = false;
	int one = 1;
	for (int i = 0; i < PM_COUNT; i++) {
		if (x->n[i] <= 0)
			continue;
		double v = x->k[i] / x->n[i], lo, hi;
		st_wilson(x->k[i], x->n[i], &lo, &hi);
		fprintf(f, "%s\n        \"%s\": { \"value\": %.6g, \"lo\": %.6g, \"hi\": %.6g, "
			   "\"k\": %.0f, \"n\": %.0f }", one ? "" : ",", pmodel_name(i), v,
			lo < v ? lo : v, hi > v ? hi : v, x->k[i], x->n[i]);
		one = 0;
	}
	fprintf(f, "\n      }");
	if (x->timed > 0) {
		double t = x->ns / x->timed;
		if (c == CH_EMU_FREEZE)
			t -= g->fz_faulted * (g->nfault ? st_median(g->fault_ns, (size_t)g->nfault) : 0) /
			     x->timed;
		if (c == CH_BLOCKED && g->ch[CH_WAKEUP].timed > 0)
			t -= g->ch[CH_WAKEUP].ns / g->ch[CH_WAKEUP].timed;
		fprintf(f, ",\n      \"t_us\": %.6g", t > 0 ? t / 1000 : 0);
	}
	if (c == CH_TICK_SPAN)
		fprintf(f, ",\n      \"inside_q\": \"in_fault\"");
	if (c == CH_EMU_FREEZE)
		fprintf(f, ",\n      \"frozen_holds\": %.0f, \"of_them_faulted\": %.0f", x->timed,
			g->fz_faulted);
	fprintf(f, "\n    }");
}

void extract_write_channels(FILE *f, const struct extract_group *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	bool first = true;
	for (int c = 0; c < CH_COUNT; c++)
		put_channel(m, g, (enum channel)c, &first);
	fclose(m);
	if (len)
		fprintf(f, "  \"channels\": {%s\n  },\n", buf);
	free(buf);
}

int extract_write(FILE *f, const struct extract_group *g, const char *source, char *err, size_t errlen)
{
	if (g->ntps[PM_NONE] == 0) {
		snprintf(err, errlen, "%s pages, %d clients: no none runs (ratios and X0 are against none)",
			 g->page, g->clients);
		return MX_ERR;
	}
	double v, lo, hi;
	fprintf(f, "{\n  \"schema\": \"preemptlab-model-inputs/1\",\n");
	fprintf(f, "  \"source\": \"make model RUN=%s (%d runs; kernel %s, %s, lab %s)\",\n", source,
		g->runs, g->kernel, g->virt, g->revision);
	fprintf(f, "  \"in_hold_instrument\": false,\n  \"page_size\": \"%s\",\n", g->page);
	fprintf(f, "  \"hz\": %d,\n  \"hz_source\": \"%s\",\n", g->hz, g->hz_source);
	fprintf(f, "  \"cpus\": %d,\n  \"clients\": %d,\n", g->cpus, g->clients);
	fprintf(f, "  \"fault_around_pages\": %d,\n", g->fault_around_pages);
	fprintf(f, "  \"pool_pages\": %.0f,\n  \"block_size\": %.0f,\n", g->pool_pages, g->block_size);

	double m, mlo, mhi;
	mean_ci(g->m, g->runs, &m, &mlo, &mhi);
	double pf = g->holds > 0 ? g->holds_fault / g->holds : 0, pflo, pfhi;
	st_wilson(g->holds_fault, g->holds, &pflo, &pfhi);
	double t, tlo, thi;
	if (g->nt > 0) {
		mean_ci(g->t_us, g->nt, &t, &tlo, &thi);
	} else {
		/* No holder went off CPU holding: only the tail is measured. */
		t = tlo = thi = g->tail_count > 0 ? g->tail_us_sum / g->tail_count : 0;
	}
	double qv[PM_COUNT], ql[PM_COUNT], qh[PM_COUNT];
	for (int i = 0; i < PM_COUNT; i++) {
		double k = g->qk[i] - g->qb[i];
		qv[i] = g->qn[i] > 0 ? k / g->qn[i] : 0;
		st_wilson(k, g->qn[i], &ql[i], &qh[i]);
		if (qh[i] < qv[i]) /* Wilson's rounding at k = n */
			qh[i] = qv[i];
		if (ql[i] > qv[i])
			ql[i] = qv[i];
	}

	/*
	 * X0 inverts the closed form at none's measured tps (closed.h): the
	 * x0 whose lock-limited, stall-added fill is X.  Refused where no x0
	 * can give X (the stalls or the lock would take all the time).
	 */
	double hlo, hhi;
	double hm = extract_hist_median_us(g->hold_hist, 32, &hlo, &hhi);
	double kn = closed_k(m, pf, qv[PM_NONE], t);
	double s = closed_service_s(hm, pf, fault_mean_us(g, hm));
	int n = (int)g->clients;
	double x0[3];
	gmean_ci(g->tps[PM_NONE], g->ntps[PM_NONE], &v, &lo, &hi);
	double xs[3] = { v, lo, hi };
	for (int i = 0; i < 3; i++)
		if (closed_x0_for(xs[i], kn, n, m, s, &x0[i]) != 0) {
			snprintf(err, errlen, "none's fill tps %.6g with k %.3g s and lock service %.3g us: "
				 "no stall-free X0 gives it (X k %.3g, X m s %.3g; their sum must stay below 1)",
				 xs[i], kn, s * 1e6, xs[i] * kn, xs[i] * m * s);
			return MX_ERR;
		}
	put_value(f, "x0_tps", x0[0], x0[1], x0[2], ",");
	put_value(f, "m", m, mlo, mhi, ",");
	put_value(f, "p_f", pf, pflo < pf ? pflo : pf, pfhi > pf ? pfhi : pf, ",");
	put_value(f, "hold_us", hm, hlo, hhi, ",");
	put_value(f, "t_stall_us", t, tlo, thi, ",");
	fprintf(f, "  \"t_parts_us\": { \"offcpu_mean\": %.6g, \"tail_mean\": %.6g, "
		   "\"offcpu_intervals\": %.0f, \"tail_gaps\": %.0f },\n",
		g->offcpu_count > 0 ? g->offcpu_ns / g->offcpu_count / 1000 : 0,
		g->tail_count > 0 ? g->tail_us_sum / g->tail_count : 0, g->offcpu_count, g->tail_count);
	fprintf(f, "  \"q\": {");
	int first = 1;
	for (int i = 0; i < PM_COUNT; i++) {
		if (g->ntps[i] == 0)
			continue;
		fprintf(f, "%s\n    \"%s\": { \"value\": %.6g, \"lo\": %.6g, \"hi\": %.6g, "
			   "\"k\": %.0f, \"n\": %.0f }", first ? "" : ",", pmodel_name(i), qv[i], ql[i],
			qh[i], g->qk[i] - g->qb[i], g->qn[i]);
		first = 0;
	}
	fprintf(f, "\n  },\n");
	put_faults(f, g, hm);
	fprintf(f, "  \"fault_cost_us\": %.6g,\n",
		g->nfault ? st_median(g->fault_ns, (size_t)g->nfault) / 1000 : 0);
	put_page_fields(f, g);
	extract_write_channels(f, g);
	fprintf(f, "  \"measured_fill_tps\": {");
	first = 1;
	for (int i = 0; i < PM_COUNT; i++) {
		if (g->ntps[i] == 0)
			continue;
		gmean_ci(g->tps[i], g->ntps[i], &v, &lo, &hi);
		fprintf(f, "%s\n    \"%s\": { \"value\": %.6g, \"lo\": %.6g, \"hi\": %.6g, \"runs\": %d }",
			first ? "" : ",", pmodel_name(i), v, lo, hi, g->ntps[i]);
		first = 0;
	}
	fprintf(f, "\n  }\n}\n");
	return MX_OK;
}
