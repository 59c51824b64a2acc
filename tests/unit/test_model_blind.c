/*
 * The channels besides holder descheduling (lab/model/channels.c) and the
 * blind prediction over the whole run (lab/model/blind.c): a measured
 * channel adds m p_f p t per transaction, an unmeasured one nothing and is
 * named; the emulator's freezes count only on the emulated machine; the
 * rules' spans at the report's configuration; the whole run's ratio.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/blind.h"
#include "model/channels.h"
#include "model/closed.h"
#include "model/inputs.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

/* small-2cpu.json's numbers, with q equal under none and full, and channels. */
static const char base[] =
	"{\"schema\": \"preemptlab-model-inputs/1\", \"source\": \"test\", \"page_size\": \"4k\", "
	"\"hz\": 250, \"cpus\": 2, \"clients\": 21, \"x0_tps\": 20000, \"m\": 1, \"p_f\": 0.01, "
	"\"hold_us\": 1.2, \"t_stall_us\": 2000, \"q\": {\"none\": 0.05, \"full\": 0.05}, "
	"\"fault_us\": {\"quantiles\": [[0, 5], [1, 5]]}%s}";

static int parse(const char *extra, struct model_inputs *in)
{
	char text[2048], err[256] = "";
	snprintf(text, sizeof(text), base, extra);
	bool ok = inputs_parse(text, "test", in, err, sizeof(err));
	if (!ok)
		printf("# %s\n", err);
	return ok;
}

static void test_channels(void)
{
	struct model_inputs in;
	CHECK(parse("", &in), "inputs without channels read");
	CHECK(ch_k(&in, PM_FULL, 2, 1, 0.01, NULL) == 0, "no channel measured: no outage added");
	FILE *f = fopen("/dev/null", "w");
	CHECK(ch_describe(&in, PM_FULL, 2, f) == 4, "all four channels named as not included at 2 vCPUs");
	CHECK(ch_describe(&in, PM_FULL, 96, f) == 3, "at 96 vCPUs the emulator's freezes are excluded, three unmeasured");
	struct closed_pred p;
	closed_predict(&in, PM_FULL, 2, 21, 500, 27, &p);
	CHECK(p.ratio == 1 && p.lo == 1 && p.hi == 1, "q equal under none and full: 1.000x exactly");

	CHECK(parse(", \"channels\": {\"blocked_in_fault\": {\"p\": {\"none\": 0.01, \"full\": 0.05}, "
		    "\"t_us\": 1000}, \"emulator_freeze\": {\"p\": {\"none\": 0, \"full\": 0.1}, \"t_us\": 500}}",
		    &in),
	      "inputs with two channels read");
	double kb = 1 * 0.01 * 0.05 * 1000e-6, kn = 1 * 0.01 * 0.01 * 1000e-6;
	CHECK(NEAR(ch_k(&in, PM_FULL, 96, 1, 0.01, NULL), kb, 1e-18),
	      "blocked in fault at 96 vCPUs: m p_f p t = %.3g s; the freezes excluded", kb);
	CHECK(NEAR(ch_k(&in, PM_FULL, 2, 1, 0.01, NULL), kb + 0.01 * 0.1 * 500e-6, 1e-18),
	      "on the emulated 2 vCPUs the freezes add m p_f p t = 5e-7 s");
	closed_predict(&in, PM_FULL, 2, 21, 500, 27, &p);
	double kq = 1 * 0.01 * 0.05 * 2000e-6;
	double want = (1 + p.x_free * (kq + kn)) / (1 + p.x_free * (kq + kb + 5e-7));
	CHECK(NEAR(p.ratio, want, 1e-12) && p.ratio < 1, "full/none %.6f = (1 + X_free k_none)/(1 + X_free k_full) "
	      "with the channels: %.6f", p.ratio, want);
	CHECK(ch_describe(&in, PM_FULL, 96, f) == 2, "at 96 vCPUs: two channels still unmeasured");
	CHECK(ch_describe(&in, PM_LAZY, 96, f) == 3, "lazy has no input in blocked_in_fault: not included");
	fclose(f);

	/* As make model writes what a census saw: blocked never (0 of n, no
	 * time), ticks inside faults counted but their stall already q's. */
	CHECK(parse(", \"channels\": {\"blocked_in_fault\": {\"p\": {\"none\": {\"value\": 0, \"lo\": 0, "
		    "\"hi\": 0.0002}, \"full\": {\"value\": 0, \"lo\": 0, \"hi\": 0.0002}}}, "
		    "\"tick_span\": {\"p\": {\"none\": 0.04, \"full\": 0.045}, \"inside_q\": \"in_fault\"}}",
		    &in),
	      "inputs with a never-seen channel and one inside q read");
	CHECK(ch_measured(&in, CH_BLOCKED, PM_FULL) && ch_measured(&in, CH_TICK_SPAN, PM_FULL) &&
		      ch_k(&in, PM_FULL, 96, 1, 0.01, NULL) == 0,
	      "both measured, and neither adds an outage (q holds the tick's; the other never happened)");
	char *said = NULL;
	size_t slen = 0;
	FILE *sf = open_memstream(&said, &slen);
	int left = ch_describe(&in, PM_FULL, 96, sf);
	fclose(sf);
	CHECK(left == 1 && strstr(said, "never seen (p full <= 0.02%") &&
		      strstr(said, "inside q's in_fault route: not added again"),
	      "described: never seen with its bound, inside q; only wakeup_latency unmeasured (%d)", left);
	free(said);
	char err[256] = "";
	char text[2048];
	snprintf(text, sizeof(text), base, ", \"channels\": {\"tick_span\": {\"p\": {\"none\": 1.5}, \"t_us\": 1}}");
	CHECK(!inputs_parse(text, "test", &in, err, sizeof(err)) && strstr(err, "tick_span"),
	      "a channel's p outside [0, 1] is refused: %s", err);
}

static void test_blind(void)
{
	struct model_inputs in;
	char err[512] = "";
	if (!inputs_read(PREEMPTLAB_TOP "/docs/model/calibrated-72lab-4k-c21-twins.json", &in, err, sizeof(err))) {
		CHECK(0, "%s", err);
		return;
	}
	struct extrap_target t;
	struct bl_bounds b;
	extrap_report_target(&t, "4k");
	CHECK(bl_bounds_for(&in, &t, &b, err, sizeof(err)) == 0, "the rules' spans at the report's configuration");
	/* L = 1: (N/W)(1 - e^(-W/N)) x (windows - 1)/windows, N = W = 1024: 0.632. */
	CHECK(NEAR(b.pf.hi, 0.632, 0.001) && b.pf.lo > 0.04 && b.pf.lo < 0.07,
	      "p_f from %.4f (runs of pops as on 2 vCPUs, L %.1f) to %.4f (interleaved)", b.pf.lo, b.l.hi, b.pf.hi);
	CHECK(NEAR(b.t_us.lo, in.t_tail_us, 1e-9) && b.t_us.hi > 9000 && b.m.lo == in.m.v && b.m.hi == BL_M_HI &&
		      b.fault_us.lo == BL_FAULT_LO_US && NEAR(b.fault_us.hi, inputs_dist_mean(&in.fault_us), 1e-9),
	      "T %.0f..%.0f us, m %.3f..%.1f, d_f %.1f..%.1f us", b.t_us.lo, b.t_us.hi, b.m.lo, b.m.hi,
	      b.fault_us.lo, b.fault_us.hi);
	struct bl_result r, r2;
	CHECK(bl_predict_run(&in, &b, PM_NONE, XR_REPORT_NONE_TPS, BL_RUN_S, 200, 27, &r) == 0 &&
		      r.run.lo == 1 && r.run.hi == 1 && r.kept > 190,
	      "none against itself over the run: exactly 1 (%d of 200 draws can give none its tps)", r.kept);
	CHECK(bl_predict_run(&in, &b, PM_FULL, XR_REPORT_NONE_TPS, BL_RUN_S, 200, 27, &r) == 0 &&
		      r.run.lo < r.run.med && r.run.med < r.run.hi && r.fill_s_none.hi < BL_RUN_S * 2,
	      "full over the run %.3f [%.3f, %.3f], fill alone %.3f [%.3f, %.3f], fill %.0f s", r.run.med, r.run.lo,
	      r.run.hi, r.fill.med, r.fill.lo, r.fill.hi, r.fill_s_none.med);
	/* The steady state is the same under every model: the run's effect is the fill's, diluted. */
	CHECK(fabs(r.run.lo - 1) <= fabs(r.fill.lo - 1) + 1e-12, "the run's low end %.3f no further from 1 than "
	      "the fill's %.3f", r.run.lo, r.fill.lo);
	bl_predict_run(&in, &b, PM_FULL, XR_REPORT_NONE_TPS, BL_RUN_S, 200, 27, &r2);
	CHECK(r2.run.lo == r.run.lo && r2.run.hi == r.run.hi, "seeded: the same interval twice");
	/*
	 * A none tps no draw can reach: over a 1 s run the fill (15.7M pops at
	 * s >= 1.5 us each) cannot end, so none is at most 1/(m s + k): 1e9 tps
	 * is refused, not printed.
	 */
	CHECK(bl_predict_run(&in, &b, PM_FULL, 1e9, 1, 50, 27, &r) == -1,
	      "none at 1e9 tps over a 1 s run (all fill): no draw gives it, refused");
}

int main(void)
{
	test_channels();
	test_blind();
	return CHECK_DONE();
}
