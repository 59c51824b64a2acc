/*
 * The model's inputs (model-inputs.json, schema in docs/scale.md): what a
 * run measured about the strategy lock, each number with the interval the
 * measurement supports, so that predictions carry the inputs' uncertainty.
 */
#ifndef PREEMPTLAB_MODEL_INPUTS_H
#define PREEMPTLAB_MODEL_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pmodel { PM_NONE, PM_VOLUNTARY, PM_FULL, PM_LAZY, PM_COUNT };

/* The channels other than holder descheduling (channels.h). */
#define MI_CHANNELS 4

const char *pmodel_name(enum pmodel m);
int pmodel_parse(const char *s, enum pmodel *out);

/* A measured number and its 95% interval (lo == hi == v when exact). */
struct inputs_value {
	double v, lo, hi;
};

#define MI_DIST_MAX 64
/* A distribution as points of its inverse CDF: P(X <= x[i]) = p[i]. */
struct inputs_dist {
	int n;
	double p[MI_DIST_MAX], x[MI_DIST_MAX];
};

/* The page sizes whose fault costs the inputs can carry. */
enum inputs_page { MI_4K, MI_2M, MI_PAGES };
const char *inputs_page_name(int p);
/* "4k", "2m" (and try-2m) or -1. */
int inputs_page_index(const char *page);

struct model_inputs {
	char source[256];
	bool in_hold_instrument;
	char page_size[16];
	int hz;
	int cpus, clients;		/* where the inputs were measured */
	struct inputs_value x0_tps;		/* fill tps without fault stalls, at cpus/clients */
	struct inputs_value m;		/* strategy-lock acquisitions per transaction */
	struct inputs_value p_f;		/* share of holds that fault */
	struct inputs_value hold_us;	/* a hold without its fault */
	struct inputs_value t_stall_us;	/* stall per descheduled faulting holder */
	bool have_q[PM_COUNT];
	struct inputs_value q[PM_COUNT];	/* P(descheduled before release | faulted) */
	struct inputs_dist fault_us;	/* fault durations */
	double spin_iter_ns;		/* one TAS_SPIN + PAUSE iteration */
	double timer_slack_us;		/* nanosleep overshoot */
	int spins_per_delay0;		/* the shared estimate backends start from */
	/* Optional (make model writes them; 0 when absent): what the
	 * extrapolation rules (extrap.c) scale from. */
	int fault_around_pages;		/* 4 KB pages one read fault maps */
	double pool_pages;		/* buffers, one 64-byte descriptor each */
	double t_offcpu_us, t_tail_us;	/* T's two parts: off CPU holding, free tail */
	/*
	 * Optional: what X0 at another page size needs (x0page.h).  The fill's
	 * minor faults per transaction at this page size, the same for the
	 * other page sizes where the same run measured them (0: not), the
	 * shared segment's bytes, and each page size's cost of an allocating
	 * and of a mapping fault (0: unknown), from the run's costbench.
	 */
	struct inputs_value faults_per_txn;
	double faults_by_page[MI_PAGES];
	double segment_bytes, block_size;
	double fault_alloc_us[MI_PAGES], fault_map_us[MI_PAGES];
	char fault_cost_source[160];
	/*
	 * Optional: the other channels of outage (channels.h), each measured
	 * or absent; indexed by enum channel.
	 */
	struct inputs_channel {
		bool have_p[PM_COUNT];
		struct inputs_value p[PM_COUNT];	/* P(the channel stalls | faulting hold, model) */
		bool have_t;
		struct inputs_value t_us;		/* its stall */
		/* "inside_q": its stall is already one of q's routes (tick_span:
		 * lazy's upgrade is the in_fault route), measured but not added. */
		char inside_q[24];
	} ch[MI_CHANNELS];
};

/* Read a model-inputs.json; false with a message in err on any error. */
bool inputs_read(const char *path, struct model_inputs *in, char *err, size_t errlen);
/* The same from text in memory (name for messages). */
bool inputs_parse(const char *text, const char *name, struct model_inputs *in, char *err, size_t errlen);

/* Inverse CDF by linear interpolation between the points (u in [0,1]). */
double inputs_dist_sample(const struct inputs_dist *d, double u);
double inputs_dist_mean(const struct inputs_dist *d);

/*
 * X0 at another size: fill tps of CPU-bound backends grows with the number
 * that can run at once, min(clients, cpus).
 */
double inputs_x0_at(const struct model_inputs *in, double x0_measured, int cpus, int clients);

/* One draw from a value's interval (exposed for the simulation's replicates). */
double inputs_draw(const struct inputs_value *v, uint64_t *rng, double min, double max);

#endif
