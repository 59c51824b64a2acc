/*
 * build/predict: the strategy-lock model's prediction of a preemption
 * model's fill tps against none at a given size, from model-inputs.json.
 *
 *   build/predict --inputs FILE --cpus 96 --clients 1024 [--model lazy]
 *                 [--closed | --sim] [--seed S] [--draws N] [--reps R]
 *                 [--duration-s D] [--rseq-us G] [--vcpu-rr-us Q]
 *                 [--extrapolate [--pages P] [--pool-pages N] [--hz H]
 *                                [--fault-around-pages F] [--base-slice-us U]
 *                                [--faults-per-txn F]]
 *                 [--costbench FILE] [--fault-bench FILE] [--x-none-tps X] [--report]
 *                 [--need RATIO] [--tsv]
 *
 *   build/predict --predictions ... | --predictions-grid ...
 *                 the leave-out validation's predictions files (predictions.h)
 *
 * --tsv: the closed form's predictions as a table for scripts (one header
 * line naming the columns, TSV_COLUMNS, then one row a model), no prose; a
 * script reads them by column name, so prose can change without breaking
 * it.  The numbers are the human output's, printed the same way.  --sim,
 * --report and --need print other things and are refused with it.
 *
 * --base-slice-us U: the target sets sched/base_slice_ns to U us
 * (BASE_SLICE_US), the slice every task then gets whatever the CPU count;
 * both the closed form's T and the simulation's scheduler take it.
 *
 * --fault-bench FILE: a costbench --procs document; the fault durations (and
 * X0's mapping-fault cost) move by its median fault CPU time from the
 * measured clients to the target's (faultbench.h).
 *
 * --report: the regression report's configuration (96 CPUs, 1024 clients,
 * 120 GB pool, fault-around 16 pages, HZ 250 assumed), extrapolated, with
 * none anchored at its 98,566 tps; any option given explicitly wins.
 *
 * --extrapolate moves the inputs to the target by the stated rules
 * (extrap.h): p_f from the fault window and the runs of pops, T from
 * EEVDF's runnable per CPU, X0 at another page size from the faults' own
 * cost (x0page.h; --faults-per-txn gives the target's faults, --costbench
 * a costbench document's fault costs).
 *
 * Inputs measured with an instrument inside the hold are refused: such an
 * instrument lengthens every hold (FACTS 8), so its q and T describe the
 * instrument, not the lock.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blind.h"
#include "channels.h"
#include "closed.h"
#include "costs.h"
#include "extrap.h"
#include "faultbench.h"
#include "inputs.h"
#include "predictions.h"
#include "rng.h"
#include "sim.h"

#define SIM_MAX_WORK (1024.0 * 2 * 9)
/* The closed form's draws and the seed unless asked. */
#define CLOSED_DRAWS 4000
#define DEFAULT_SEED 27

/*
 * --tsv's columns: the target (model, page size, clients, CPUs), the ratio
 * against none and its 95% interval, the p_f and T the prediction used
 * (extrapolated when asked), and the central tps of none and the model.
 */
#define TSV_COLUMNS "model\tpages\tclients\tcpus\tratio\tlo\thi\tp_f\tt_us\tnone_tps\tmodel_tps\n"

/* --tsv: the prose goes nowhere, only the table reaches stdout. */
static int tsv;

static void usage(FILE *f)
{
	fprintf(f, "usage: predict --inputs FILE --cpus N --clients N [--model none|voluntary|full|lazy]\n"
		   "               [--closed | --sim] [--seed S] [--draws N] [--reps R]\n"
		   "               [--duration-s D] [--rseq-us G] [--vcpu-rr-us Q]\n"
		   "               [--extrapolate [--pages P] [--pool-pages N] [--hz H] [--fault-around-pages F]\n"
		   "                              [--base-slice-us U]]\n"
		   "               [--faults-per-txn F] [--costbench FILE] [--fault-bench FILE]\n"
		   "               [--x-none-tps X] [--report] [--need RATIO] [--tsv]\n"
		   "       predict --predictions ... | --predictions-grid ...  (scripts/model-validate.sh)\n");
}

static long num(const char *opt, const char *s, long min, long max)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max) {
		fprintf(stderr, "predict: %s %s: expected an integer in %ld..%ld\n", opt, s, min, max);
		exit(2);
	}
	return v;
}

static int run_closed(const struct model_inputs *in, const char *page, int cpus, int clients,
		      int model, int draws, uint64_t seed)
{
	int shown = 0;
	if (tsv)
		fputs(TSV_COLUMNS, stdout);
	for (int m = 0; m < PM_COUNT; m++) {
		if ((model >= 0 && m != model) || (model < 0 && m == PM_NONE))
			continue;
		struct closed_pred p;
		if (closed_predict(in, (enum pmodel)m, cpus, clients, draws, seed, &p) != 0) {
			if (model >= 0) {
				fprintf(stderr, "predict: the inputs give no q for %s\n", pmodel_name(m));
				return 1;
			}
			continue;
		}
		if (tsv) {
			printf("%s\t%s\t%d\t%d\t" PRED_NUMS "\t%.0f\t%.0f\n", pmodel_name(m),
			       page, clients, cpus, p.ratio, p.lo, p.hi, in->p_f.v, in->t_stall_us.v, p.x_none,
			       p.x_model);
			shown++;
			continue;
		}
		printf("closed %-9s/none %.3fx  95%% interval %.3f..%.3f  (%d draws, seed %llu; "
		       "X_none %.0f tps, stalled share X k %.3g none, %.3g %s; stall-free %.0f tps, "
		       "the lock's capacity 1/(m s) %.0f tps at s %.3g us)\n",
		       pmodel_name(m), p.ratio, p.lo, p.hi, p.draws, (unsigned long long)seed,
		       p.x_none, p.kx_none, p.kx_model, pmodel_name(m), p.x_free, p.x_lock, p.service_us);
		if (ch_describe(in, (enum pmodel)m, cpus, stdout) > 0)
			printf("  (the ratio is the included channels' alone: an unmeasured channel may move it "
			       "either way)\n");
		shown++;
	}
	return shown ? 0 : 1;
}

/*
 * What q_M / q_none (at equal T) the closed form needs for a ratio of
 * `need` at the target.  With a = X_free k_none the ratio is
 * (1 + a) / (1 + r a), so r = ((1 + a) / need - 1) / a; it tends to
 * 1/need as a grows (the saturated limit k_none / k_M), never below.
 */
static int run_need(const struct model_inputs *in, int cpus, int clients, double need)
{
	double x0 = inputs_x0_at(in, in->x0_tps.v, cpus, clients);
	double s = closed_service_s(in->hold_us.v, in->p_f.v, inputs_dist_mean(&in->fault_us));
	double xf = closed_free(x0, clients, in->m.v, s);
	double kn = closed_k(in->m.v, in->p_f.v, in->q[PM_NONE].v, in->t_stall_us.v);
	if (kn <= 0) {
		printf("need %.3fx: q_none is 0 here, so no multiple of it reaches it\n", need);
		return 1;
	}
	double a = xf * kn, r = ((1 + a) / need - 1) / a;
	printf("need %.3fx: q_M / q_none = %.3g at equal T (or T that many times longer; at least "
	       "1/%.3g = %.3g however saturated); stalled share X k none %.3g; q_none %.4g -> q_M %.4g\n",
	       need, r, need, 1 / need, closed_stalled_share(xf, kn), in->q[PM_NONE].v, in->q[PM_NONE].v * r);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* One draw of the inputs the simulation reads (q and T it makes itself). */
static void draw_inputs(const struct model_inputs *in, struct model_inputs *out, uint64_t *rng)
{
	*out = *in;
	out->x0_tps.v = inputs_draw(&in->x0_tps, rng, 1e-9, INFINITY);
	out->m.v = inputs_draw(&in->m, rng, 1e-9, INFINITY);
	out->p_f.v = inputs_draw(&in->p_f, rng, 0, 1);
	out->hold_us.v = inputs_draw(&in->hold_us, rng, 0, INFINITY);
}

static int run_sim(const struct model_inputs *in, int cpus, int clients, int model, int reps,
		   uint64_t seed, double duration_s, double rseq_us, double rr_us, double slice_us)
{
	for (int m = 0; m < PM_COUNT; m++) {
		if ((model >= 0 && m != model) || (model < 0 && m == PM_NONE))
			continue;
		double ratios[64];
		struct sim_result rn = { 0 }, rm = { 0 };
		uint64_t rng = seed;
		for (int r = 0; r <= reps; r++) {
			/* Replicate 0 runs the central values; the rest draw the inputs. */
			struct model_inputs d = *in;
			if (r > 0)
				draw_inputs(in, &d, &rng);
			struct sim_params p;
			struct sim_result a, b;
			sim_params_from_inputs(&p, &d, cpus, clients, PM_NONE, seed + (uint64_t)r);
			p.duration_ns = duration_s * 1e9;
			p.warmup_ns = p.duration_ns / 10;
			p.rseq_grant_ns = rseq_us * 1000;
			p.vcpu_rr_ns = rr_us * 1000;
			p.base_slice_ns = slice_us * 1000;
			if (sim_run(&p, &a) != 0)
				return 1;
			p.model = (enum pmodel)m;
			if (sim_run(&p, &b) != 0)
				return 1;
			if (r == 0) {
				rn = a;
				rm = b;
			} else {
				ratios[r - 1] = a.tps > 0 ? b.tps / a.tps : NAN;
			}
		}
		printf("sim    %-9s/none %.3fx", pmodel_name(m), rn.tps > 0 ? rm.tps / rn.tps : NAN);
		if (reps > 0) {
			qsort(ratios, (size_t)reps, sizeof(double), cmp_double);
			printf("  range %.3f..%.3f over %d input draws", ratios[0], ratios[reps - 1], reps);
		}
		printf(" (seed %llu, %.1f s simulated%s%s)\n", (unsigned long long)seed, duration_s,
		       rseq_us > 0 ? ", rseq grant" : "", rr_us > 0 ? ", vCPU round robin" : "");
		const struct sim_result *rs[2] = { &rn, &rm };
		const char *nm[2] = { "none", pmodel_name(m) };
		for (int i = 0; i < 2; i++)
			printf("  %-9s %.0f tps, %ld acquisitions, q %.3f (%ld of %ld faulting holds), "
			       "T %.0f us, spin share %.3f, %ld sleeps, %ld preemptions, %ld blocked in fault, "
			       "requests held off in the kernel %ld (%ld in holders' faults)\n",
			       nm[i], rs[i]->tps, rs[i]->acquisitions, rs[i]->q, rs[i]->desched_faulted,
			       rs[i]->faulted, rs[i]->t_stall_us, rs[i]->spin_share, rs[i]->sleeps,
			       rs[i]->preemptions, rs[i]->blocked, rs[i]->deferred_other + rs[i]->deferred_holder,
			       rs[i]->deferred_holder);
	}
	return 0;
}

/*
 * --report: the blind prediction (blind.h), over the whole run, with the
 * rules' spans drawn; one block per model with a q.
 */
static int run_blind(const struct model_inputs *in, const struct extrap_target *t, int model, double xnone,
		     int draws, uint64_t seed)
{
	struct bl_bounds b;
	char err[512];
	if (bl_bounds_for(in, t, &b, err, sizeof(err)) != 0) {
		fprintf(stderr, "predict: --report: %s\n", err);
		return 2;
	}
	printf("blind: %d vCPUs, %d clients, %s pages, pool %.0f buffers, fault-around %d pages, HZ %d; "
	       "none anchored at %.0f tps averaged over the whole %.0f s run (fill, then steady state)\n",
	       t->cpus, t->clients, t->page, t->pool_pages, t->fault_around_pages, t->hz, xnone, BL_RUN_S);
	printf("  rules' spans, drawn log-uniformly: p_f %.3g..%.3g (pops per run L %.3g..1), T %.0f..%.0f us "
	       "(free tail .. T rule), m %.3g..%.3g, fault %.3g..%.3g us (q moved with it from %.3g us); "
	       "q and the hold from their measured intervals\n",
	       b.pf.lo, b.pf.hi, b.l.hi, b.t_us.lo, b.t_us.hi, b.m.lo, b.m.hi, b.fault_us.lo, b.fault_us.hi,
	       b.fault_measured_us);
	int shown = 0;
	for (int m = 0; m < PM_COUNT; m++) {
		if ((model >= 0 && m != model) || (model < 0 && m == PM_NONE))
			continue;
		struct bl_result r;
		if (bl_predict(in, &b, (enum pmodel)m, xnone, BL_RUN_S, draws, seed, &r) != 0) {
			if (model >= 0 || in->have_q[m])
				printf("blind  %-9s/none: no draw gives none %.0f tps (or no q for %s)\n",
				       pmodel_name(m), xnone, pmodel_name(m));
			continue;
		}
		printf("blind  %-9s/none whole run %.3fx  95%% interval %.3f..%.3f  (fill phase alone %.3fx "
		       "[%.3f, %.3f]; the fill lasts %.0f s [%.0f, %.0f] under none, %.0f s [%.0f, %.0f] under %s; "
		       "%d of %d draws can give none its tps, seed %llu)\n",
		       pmodel_name(m), r.run.med, r.run.lo, r.run.hi, r.fill.med, r.fill.lo, r.fill.hi,
		       r.fill_s_none.med, r.fill_s_none.lo, r.fill_s_none.hi, r.fill_s_model.med,
		       r.fill_s_model.lo, r.fill_s_model.hi, pmodel_name(m), r.kept, r.draws,
		       (unsigned long long)seed);
		int best = 0;
		printf("  the interval's width %.3f; with one input pinned at its middle:", r.width);
		for (int i = 0; i < BL_INPUTS; i++) {
			printf(" %s %.3f", bl_input_name((enum bl_input)i), r.width_fixed[i]);
			if (r.width_fixed[i] < r.width_fixed[best])
				best = i;
		}
		printf("\n  the one measurement that narrows it most: %s\n", bl_measurement((enum bl_input)best));
		ch_describe(in, (enum pmodel)m, t->cpus, stdout);
		/* The report's own 0.515x and "no effect" both inside: the lab cannot tell them apart. */
		if (r.run.lo <= XR_REPORT_LAZY_RATIO && r.run.hi >= 1)
			printf("  => the interval holds both the report's %.3fx and 1.000x: the 2-vCPU lab cannot "
			       "predict the 96-vCPU ratio\n", XR_REPORT_LAZY_RATIO);
		shown++;
	}
	return shown ? 0 : 1;
}

/* What X0 per page size did (x0page.h), or why it did not. */
static void print_x0(const struct extrap_trace *tr, double before, double after)
{
	const struct x0page_trace *x = &tr->x0;
	if (tr->x0_why[0]) {
		printf("  X0 kept at %.0f tps (not moved: %s)\n", before, tr->x0_why);
		return;
	}
	if (!tr->x0_moved)
		return;
	printf("  X0 %.0f -> %.0f tps  (%s -> %s: CPU per transaction %.1f us = %.1f outside faults + "
	       "%.1f in %.3g allocating and %.3g mapping faults; at %s %.1f in %.3g + %.3g (%s)%s)\n",
	       before, after, inputs_page_name(x->from), inputs_page_name(x->to), x->cpu_us, x->base_us,
	       x->fault_us_from, x->allocs_from, x->maps_from, inputs_page_name(x->to), x->fault_us_to,
	       x->allocs_to, x->maps_to, x->faults_to_source,
	       x->map_scale != 1 ? ", mapping faults scaled by the many-process microbenchmark" : "");
}

/* The command line, parsed. */
struct predict_args {
	const char *path, *pages, *costbench, *faultbench;
	int cpus, clients, model, draws, reps, sim, extrap, hz, fa, report;
	long duration_s, rseq_us, rr_us, slice_us;
	uint64_t seed;
	double pool, xnone, need, faults_txn;
};

/* A ratio or count in (lo, hi) from strtod, or exit 2 naming the option. */
static double open_range(const char *opt, const char *s, double lo, double hi, const char *what)
{
	char *end;
	double v = strtod(s, &end);
	if (*end || !(v > lo && v < hi)) {
		fprintf(stderr, "predict: %s %s: %s\n", opt, s, what);
		exit(2);
	}
	return v;
}

static void parse_args(int argc, char **argv, struct predict_args *a)
{
	static const struct option opts[] = {
		{ "inputs", required_argument, NULL, 'i' }, { "cpus", required_argument, NULL, 'c' },
		{ "clients", required_argument, NULL, 'n' }, { "model", required_argument, NULL, 'm' },
		{ "closed", no_argument, NULL, 'C' },	    { "sim", no_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 's' },   { "draws", required_argument, NULL, 'd' },
		{ "reps", required_argument, NULL, 'r' },   { "duration-s", required_argument, NULL, 'D' },
		{ "rseq-us", required_argument, NULL, 'g' }, { "vcpu-rr-us", required_argument, NULL, 'q' },
		{ "extrapolate", no_argument, NULL, 'x' }, { "pages", required_argument, NULL, 'p' },
		{ "pool-pages", required_argument, NULL, 'P' }, { "hz", required_argument, NULL, 'z' },
		{ "fault-around-pages", required_argument, NULL, 'f' },
		{ "base-slice-us", required_argument, NULL, 'b' },
		{ "x-none-tps", required_argument, NULL, 'X' },
		{ "report", no_argument, NULL, 'R' },
		{ "need", required_argument, NULL, 'N' },
		{ "faults-per-txn", required_argument, NULL, 'F' },
		{ "costbench", required_argument, NULL, 'B' },
		{ "fault-bench", required_argument, NULL, 'M' },
		{ "tsv", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },	    { NULL, 0, NULL, 0 }
	};
	*a = (struct predict_args){ .model = -1, .reps = 8, .duration_s = 2, .seed = DEFAULT_SEED };
	enum pmodel pm;
	int o;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'i': a->path = optarg; break;
		case 'c': a->cpus = (int)num("--cpus", optarg, 1, 4096); break;
		case 'n': a->clients = (int)num("--clients", optarg, 1, 100000); break;
		case 'm':
			if (pmodel_parse(optarg, &pm) != 0) {
				fprintf(stderr, "predict: --model %s: none, voluntary, full or lazy\n", optarg);
				exit(2);
			}
			a->model = (int)pm;
			break;
		case 'C': a->sim = 0; break;
		case 'S': a->sim = 1; break;
		case 's': a->seed = (uint64_t)num("--seed", optarg, 0, 0x7fffffff); break;
		case 'd': a->draws = (int)num("--draws", optarg, 1, 1000000); break;
		case 'r': a->reps = (int)num("--reps", optarg, 0, 64); break;
		case 'D': a->duration_s = num("--duration-s", optarg, 1, 600); break;
		case 'g': a->rseq_us = num("--rseq-us", optarg, 0, 50); break;
		case 'q': a->rr_us = num("--vcpu-rr-us", optarg, 0, 1000000); break;
		case 'x': a->extrap = 1; break;
		case 'p': a->pages = optarg; break;
		case 'P': a->pool = (double)num("--pool-pages", optarg, 1, 0x7fffffffffffL); break;
		case 'z': a->hz = (int)num("--hz", optarg, 1, 10000); break;
		case 'f': a->fa = (int)num("--fault-around-pages", optarg, 1, 512); break;
		case 'b': a->slice_us = num("--base-slice-us", optarg, 100, 100000); break;
		case 'R': a->report = 1; break;
		case 'N': a->need = open_range("--need", optarg, 0, 1, "a ratio between 0 and 1"); break;
		case 'F': a->faults_txn = open_range("--faults-per-txn", optarg, 0, 1e6, "a positive number"); break;
		case 'B': a->costbench = optarg; break;
		case 'M': a->faultbench = optarg; break;
		case 'X': a->xnone = (double)num("--x-none-tps", optarg, 1, 1000000000); break;
		case 'T': tsv = 1; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (a->report) {
		/* The regression report's configuration (extrap.h), none anchored at its tps. */
		a->cpus = a->cpus ? a->cpus : XR_REPORT_CPUS;
		a->clients = a->clients ? a->clients : XR_REPORT_CLIENTS;
		a->extrap = 1;
		a->pool = a->pool > 0 ? a->pool : XR_REPORT_POOL_PAGES;
		a->fa = a->fa ? a->fa : XR_REPORT_FAULT_AROUND;
		a->hz = a->hz ? a->hz : XR_REPORT_HZ;
		a->xnone = a->xnone > 0 ? a->xnone : XR_REPORT_NONE_TPS;
	}
	if (!a->path || a->cpus < 1 || a->clients < 1 || optind != argc) {
		usage(stderr);
		exit(2);
	}
}

/* Combinations refused before the inputs are read; 0, or the exit code. */
static int check_args(const struct predict_args *a)
{
	/* The table has the closed form's columns: the others print other things. */
	if (tsv && (a->sim || a->report || a->need > 0)) {
		fprintf(stderr, "predict: --tsv prints the closed form's predictions: not with --sim, "
			"--report or --need\n");
		return 2;
	}
	/*
	 * The simulation's work grows with clients x simulated seconds x runs:
	 * bounded at the report's configuration at the defaults (1024 clients,
	 * 2 s, 8 draws + the central run; ~3 minutes here), so a typo of a
	 * size does not run for hours.
	 */
	double work = (double)a->clients * (double)a->duration_s * (a->reps + 1);
	if (a->sim && work > SIM_MAX_WORK) {
		fprintf(stderr, "predict: --sim with %d clients x %ld s x %d runs is %.0f client-seconds, "
			"more than the bound %.0f (1024 clients x 2 s x 9 runs): fewer clients, a shorter "
			"--duration-s or fewer --reps\n", a->clients, a->duration_s, a->reps + 1, work,
			SIM_MAX_WORK);
		return 2;
	}
	if (a->rseq_us && a->rseq_us < 5) {
		fprintf(stderr, "predict: --rseq-us %ld: the kernel grants 5..50 us\n", a->rseq_us);
		return 2;
	}
	if (!a->extrap && (a->pages || a->pool > 0 || a->hz || a->fa || a->slice_us || a->faults_txn > 0 ||
			   a->faultbench)) {
		fprintf(stderr, "predict: --pages, --pool-pages, --hz, --fault-around-pages, "
			"--base-slice-us, --faults-per-txn and --fault-bench need --extrapolate\n");
		return 2;
	}
	return 0;
}

/*
 * The fault-duration rule measured instead of assumed (--fault-bench: a
 * fault's CPU time at the target's clients over that at the measured ones),
 * and fault costs for X0 per page size (--costbench) over the inputs' own.
 * 0, or the exit code; *map_scale the fault durations' factor.
 */
static int apply_fault_files(struct model_inputs *in, const struct predict_args *a, double *map_scale)
{
	char err[512];
	*map_scale = 1;
	if (a->faultbench) {
		struct faultbench_sweep fb;
		if (!faultbench_read(a->faultbench, &fb, err, sizeof(err))) {
			fprintf(stderr, "predict: --fault-bench: %s\n", err);
			return 2;
		}
		bool clamped;
		*map_scale = faultbench_growth(&fb, in->clients, a->clients, &clamped);
		for (int i = 0; i < in->fault_us.n; i++)
			in->fault_us.x[i] *= *map_scale;
		if (!tsv)
			printf("fault durations x %.3g: median fault CPU %.0f ns at %d processes -> %.0f ns at %d "
			       "(%s)%s\n", *map_scale, faultbench_cpu_at(&fb, in->clients, &clamped), in->clients,
			       faultbench_cpu_at(&fb, a->clients, &clamped), a->clients, fb.source,
			       clamped ? "; outside the measured counts: the nearest one's" : "");
	}
	if (a->costbench) {
		struct fault_costs fc;
		if (!fc_read(a->costbench, &fc, err, sizeof(err))) {
			fprintf(stderr, "predict: --costbench: %s\n", err);
			return 2;
		}
		for (int p = 0; p < MI_PAGES; p++) {
			if (fc.alloc_us[p] > 0)
				in->fault_alloc_us[p] = fc.alloc_us[p];
			if (fc.map_us[p] > 0)
				in->fault_map_us[p] = fc.map_us[p];
		}
		snprintf(in->fault_cost_source, sizeof(in->fault_cost_source), "%s", fc.source);
		if (!tsv)
			printf("fault costs from %s: 4k alloc %.3g map %.3g us, 2m alloc %.3g map %.3g us\n",
			       a->costbench, in->fault_alloc_us[MI_4K], in->fault_map_us[MI_4K],
			       in->fault_alloc_us[MI_2M], in->fault_map_us[MI_2M]);
	}
	return 0;
}

/* --extrapolate: the inputs moved to the target by the rules (extrap.h); 0 or the exit code. */
static int extrapolate(struct model_inputs *in, const struct predict_args *a, double map_scale)
{
	char err[512];
	struct extrap_target t = { .cpus = a->cpus, .clients = a->clients, .hz = a->hz ? a->hz : in->hz,
			       .pool_pages = a->pool > 0 ? a->pool : in->pool_pages,
			       .fault_around_pages = a->fa ? a->fa : in->fault_around_pages,
			       .faults_per_txn = a->faults_txn, .fault_map_scale = map_scale,
			       .base_slice_us = (double)a->slice_us };
	snprintf(t.page, sizeof(t.page), "%s", a->pages ? a->pages : in->page_size);
	struct model_inputs moved;
	struct extrap_trace tr;
	if (extrap_apply(in, &t, &moved, &tr, err, sizeof(err)) != 0) {
		fprintf(stderr, "predict: --extrapolate: %s\n", err);
		return 2;
	}
	if (!tsv) {
		printf("extrapolated to %s pages, pool %.0f buffers, HZ %d, fault-around %d pages:\n"
		       "  p_f %.4g -> %.4g  (window %.0f -> %.0f descriptors; interleaved %.4g -> %.4g; "
		       "pops per run L %.3g -> %.3g%s; few-CPU factor s %.3g -> %.3g)\n"
		       "  T %.0f -> %.0f us  (off CPU %.0f -> %.0f us: runnable/CPU %.3g -> %.3g, "
		       "slice %.3g -> %.3g ms; tail %.0f us kept)\n",
		       t.page, t.pool_pages, t.hz, t.fault_around_pages, in->p_f.v, moved.p_f.v,
		       tr.w_measured, tr.w_target, tr.pf_raw_measured, tr.pf_raw_target, tr.l_measured,
		       tr.l_target, tr.l_from_fit ? " from the fit's curve: no fault measured" : "",
		       tr.s_measured, tr.s_target, in->t_stall_us.v, moved.t_stall_us.v, in->t_offcpu_us,
		       tr.t_offcpu_target_us, tr.run_measured, tr.run_target, tr.slice_measured_ms,
		       tr.slice_target_ms, in->t_tail_us);
		print_x0(&tr, in->x0_tps.v, moved.x0_tps.v);
	}
	*in = moved;
	return 0;
}

/* Anchor none at a measured tps of the target (the report's own): 1/X = 1/X_free + k. */
static int anchor_none(struct model_inputs *in, double xnone, int cpus, int clients)
{
	if (extrap_anchor_none(in, xnone, cpus, clients) != 0) {
		double kn = closed_k(in->m.v, in->p_f.v, in->q[PM_NONE].v, in->t_stall_us.v);
		double s = closed_service_s(in->hold_us.v, in->p_f.v, inputs_dist_mean(&in->fault_us));
		fprintf(stderr, "predict: none cannot run at %.0f tps with these inputs: its stalls "
			"take X k = %.3g and the lock's service X m s = %.3g of the time (s = h + "
			"p_f d_f = %.3g us), and the two must sum below 1; the inputs (p_f, T, q, "
			"the fault's length) describe another machine than that tps\n", xnone,
			xnone * kn, xnone * in->m.v * s, s * 1e6);
		return 4;
	}
	if (!tsv)
		printf("X0 anchored: none at %.0f tps at the target, X0 %.0f tps\n", xnone,
		       inputs_x0_at(in, in->x0_tps.v, cpus, clients));
	return 0;
}

/* The inputs read and refused or moved by the fault files; 0, or the exit code. */
static int load(const struct predict_args *a, struct model_inputs *in, double *map_scale)
{
	char err[512];
	if (!inputs_read(a->path, in, err, sizeof(err))) {
		fprintf(stderr, "predict: %s\n", err);
		return 2;
	}
	if (in->in_hold_instrument) {
		fprintf(stderr, "predict: %s was measured with an instrument inside the hold "
			"(in_hold_instrument: true); it lengthens every hold, so its q and T "
			"describe the instrument: measure without it\n", a->path);
		return 3;
	}
	if (!tsv)
		printf("inputs %s (%s; %s pages, measured at %d CPUs, %d clients, HZ %d); predicting %d CPUs, %d clients\n",
		       a->path, in->source, in->page_size, in->cpus, in->clients, in->hz, a->cpus, a->clients);
	return apply_fault_files(in, a, map_scale);
}

/*
 * One row of a predictions file (predictions.h): what build/predict --tsv
 * --extrapolate --pages P --cpus C --clients N --model M gives, with the
 * run's fault-around and base slice.
 */
static int predict_cell(const char *path, const struct pred_cell *c, int model, const struct pred_knobs *k,
			struct pred_row *out)
{
	struct predict_args a = { .path = path, .pages = c->pages, .cpus = c->cpus, .clients = c->clients,
				  .model = model, .extrap = 1, .fa = k->fa_pages, .slice_us = k->slice_us,
				  .seed = DEFAULT_SEED };
	static struct model_inputs in;
	double map_scale;
	struct closed_pred p;
	int rc;
	tsv = 1;
	if ((rc = check_args(&a)) != 0 || (rc = load(&a, &in, &map_scale)) != 0 ||
	    (rc = extrapolate(&in, &a, map_scale)) != 0)
		return rc;
	if (closed_predict(&in, (enum pmodel)model, a.cpus, a.clients, CLOSED_DRAWS, a.seed, &p) != 0) {
		fprintf(stderr, "predict: the inputs give no q for %s\n", pmodel_name(model));
		return 1;
	}
	*out = (struct pred_row){ p.ratio, p.lo, p.hi, in.p_f.v, in.t_stall_us.v };
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--predictions") || !strcmp(argv[1], "--predictions-grid")))
		return pred_main(argc, argv, predict_cell);
	struct predict_args a;
	parse_args(argc, argv, &a);
	int rc = check_args(&a);
	if (rc)
		return rc;
	static struct model_inputs in;
	double map_scale;
	if ((rc = load(&a, &in, &map_scale)) != 0)
		return rc;
	if (a.report && !a.sim && a.need <= 0) {
		struct extrap_target t = { .cpus = a.cpus, .clients = a.clients, .hz = a.hz,
				       .pool_pages = a.pool, .fault_around_pages = a.fa,
				       .faults_per_txn = a.faults_txn, .fault_map_scale = map_scale,
				       .base_slice_us = (double)a.slice_us };
		snprintf(t.page, sizeof(t.page), "%s", a.pages ? a.pages : in.page_size);
		/* Each draw anchors X0 through the lock's queue: 1000 by default (~5 s of CPU a model). */
		return run_blind(&in, &t, a.model, a.xnone, a.draws ? a.draws : 1000, a.seed);
	}
	if (a.extrap && (rc = extrapolate(&in, &a, map_scale)) != 0)
		return rc;
	if (a.xnone > 0 && (rc = anchor_none(&in, a.xnone, a.cpus, a.clients)) != 0)
		return rc;
	if (a.need > 0)
		return run_need(&in, a.cpus, a.clients, a.need);
	if (a.sim)
		return run_sim(&in, a.cpus, a.clients, a.model, a.reps, a.seed, (double)a.duration_s,
			       (double)a.rseq_us, (double)a.rr_us, (double)a.slice_us);
	return run_closed(&in, in.page_size, a.cpus, a.clients, a.model, a.draws ? a.draws : CLOSED_DRAWS, a.seed);
}
