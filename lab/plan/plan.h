/*
 * The planner: `make bench` variables in, one validated plan out.
 *
 * Everything that decides what a bench will do lives here: defaults,
 * validation (every bad value refused before anything is fetched or
 * booted, naming the valid ones), memory sizing, the units (the host, or
 * one guest boot per kernel or kernel/model) with their cells, and the time
 * estimate.  The runner (scripts/run-plan.sh and lab/runner/) only
 * carries the plan out; the report only reads what came of it.
 */
#ifndef PREEMPTLAB_PLAN_H
#define PREEMPTLAB_PLAN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch.h"
#include "pinning.h"

#define PLAN_MAX_LIST 32
#define PLAN_VARS_MAX 96	/* rows of the variable table (lab/common/variables.def) */
#define PLAN_MAX_UNITS 64
/*
 * A plan past these is refused unless FORCE=1 (issue 28, D6): REPEAT=1000
 * with 32 client counts took 1.5 GB in --check, and a host plan of 96,000
 * cells (about 12 days) was accepted without a word.
 */
#define PLAN_MAX_CELLS 20000
#define PLAN_MAX_HOURS 72
#define PLAN_NAME 96
#define BOOT_MAX_ARGS 64

struct list {
	char item[PLAN_MAX_LIST][PLAN_NAME];
	int n;
};

/* A kernel as the catalog (kernels/<series>) describes it, unfetched. */
struct kernel_ref {
	char asked[PATH_MAX];	/* as the user typed it (var_get: under PATH_MAX) */
	char label[PLAN_NAME];	/* the series, the image's file name, or host */
	char source[16];	/* apt, build, path, host */
	struct list models;	/* models it accepts; empty when unknown */
	char default_model[16];
};

struct cell {
	char id[200];
	char tool[16];		/* bufbench | pgbench */
	char model[16];		/* bufbench; "current" keeps the booted one */
	char pages[16];
	char lock[16];
	char strategy[32];
	char mitigation[24];	/* "" unless MITIGATIONS is given */
	char pg_major[16], pg_build[24];	/* pgbench under MITIGATIONS: whose server */
	long clients;
	long rep;
	bool optional;		/* a page size asked "where it can be had" */
	unsigned inst;		/* INST_*: the instruments this run carries */
	bool control;		/* the bare twin of instrumented runs (same seed) */
	/* pgbench: one cluster serving these models, clients and repeats: its
	 * unit's models and the plan's clients, pointed to, not copied (two
	 * lists in every cell were 6 KB each, 2.4 GB for a FORCE=1 plan). */
	char huge_pages[8];
	const struct list *pg_models, *pg_clients;
	long pg_repeat;
};

struct unit {
	char id[PLAN_NAME];	/* host | main.lazy | baseline.none | main */
	char kind[8];		/* host | guest */
	char role[16];		/* host | main | baseline */
	struct kernel_ref *kernel;
	char boot_model[16];	/* preempt= on the command line, or "" */
	long boot;		/* 1..BOOTS: which boot of its kernel/model */
	long rep_base, pg_rep_base;	/* its runs are numbered from these + 1 */
	char icount_epoch[24];	/* under icount: this boot's clock at boot, UTC */
	struct list models;
	struct cell *cells;
	size_t ncells, nbufbench, npgbench, npgruns;
	size_t cells_cap;	/* cells allocated: grown geometrically (new_cell) */
	/* How it is carried out (boot.c). */
	char cmdline[2048];		/* the guest kernel's */
	char *qemu[BOOT_MAX_ARGS];	/* QEMU's argv; none until the accelerator is known */
	int nqemu;
	long boot_timeout_s, cell_timeout_s, pg_timeout_s, pg_runs_per_cell;
	int attempts;
	bool pinned;			/* its vCPU threads pinned (vcpu_pin) */
	/* Huge pages the runner holds for the unit, by difference, given back
	 * on every exit: the host's for its cells (pages 2m, 1g), or a guest's
	 * RAM (GUEST_HUGEPAGES, pages "ram").  An optional one that cannot be
	 * had drops its cells; a required one stops the bench, naming what to
	 * change (hint). */
	struct reservation {
		char pages[8];
		long kb, count;
		bool required;
		char hint[64];
	} reserve[3];
	int nreserve;
	/* The plan switches the host's model: the runner saves it before the
	 * unit and writes it back on every exit (knobs.c says which knobs go
	 * back too). */
	bool restore_model;
};

struct plan {
	/* Asked (only what the user set) and resolved settings. */
	char kernel_asked[PATH_MAX], baseline_asked[PATH_MAX];
	struct kernel_ref kernel, baseline;
	bool has_baseline;
	/* The baseline's models run on the kernel under test itself. */
	bool baseline_same_kernel;
	char baseline_variant[PLAN_NAME * 2 + 2];	/* KERNEL/MODEL, "" when none */
	char hugepages[16];
	bool pages_given;
	struct list pages, models, baseline_models, clients, locks, strategies;
	struct list mitigations;	/* MITIGATIONS; empty: none asked */
	char mit_pages[16], mit_lock[16], mit_strategy[32];	/* their base */
	char scenario[16];
	long duration_s, warmup_s, repeat;
	long boots;		/* separate boots of each guest unit */
	long freelist_stride;
	long steady_s;		/* 0: every run lasts duration_s */
	bool hold_events;
	bool repro_min;		/* run repro/repro-min.c once per unit, after its cells */
	long slice_ext_us;	/* rseq/slice_ext_nsec in us for the run; 0: the kernel's */
	long fixed_spins_per_delay;	/* SPINS_PER_DELAY=fixed:N; 0 adaptive */
	long fault_around_bytes;	/* debugfs fault_around_bytes in a guest; 0: the kernel's */
	long base_slice_us;	/* debugfs sched/base_slice_ns in a guest, in us; 0: the kernel's */
	char sched_hrtick[16];	/* debugfs sched/features HRTICK in a guest: on, off, "" the kernel's */
	/* A knob row's count where it has no field of its own (variables.h),
	 * by its row in the variable table; 0: the kernel's. */
	long knob_value[PLAN_VARS_MAX];
	bool evidence;		/* bufbench --trace-holds: the kernel's trace joined */
	bool channel;		/* with it, --trace-channel (CHANNEL, on with EVIDENCE) */
	bool costbench;		/* lab/costbench once per model per unit, after its cells */
	bool controls;		/* CONTROLS: a bare twin beside each instrumented run */
	char pool[32], relation[32], workload[32];
	uint64_t pool_bytes, relation_bytes;
	char bufbench_args[1024];
	struct list bufbench_argv;
	bool pgbench;
	struct list pg_huge_pages, pg_builtins;
	char pg_shared_buffers[32], pg_scale[16];
	long pg_repeat, pg_duration_s, pg_fillfactor;
	bool pg_cold;		/* restart the server before each run: a cold pool */
	bool pg_warmup;		/* a run before the measured ones, named -warm */
	bool pg_buffercache;	/* follow the fill with pg_buffercache */
	char pg_version[16];	/* PG_VERSION: a major of pg/majors, or system */
	char pg_suite[32];	/* the major's Debian suite; host for system */
	/* MITIGATIONS' pgbench cells: the server and huge_pages each runs. */
	struct pg_mit {
		char name[24];		/* none prefault touch-before-lock hugepages pg19 */
		char major[16];		/* PG_VERSION's value for the cell (system too) */
		char build[24];		/* debian (the package), or the lab's source build */
		char huge_pages[8];
	} pg_mits[PLAN_MAX_LIST];
	int npg_mits;
	bool profile;
	long profile_freq;
	char profile_callgraph[8];
	char model_switch[16];
	long vcpus, host_cpus;
	char host_topology[256];	/* sysfs, or HOST_TOPOLOGY's file */
	char pin[8];			/* PIN_VCPUS: auto | on | off */
	int vcpu_pin[PIN_MAX_CPUS];	/* host CPU of vCPU i */
	char guest_hugepages[8];	/* GUEST_HUGEPAGES: off | 2m | 1g */
	long guest_hp_pages;		/* host huge pages backing guest RAM */
	char accel[8];		/* kvm | tcg | icount | auto */
	char arch[8];		/* ARCH: amd64 | arm64 (the guest's) */
	const struct arch *garch;	/* its row of the table (arch.c) */
	bool cross;		/* the guest's architecture is not the host's */
	long icount_shift;	/* icount: one instruction is 2^shift ns */
	char icount_epoch[24];	/* icount: the guest's clock at boot, UTC */
	/* Sizing. */
	uint64_t segment_bytes;
	long hp2m, hp1g;
	long mem_mb, rootfs_mb;
	bool mem_given;
	long seed_guest_mem_mb;	/* SCENARIO=seed: RAM the guest's pool is 30% of */
	/* Units and the estimate. */
	struct unit units[PLAN_MAX_UNITS];
	int nunits;
	long est_seconds;
	/* What the progress line starts from: a bufbench cell, a pgbench
	 * cluster's setup, a pgbench run, a boot to the runner's answer. */
	long est_cell_s, est_pg_setup_s, est_pg_run_s, est_boot_s;
	char *probe[BOOT_MAX_ARGS];	/* the KVM probe boot (ACCEL=auto) */
	int nprobe;
	long probe_timeout_s;
	const char *probe_fail_text;	/* QEMU's words for a boot KVM cannot go on with */
	char command[4096];
};

/* arch.c: ARCH, after the kernels and ACCEL are known. */
void arch_settings(struct plan *p, const char *top);
bool catalog_value(const char *top, const char *series, const char *key, char *out, size_t len);
void catalog_set_arch(const char *arch);
void arch_pick(struct plan *p);
void catalog_with_key(const char *top, const char *key, char *buf, size_t len);

/* vars.c: the make variables. */
const char *var_get(const char *name);	/* NULL when unset */
void vars_from_args(int argc, char **argv, int first);
/* Called by plan_die before it exits: a fuzz harness (tests/fuzz/fuzz_plan.c)
 * jumps back from it to try the next input. */
extern void (*plan_die_hook)(void);
/* Forget the VAR=value arguments given so far (the fuzz harness's next input). */
void vars_clear(void);
_Noreturn void plan_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void plan_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The scripts' die (exit 1): a refusal of what a script asked for, where
 * plan_die's exit 2 is a usage error of the plan's variables. */
_Noreturn void plan_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void list_split(struct list *l, const char *var, const char *s);
bool list_has(const struct list *l, const char *s);
struct vocab;
/* Every item of L a value of V, within its range (else plan_die naming
 * VAR), rewritten in its canonical spelling and once: rseq:05 and rseq:5
 * are one cell. */
void list_canonical(struct list *l, const struct vocab *v, const char *var);
long parse_count(const char *var, const char *s, long min, long max);
/* FORCE=1 given: plan beyond PLAN_MAX_CELLS, PLAN_MAX_HOURS and the host's RAM. */
bool plan_forced(void);
uint64_t parse_size(const char *var, const char *s);
void command_line(char *buf, size_t len);

/* catalog.c: kernels/<series>, read without fetching anything. */
void catalog_resolve(const char *top, const char *asked, const char *var, struct kernel_ref *k);
void catalog_known(const char *top, char *buf, size_t len);
void catalog_print_series(const char *top);
void catalog_set_dir(const char *dir);
/* info.c: the architecture table and the catalog, for the scripts. */
int info_arch(const char *name, const char *key);
int info_catalog_get(const char *dir, const char *series, const char *key);
int info_catalog_series(const char *dir, const char *source);
int info_catalog_resolve(const char *dir, const char *kernel, const char *arch);
int info_catalog_pick(const char *series, const char *suite, const char *regex, const char *exact);
/* The line of CANDS (split in place) with EXACT as its version, or the
 * first when EXACT is empty: 0; 1 when CANDS is empty; 2 when no line has
 * EXACT, VERSIONS then listing those there are. */
int catalog_pick(char *cands, const char *exact, char *line, size_t len, char *versions,
		 size_t vlen);
/* pg_version.c: the list's mitigations with a pg/patches build (their rows'
 * PGW_PATCH), joined with " or " into buf; "" when none has. */
const char *mitigations_patched(const struct list *l, char *buf, size_t len);
/* runner_policy.c: build/plan --runner-policy [KEY], the numbers pg-run.sh needs without a plan. */
int info_runner_policy(const char *key);
long runner_policy_value(const char *key);	/* plan_die on an unknown key */

/* pg_runs.c: a pgbench cell's runs, in the order pg-run.sh carries them
 * out, each line starting with PREFIX. */
struct pg_runs {
	const struct list *models, *builtins, *clients;
	long repeat, first_rep;	/* runs numbered first_rep .. first_rep + repeat - 1 */
	bool warmup;		/* first a warm-up run, "run 0 ... warm" */
	long cpus;		/* pgbench's threads are at most this */
	long headroom;		/* max_connections beyond the most clients */
};
void pg_runs_write(FILE *f, const char *prefix, const struct pg_runs *r);
size_t pg_runs_count(const struct pg_runs *r);
long pg_runs_cpus_here(void);
int info_pg_runs(const char *models, const char *builtins, const char *clients,
		 const char *repeat, const char *first_rep);

/* settings.c: every variable, through the table of variables.h and the
 * cross-checks between them. */
void plan_settings(struct plan *p, const char *top);
void plan_icount_epoch(struct plan *p);	/* ICOUNT_EPOCH, or now */

/* sizing.c: a /proc/meminfo line's value in MB, by its sscanf format
 * ("MemTotal: %ld kB"); -1 without it. */
long meminfo_mb(const char *format);

/* pg_version.c: PG_VERSION (asked: the user's or scenario's value, or NULL),
 * against pg/majors; after the kernel and ARCH are known. */
void pg_version_settings(struct plan *p, const char *top, const char *asked);
/* pg/sources: MAJOR's Debian source can be built here; else why says why not. */
bool pg_source_ok(const char *top, const char *major, char *why, size_t len);
/* The major the source builds are of (system: the host's 15). */
const char *pg_source_major(const struct plan *p);
/* pg_materials.c: pg/majors' and pg/sources' rows ("major suite [status]"),
 * the build's configure flags, for the scripts that fetch and build servers. */
struct pg_row {
	char major[8], suite[32], status[400];
};
int pg_catalog_read(const char *path, struct pg_row *rows, int max);
void pg_base_suite(const char *suite, char *base, size_t len);
/* FLAG kept (into out, as the lab's build gives it) or dropped. */
bool pg_configure_flag(const char *flag, const char *srcver, const char *patch, char *out,
		       size_t len);
int info_pg_major(const char *top, const char *major, const char *key);
int info_pg_source(const char *top, const char *major, const char *key);
int info_pg_suites(void);
int info_pg_patches(const char *top, const char *major);
int info_pg_build(const char *top, const char *major, const char *patch, const char *key);
int info_pg_configure_flags(const char *srcver, const char *patch);
bool pg_library_package(const char *name);
void pg_depends_entry(const char *entry, char *out, size_t len);
int info_pg_package_set(const char *major, const char *suite, const char *suite_list,
			const char *base, const char *base_list);
int info_pg_guest_packages(const char *major);
int info_pg_root_expect(const char *major);
/* pg_mitigations.c: MITIGATIONS' pgbench cells, after PG_VERSION (docs/mitigations.md). */
void pg_mitigation_settings(struct plan *p, const char *top);

/* programs.c: every external program the plan's units run, or exit 2
 * naming the Debian package. */
void plan_check_programs(const struct plan *p);
/* runner_policy.c: the runner's numbers, as UNIT.plan and bench.conf keys. */
void plan_write_runner_policy(FILE *f, const struct plan *p, bool guest);
/* COSTBENCH=on: the unit's costbench_run lines (runner_policy.c). */
void plan_write_costbench_runs(FILE *f);
void plan_write_poweroff_grace(FILE *f);

/* host_models.c: MODELS on the host, checked against debugfs; dies with the reason. */
void host_models_check(const struct list *models);

/* kvm.c: the host's CPUs, vCPU pinning and huge-page-backed guest RAM. */
void kvm_host(struct plan *p);		/* host_cpus: sysfs or HOST_TOPOLOGY */
void kvm_backing(struct plan *p);	/* after sizing */
void kvm_print(const struct plan *p);
void kvm_write_pins(const struct plan *p, FILE *f);

/* sizing.c: segment size (from bufbench itself), huge pages, guest RAM. */
void plan_sizing(struct plan *p, const char *bufbench);

/* instruments.c: which instruments a run carries (issue 24). */
#define INST_TRACE 1u		/* --trace-holds: hold records joined with tracefs */
#define INST_KPROBE 2u		/* with INST_TRACE: faults from a kprobe, not the tracepoint */
#define INST_RECORDS 4u		/* --hold-records: the records alone (T_tail) */
#define INST_EVENTS 8u		/* --hold-events=window: perf counters around the hold */
#define INST_PROFILE 16u	/* perf record around the run (the runner's) */
#define INST_CHANNEL 32u	/* with INST_TRACE: --trace-channel, sched_waking and folio kprobes */
struct variant {
	unsigned set;
	bool control;
	char suffix[16];	/* of the cell id */
};
unsigned plan_instruments(const struct plan *p);	/* the plan's own: EVIDENCE ... */
int plan_variants(const struct plan *p, long rep, struct variant *out, int max);
void plan_instrument_args(unsigned set, FILE *f);
void plan_instrument_names(unsigned set, const char **names, int *n);
/* mitigations.c: MITIGATIONS (docs/mitigations.md). */
struct mit_variant {
	char pages[16], lock[16], strategy[32];
	bool optional;
};
/* Parse and check MITIGATIONS (after PAGES, LOCKS, STRATEGY); NULL or "": none. */
void mitigation_settings(struct plan *p, const char *value);
/* The cells one mitigation makes in unit u: 1, or 2 (hugepages: 2m and 1g). */
int mitigation_variants(const struct plan *p, const struct unit *u, const char *name,
			struct mit_variant v[2]);
/* A MITIGATIONS item is a page size (its row sets the pages: hugepages). */
bool mitigation_sets_pages(const struct plan *p);
/* A bzImage of this catalog series is in the build cache. */
bool kernel_built(const char *top, const char *series);

/* units.c: the units and their cells, repetition outermost. */
void plan_units(struct plan *p);
void plan_estimate(struct plan *p);

/* boot.c: per unit the QEMU argv, command line, limits, retries and pins. */
struct json;
int boot_argv(const struct plan *p, const char *accel, long vcpus, long mem_mb,
	      const char *ram_pages, const char *epoch, const char *cmdline, char **argv);
const char *boot_emulator(const struct plan *p);
void boot_cmdline(const struct plan *p, const char *extra, char *buf, size_t len);
void plan_boots(struct plan *p);
void boot_write(const struct plan *p, const char *dir);
void boot_write_unit(FILE *f, const struct plan *p, const struct unit *u);
void boot_json(struct json *j, const struct plan *p, const struct unit *u);

/* write.c: plan.json, and the flat files the runners read. */
int plan_write(const struct plan *p, const char *dir, const char *top);
void plan_print_summary(const struct plan *p);

#endif
