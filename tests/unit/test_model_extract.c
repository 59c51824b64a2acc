/*
 * make model's extraction (lab/model/extract.c) and the extrapolation rules
 * (extrap.c) on real runs: tests/data/run-model (6.12 guest, icount, 21
 * clients, 4 KB, none and full, 3 runs each, EVIDENCE=on) and
 * run-model-inhold (one of those beside a host run with
 * --hold-events=in-hold).  Expected numbers were summed from the documents
 * by hand (python over the JSON, shown in the comments).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/closed.h"
#include "model/eevdf.h"
#include "model/extract.h"
#include "model/extrap.h"
#include "model/inputs.h"
#include "model/sim.h"
#include "json_read.h"
#include "statistics.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))
#define DATA PREEMPTLAB_TOP "/tests/data/"

static struct extract_set set;

static void test_scan(void)
{
	char err[1024];
	int rc = extract_scan(DATA "run-model", &set, err, sizeof(err));
	CHECK(rc == MX_OK && set.ngroups == 1, "run-model: one cell family (rc %d, %d groups)", rc,
	      set.ngroups);
	if (rc != MX_OK)
		return;
	const struct extract_group *g = &set.g[0];
	CHECK(strcmp(g->page, "4k") == 0 && g->clients == 21 && g->cpus == 2 && g->runs == 6,
	      "4k, 21 clients, 2 CPUs, 6 runs (%s, %d, %d, %d)", g->page, g->clients, g->cpus, g->runs);
	CHECK(g->ntps[PM_NONE] == 3 && g->ntps[PM_FULL] == 3 && g->ntps[PM_LAZY] == 0,
	      "3 none runs, 3 full, no lazy");
	/* Sum of evidence.phases[fill].holds = 6 x 8192; holds_with_fault 862. */
	CHECK(g->holds == 49152 && g->holds_fault == 862, "fill holds 49152, faulting 862 (%.0f, %.0f)",
	      g->holds, g->holds_fault);
	/* q_m pooled: none 1 of 437, full 1 of 425. */
	CHECK(g->qk[PM_NONE] == 1 && g->qn[PM_NONE] == 437 && g->qk[PM_FULL] == 1 &&
		      g->qn[PM_FULL] == 425, "q none 1/437, full 1/425");
	CHECK(g->hz == 250 && g->fault_around_pages == 15 && g->pool_pages == 8192,
	      "HZ 250 (Debian), fault-around 15 pages, pool 8192 buffers");
	double lo, hi;
	double med = extract_hist_median_us(g->hold_hist, 32, &lo, &hi);
	/* 50,157 holds: the median falls in bucket 10 ([1.024, 2.048) us), 25,078.5 into its 48,138. */
	CHECK(NEAR(med, 1.546785, 1e-5) && lo == 1.024 && hi == 2.048,
	      "hold median %.6f us (by hand 1.546785) in [1.024, 2.048)", med);
}

static void test_median(void)
{
	double h[32] = { 0 }, lo, hi;
	h[10] = 3;
	h[11] = 1;
	/* Half of 4 is 2 of bucket 10's 3: 1.024 + 2/3 x 1.024. */
	double m = extract_hist_median_us(h, 32, &lo, &hi);
	CHECK(NEAR(m, 1.024 + 2.0 / 3 * 1.024, 1e-9), "median of {1.024..2.048: 3, 2.048..: 1} = %.6f", m);
	double z[32] = { 0 };
	CHECK(extract_hist_median_us(z, 32, &lo, &hi) == 0, "an empty histogram has median 0");
}

static void test_write_roundtrip(void)
{
	if (set.ngroups < 1)
		return;
	const char *path = "/tmp/test_model_extract.json";
	FILE *f = fopen(path, "w");
	char err[1024];
	int rc = extract_write(f, &set.g[0], "tests/data/run-model", err, sizeof(err));
	fclose(f);
	struct model_inputs in;
	bool ok = rc == MX_OK && inputs_read(path, &in, err, sizeof(err));
	CHECK(ok, "the written inputs read back (%s)", ok ? "ok" : err);
	if (!ok)
		return;
	CHECK(NEAR(in.p_f.v, 862.0 / 49152, 1e-6) && in.p_f.lo < in.p_f.v && in.p_f.hi > in.p_f.v,
	      "p_f %.6f = 862/49152, Wilson interval %.5f..%.5f", in.p_f.v, in.p_f.lo, in.p_f.hi);
	CHECK(NEAR(in.m.v, 0.335543, 1e-5), "m %.6f acquisitions per transaction (by hand 0.335543)", in.m.v);
	/* T: per run, offcpu.total_ns / count / 1000 + t_tail.mean_us; mean of the 6. */
	CHECK(NEAR(in.t_stall_us.v, 6066.82, 0.05), "T %.2f us (by hand 6066.82)", in.t_stall_us.v);
	CHECK(in.have_q[PM_NONE] && in.have_q[PM_FULL] && !in.have_q[PM_LAZY] &&
		      NEAR(in.q[PM_NONE].v, 1.0 / 437, 1e-6) && NEAR(in.q[PM_FULL].v, 1.0 / 425, 1e-6),
	      "q none 1/437, full 1/425, no lazy");
	/*
	 * X0 inverts 1/X = 1/X_free + k at none's geometric mean 6997.692 tps,
	 * X_free the lock-limited fill (closed.h): the model gives back X, and
	 * with the lock this cold (s ~2.5 us at ~2,350 acquisitions/s) X0 is
	 * within a few tps of the stall-only 1/(1/X - k) = 7001.69.
	 */
	double x = 6997.691919, k = closed_k(in.m.v, in.p_f.v, in.q[PM_NONE].v, in.t_stall_us.v);
	double sv = closed_service_s(in.hold_us.v, in.p_f.v, inputs_dist_mean(&in.fault_us));
	double back = closed_throughput(closed_free(in.x0_tps.v, 21, in.m.v, sv), k);
	/* (X0 is written with 6 digits: back within 0.01 tps.) */
	CHECK(NEAR(back, x, 0.01) && NEAR(in.x0_tps.v, 1 / (1 / x - k), 0.1) &&
		      NEAR(1 / (1 / x - k), 7001.69, 0.05) && in.x0_tps.v > 1 / (1 / x - k),
	      "X0 %.2f gives back X %.4f (6997.69); stall-only 1/(1/X - k) %.2f (by hand 7001.69), "
	      "the lock's queue the rest", in.x0_tps.v, back, 1 / (1 / x - k));
	CHECK(in.fault_us.n >= 2 && in.fault_us.x[0] > 25 && in.fault_us.x[0] < 35,
	      "fault durations start in the 32-64 us bucket less the hold (%.2f us)", in.fault_us.x[0]);
	CHECK(!in.in_hold_instrument && in.cpus == 2 && in.clients == 21, "no in-hold instrument, 2 CPUs, 21 clients");

	/*
	 * The simulated none/full pair from the fixture's own inputs lands
	 * within the interval of the ratio the fixture measured.
	 */
	const struct extract_group *g = &set.g[0];
	struct ratio meas = st_ratio(g->tps[PM_NONE], 3, g->tps[PM_FULL], 3);
	struct sim_params sp;
	struct sim_result a, b;
	sim_params_from_inputs(&sp, &in, 2, 21, PM_NONE, 27);
	sp.duration_ns = 2e9;
	sp.warmup_ns = 2e8;
	int srn = sim_run(&sp, &a);
	sp.model = PM_FULL;
	int srf = sim_run(&sp, &b);
	double sr = a.tps > 0 ? b.tps / a.tps : 0;
	CHECK(srn == 0 && srf == 0 && meas.ok && sr >= meas.lo && sr <= meas.hi,
	      "simulated full/none %.4fx within the measured %.3fx [%.3f, %.3f] (none %.0f tps simulated, "
	      "%.0f measured)", sr, meas.est, meas.lo, meas.hi, a.tps, st_gmean(g->tps[PM_NONE], 3));

	/* Extrapolating to the same size changes nothing. */
	struct extrap_target t = { .cpus = 2, .clients = 21, .hz = 250, .pool_pages = 8192,
			       .fault_around_pages = 15 };
	snprintf(t.page, sizeof(t.page), "4k");
	struct model_inputs out;
	struct extrap_trace tr;
	rc = extrap_apply(&in, &t, &out, &tr, err, sizeof(err));
	CHECK(rc == 0 && NEAR(out.p_f.v, in.p_f.v, 1e-12) && NEAR(out.t_stall_us.v, in.t_stall_us.v, 1e-9),
	      "the same size: p_f %.5f and T %.0f unchanged", out.p_f.v, out.t_stall_us.v);
	/* 2 MB at a 64 MB pool: all 8192 descriptors in the lock's own huge page. */
	snprintf(t.page, sizeof(t.page), "2m");
	rc = extrap_apply(&in, &t, &out, &tr, err, sizeof(err));
	CHECK(rc == 0 && out.p_f.v == 0, "2 MB, 64 MB pool: p_f 0 (the lock's huge page holds every descriptor)");
}

/* JSON text of g's "channels" member, parsed. */
static struct json_read_val *channels_of(const struct extract_group *g)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fputs("{", f);
	extract_write_channels(f, g);
	fputs("\"end\": 0}", f);
	fclose(f);
	struct json_read_val *doc = json_read_parse(buf, err, sizeof(err));
	free(buf);
	return doc;
}

/*
 * The emulator-freeze channel from the fill census (tests/data/run-census:
 * 7.0 guest, full and lazy, 2 runs each).  By hand from the documents
 * (evidence.phases[fill]): frozen holds no_fault.n + fault.n, full 21+1
 * and 21+0, lazy 21 and 21; holds_with_fault full 141+142, lazy 141+144;
 * frozen time 11,338,717 ns, one frozen hold faulted, fault cost 57,848 ns:
 * t = (11338717 - 57848) / 85 / 1000 = 132.716 us.
 */
static void test_freeze_channel(void)
{
	static struct extract_set cs;
	char err[1024];
	int rc = extract_scan(DATA "run-census", &cs, err, sizeof(err));
	CHECK(rc == MX_OK && cs.ngroups == 1, "run-census: one family (rc %d)", rc);
	if (rc != MX_OK || cs.ngroups != 1)
		return;
	const struct extract_group *g = &cs.g[0];
	const struct extract_channel *fz = &g->ch[CH_EMU_FREEZE];
	CHECK(fz->k[PM_FULL] == 43 && fz->n[PM_FULL] == 283 && fz->k[PM_LAZY] == 42 &&
		      fz->n[PM_LAZY] == 285 && fz->n[PM_NONE] == 0,
	      "frozen holds full 43 of 283 faulting, lazy 42 of 285, none no census (%.0f/%.0f, %.0f/%.0f)",
	      fz->k[PM_FULL], fz->n[PM_FULL], fz->k[PM_LAZY], fz->n[PM_LAZY]);
	CHECK(fz->ns == 11338717 && g->fz_faulted == 1, "frozen time 11338717 ns, 1 faulted (%.0f, %.0f)",
	      fz->ns, g->fz_faulted);
	struct json_read_val *doc = channels_of(g);
	double pf = 0, pl = 0, t = 0, lo = 1, hi = 0;
	bool ok = doc && json_read_num(doc, "channels.emulator_freeze.p.full.value", &pf) &&
		  json_read_num(doc, "channels.emulator_freeze.p.lazy.value", &pl) &&
		  json_read_num(doc, "channels.emulator_freeze.p.full.lo", &lo) &&
		  json_read_num(doc, "channels.emulator_freeze.p.full.hi", &hi) &&
		  json_read_num(doc, "channels.emulator_freeze.t_us", &t);
	CHECK(ok && NEAR(pf, 43.0 / 283, 1e-6) && NEAR(pl, 42.0 / 285, 1e-6) && lo < pf && hi > pf &&
		      NEAR(t, 132.716, 0.001) && !json_read_path(doc, "channels.emulator_freeze.p.none"),
	      "written: p full %.6f (43/283, Wilson %.4f..%.4f), lazy %.6f (42/285), t %.3f us (132.716), "
	      "no none", pf, lo, hi, pl, t);
	json_read_free(doc);
	/* A model whose frozen holds outnumber its faulting ones cannot be a
	 * probability per faulting hold: that channel is not written. */
	struct extract_group over = *g;
	over.ch[CH_EMU_FREEZE].k[PM_FULL] = 300;
	doc = channels_of(&over);
	CHECK(doc && json_read_path(doc, "channels.blocked_in_fault") &&
		      !json_read_path(doc, "channels.emulator_freeze"),
	      "frozen holds above the faulting ones: that channel not written, the others are");
	json_read_free(doc);
}

/*
 * The route channels from the same census: no holder blocked or slept in
 * its fault and no fault spanned a tick (7.0 at 283 and 285 faulting
 * holds), so each is written as measured zero with its Wilson bound and
 * no time; the tick channel says its stall is q's.  Then counts by hand:
 * 2 blocked of 100 faulting holds, 300 us off CPU between them, of which
 * 100 us waiting for their wakeups (2 timed): blocked t = 150 - 50 =
 * 100 us, wakeup t = 50 us.
 */
static void test_route_channels(void)
{
	static struct extract_set cs;
	char err[1024];
	if (extract_scan(DATA "run-census", &cs, err, sizeof(err)) != MX_OK || cs.ngroups != 1) {
		CHECK(0, "run-census scanned: %s", err);
		return;
	}
	struct json_read_val *doc = channels_of(&cs.g[0]);
	double v = 1, hi = 0, n = 0, vw = 1, vt = 1;
	bool ok = doc && json_read_num(doc, "channels.blocked_in_fault.p.full.value", &v) &&
		  json_read_num(doc, "channels.blocked_in_fault.p.full.hi", &hi) &&
		  json_read_num(doc, "channels.blocked_in_fault.p.full.n", &n) &&
		  json_read_num(doc, "channels.wakeup_latency.p.lazy.value", &vw) &&
		  json_read_num(doc, "channels.tick_span.p.full.value", &vt);
	CHECK(ok && v == 0 && hi > 0.005 && hi < 0.02 && n == 283 && vw == 0 && vt == 0 &&
		      !json_read_path(doc, "channels.blocked_in_fault.t_us") &&
		      !json_read_path(doc, "channels.tick_span.t_us") &&
		      !strcmp(json_read_str(doc, "channels.tick_span.inside_q", ""), "in_fault"),
	      "none observed: blocked 0 of %.0f (hi %.4f), wakeups 0, ticks 0; no t_us; tick_span inside q", n, hi);
	json_read_free(doc);

	struct extract_group g = cs.g[0];
	memset(g.ch, 0, sizeof(g.ch));
	g.ch[CH_BLOCKED] = (struct extract_channel){ .k = { [PM_FULL] = 2 }, .n = { [PM_NONE] = 100, [PM_FULL] = 100 },
						       .ns = 300000, .timed = 2 };
	g.ch[CH_WAKEUP] = (struct extract_channel){ .k = { [PM_FULL] = 2 }, .n = { [PM_NONE] = 100, [PM_FULL] = 100 },
						      .ns = 100000, .timed = 2 };
	doc = channels_of(&g);
	double tb = 0, tw = 0, pb = 0;
	ok = doc && json_read_num(doc, "channels.blocked_in_fault.t_us", &tb) &&
	     json_read_num(doc, "channels.wakeup_latency.t_us", &tw) &&
	     json_read_num(doc, "channels.blocked_in_fault.p.full.value", &pb);
	CHECK(ok && NEAR(tb, 100, 1e-9) && NEAR(tw, 50, 1e-9) && NEAR(pb, 0.02, 1e-12) &&
		      !json_read_path(doc, "channels.emulator_freeze"),
	      "blocked 2 of 100: t %.3f us (off CPU less the wakeup), wakeup t %.3f us", tb, tw);
	json_read_free(doc);
}

static void test_rules(void)
{
	CHECK(extrap_window("4k", 16) == 1024 && extrap_window("2m", 1) == 32768 && extrap_window("3m", 1) == 0,
	      "windows: 16 x 4 KB = 1024 descriptors, 2 MB = 32768, unknown 0");
	/* N = W, a pool of many windows: (1)(1 - 1/e) x (nw - 1)/nw. */
	double p = extrap_pf_raw(1024, 1024, 1024.0 * 15360);
	CHECK(NEAR(p, (1 - exp(-1)) * 15359 / 15360, 1e-9), "p_f at N = W = 1024: %.6f", p);
	/* Few backends: about N / W. */
	p = extrap_pf_raw(8, 1024, 1024.0 * 8);
	CHECK(NEAR(p, 8.0 / 1024 * 7 / 8, 1e-6), "8 backends, 8 windows: %.6f ~ 8/1024 x 7/8", p);
	CHECK(extrap_pf_raw(21, 32768, 8192) == 0, "one window (the lock's): no fault under the lock");
	CHECK(extrap_slice_ms(2, 250) == 4 && extrap_slice_ms(2, 1000) == 2 && extrap_slice_ms(96, 1000) == 3 &&
		      extrap_slice_ms(1, 1000) == 1 && extrap_slice_ms(96, 250) == 4,
	      "EEVDF slices in ticks: 2 CPUs 1.4 ms -> 4 (HZ 250) or 2 ms (HZ 1000); 96 CPUs 2.8 -> 3 ms; 1 CPU 0.7 -> 1 ms");
	CHECK(eevdf_slice_ns(1) == 700000 && eevdf_slice_ns(3) == 1400000 && eevdf_slice_ns(8) == 2800000 &&
		      eevdf_slice_ns(96) == 2800000,
	      "EEVDF's default slice: 0.7 ms x (1 + ilog2 min(C, 8)): 0.7, 1.4 at 3 CPUs (ilog2, not log2), 2.8 at 8 and 96");
	CHECK(extrap_slice_set_ms(8000, 1000) == 8 && extrap_slice_set_ms(2500, 250) == 4 && extrap_slice_set_ms(2500, 1000) == 3,
	      "a base slice set through debugfs is taken as set, in ticks: 8 ms; 2.5 ms -> 4 (HZ 250) or 3 (HZ 1000)");
}

static void test_refusal(void)
{
	static struct extract_set s;
	char err[1024] = "";
	int rc = extract_scan(DATA "run-model-inhold", &s, err, sizeof(err));
	CHECK(rc == MX_IN_HOLD && strstr(err, "in_hold_syscalls") && strstr(err, "bufbench-host"),
	      "an in-hold run is refused with exit %d, naming it: %s", rc, err);
	rc = extract_scan(DATA "run-evidence-none-such", &s, err, sizeof(err));
	CHECK(rc == MX_ERR && strstr(err, "runs/"), "a directory without runs/: %s", err);
	rc = extract_scan(DATA "run-host", &s, err, sizeof(err));
	CHECK(rc == MX_ERR && strstr(err, "EVIDENCE"), "a run without evidence: %s", err);
}

/* A document that records its tick (provenance.kernel_hz): that, not the
 * label's guess (run-model's 6.12 documents given HZ 1000 from a config). */
static void test_recorded_hz(void)
{
	static struct extract_set s;
	char err[1024] = "", dir[] = "/tmp/test_model_hz.XXXXXX", cmd[1024];
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(cmd, sizeof(cmd), "mkdir '%s/runs' && for f in '%s'run-model/runs/*.json; do "
		 "sed 's|\"provenance\": {|\"provenance\": {\"kernel_hz\": 1000, "
		 "\"kernel_nohz\": \"idle\", \"kernel_tick_source\": \"/plan/kernel.config\", |' "
		 "\"$f\" > '%s/runs/'\"$(basename \"$f\")\"; done", dir, DATA, dir);
	int rc = system(cmd) == 0 ? extract_scan(dir, &s, err, sizeof(err)) : -1;
	CHECK(rc == MX_OK && s.ngroups == 1 && s.g[0].hz == 1000 &&
	      !strcmp(s.g[0].hz_source, "provenance.kernel_hz (/plan/kernel.config)"),
	      "the recorded HZ wins over the label's: %d from %s", rc == MX_OK ? s.g[0].hz : -1,
	      rc == MX_OK ? s.g[0].hz_source : err);
	/* Before the field: 7.2-lab-hz250's label is not 7.2-lab's 1000. */
	snprintf(cmd, sizeof(cmd), "for f in '%s'run-model/runs/*.json; do "
		 "sed 's|\"kernel_label\": \"6.12\"|\"kernel_label\": \"7.2-lab-hz250\"|' "
		 "\"$f\" > '%s/runs/'\"$(basename \"$f\")\"; done", DATA, dir);
	rc = system(cmd) == 0 ? extract_scan(dir, &s, err, sizeof(err)) : -1;
	CHECK(rc == MX_OK && s.g[0].hz == 250 && strstr(s.g[0].hz_source, "hz250.config") &&
	      strstr(s.g[0].kernel, "7.2-lab-hz250"),
	      "7.2-lab-hz250 without the field: HZ 250 (%d from %s)", rc == MX_OK ? s.g[0].hz : -1,
	      rc == MX_OK ? s.g[0].hz_source : err);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		CHECK(0, "rm %s", dir);
}

int main(void)
{
	test_freeze_channel();
	test_route_channels();
	test_scan();
	test_median();
	test_write_roundtrip();
	test_rules();
	test_refusal();
	test_recorded_hz();
	return CHECK_DONE();
}
