/*
 * Defaults and validation of every variable, in one place.  A value is
 * checked against the vocabulary (buffer_pool/vocab.c, lab/common/lab_vocab.c) or the catalog and
 * refused with the valid ones listed; nothing here touches the network,
 * a guest or a huge page pool.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emulation.h"
#include "plan.h"
#include "scenario.h"
#include "spin_backoff.h"
#include "variables.h"
#include "lab_vocab.h"

static long mem_total_mb(void)
{
	long mb = meminfo_mb("MemTotal: %ld kB");
	return mb < 0 ? 0 : mb;
}

/*
 * Why EVIDENCE=on cannot work on this target, or NULL.  Guest kernels
 * have tracefs (Debian's configs; the built ones from x86's defconfig or,
 * on arm64, kernels/fragments/arm64-trace.config); the host needs tracefs
 * in its kernel and root to mount and write it (bufbench --trace-holds
 * mounts it itself).
 */
static const char *cannot_trace(const struct plan *p)
{
	if (strcmp(p->kernel.source, "host") != 0)
		return NULL;
	if (geteuid() != 0 && access("/sys/kernel/tracing/instances", W_OK) != 0)
		return "the host's tracefs needs root";
	FILE *f = fopen("/proc/filesystems", "r");
	char line[128];
	bool found = false;
	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, "\ttracefs") != NULL;
	if (f)
		fclose(f);
	return found ? NULL : "the host kernel has no tracefs";
}

/* Models asked of kernel k must be among those its catalog entry offers. */
static void check_models(const struct list *asked, const struct kernel_ref *k, const char *var)
{
	for (int i = 0; i < asked->n; i++) {
		if (strcmp(asked->item[i], "current") == 0 || k->models.n == 0)
			continue;
		if (!list_has(&k->models, asked->item[i])) {
			char offered[256] = "";
			for (int j = 0; j < k->models.n; j++)
				strcat(strcat(offered, j ? " " : ""), k->models.item[j]);
			plan_die("%s: kernel %s offers the models '%s', not '%s'", var, k->label,
				 offered, asked->item[i]);
		}
	}
}

static void pages_from_hugepages(struct plan *p)
{
	const char *pages = var_get("PAGES");
	check_one(p->hugepages, &vocab_hugepages, "HUGEPAGES");
	if (pages) {
		p->pages_given = true;
		list_split(&p->pages, "PAGES", pages);
		check_list(&p->pages, &vocab_pages, "PAGES");
		return;
	}
	const char *expand = strcmp(p->hugepages, "off") == 0 ? "4k"
			   : strcmp(p->hugepages, "on") == 0 ? "2m"
			   : strcmp(p->hugepages, "try") == 0 ? "try-2m" : "4k 2m 1g";
	list_split(&p->pages, "HUGEPAGES", expand);
}

/*
 * Under qemu-user (an arm64 chroot on an x86 machine) qemu, not the kernel,
 * places the host cells' mappings, and hugetlb ones fail however many pages
 * are reserved: HUGEPAGES=compare keeps 4 KB (and says why); a huge page
 * size asked for by name cannot run, and is refused before anything runs.
 */
static void qemu_user_pages(struct plan *p)
{
	static const char why[] = "under qemu-user, qemu places the mappings and cannot align "
				  "hugetlb ones; run on a native machine or in a guest";
	if (strcmp(p->kernel.source, "host") != 0 || !under_qemu_user())
		return;
	if (!p->pages_given && strcmp(p->hugepages, "compare") == 0) {
		list_split(&p->pages, "HUGEPAGES", "4k");
		plan_note("HUGEPAGES=compare: 4 KB pages only (%s)", why);
		return;
	}
	for (int i = 0; i < p->pages.n; i++) {
		const char *pg = p->pages.item[i];
		if (!strcmp(pg, "2m") || !strcmp(pg, "1g") || !strcmp(pg, "64k"))
			plan_die("%s=%s: %s; or %s", p->pages_given ? "PAGES" : "HUGEPAGES",
				 p->pages_given ? pg : p->hugepages, why,
				 p->pages_given ? "PAGES=4k" : "HUGEPAGES=off|try");
	}
}

/* HUGEPAGES, and PAGES with it. */
void hugepages_setting(struct plan *p, const char *top)
{
	(void)top;
	snprintf(p->hugepages, sizeof(p->hugepages), "%s", var_or("HUGEPAGES", "compare"));
	pages_from_hugepages(p);
	qemu_user_pages(p);
}

/* PostgreSQL's huge_pages follows the page sizes asked of bufbench. */
static void pg_huge_pages(struct plan *p)
{
	const char *asked = var_get("PG_HUGE_PAGES");
	struct list l;
	p->pg_huge_pages.n = 0;
	if (asked) {
		list_split(&l, "PG_HUGE_PAGES", asked);
		check_list(&l, &vocab_pg_huge_pages, "PG_HUGE_PAGES");
	} else {
		l.n = 0;
		for (int i = 0; i < p->pages.n; i++) {
			const char *pg = p->pages.item[i];
			const char *m = !strcmp(pg, "4k") || !strcmp(pg, "thp") ? "off"
				      : !strncmp(pg, "try-", 4) ? "try" : "on";
			snprintf(l.item[l.n++], PLAN_NAME, "%s", m);
		}
	}
	for (int i = 0; i < l.n; i++) {
		const char *m = l.item[i];
		if (strcmp(m, "compare") == 0) {
			if (!list_has(&p->pg_huge_pages, "off"))
				snprintf(p->pg_huge_pages.item[p->pg_huge_pages.n++], PLAN_NAME, "off");
			if (!list_has(&p->pg_huge_pages, "on"))
				snprintf(p->pg_huge_pages.item[p->pg_huge_pages.n++], PLAN_NAME, "on");
		} else if (!list_has(&p->pg_huge_pages, m)) {
			snprintf(p->pg_huge_pages.item[p->pg_huge_pages.n++], PLAN_NAME, "%s", m);
		}
	}
}

/*
 * Under icount the guest's RTC runs on virtual time from this instant, so
 * nothing of the host's clock reaches the guest: with the same epoch and
 * the same plan, two boots execute the same instructions in the same
 * order (docs/kernels.md).  The default, the plan's own time, keeps the
 * documents' timestamps right; a fixed ICOUNT_EPOCH replays a run exactly.
 */
void plan_icount_epoch(struct plan *p)
{
	const char *e = var_get("ICOUNT_EPOCH");
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	if (!e) {
		time_t now = time(NULL);
		gmtime_r(&now, &tm);
	} else {
		const char *end = strptime(e, "%Y-%m-%dT%H:%M:%S", &tm);
		if (!end) {
			memset(&tm, 0, sizeof(tm));
			end = strptime(e, "%Y-%m-%d", &tm);
		}
		/* strptime takes 2026-02-31: timegm rolls it over to March. */
		struct tm norm = tm;
		bool real = timegm(&norm) != (time_t)-1 && norm.tm_mday == tm.tm_mday &&
			    norm.tm_mon == tm.tm_mon && norm.tm_hour == tm.tm_hour &&
			    norm.tm_min == tm.tm_min && norm.tm_sec == tm.tm_sec;
		if (!end || *end || !real || tm.tm_year < 70 || tm.tm_year > 1100)
			plan_die("ICOUNT_EPOCH=%s: give the guest's boot time in UTC as "
				 "YYYY-MM-DDTHH:MM:SS or YYYY-MM-DD (e.g. ICOUNT_EPOCH=2026-01-01)", e);
	}
	strftime(p->icount_epoch, sizeof(p->icount_epoch), "%Y-%m-%dT%H:%M:%S", &tm);
}

/*
 * The baseline is the kernel under test: its models (BASELINE_MODELS, none
 * by default) join MODELS, first, so that the run compares the models of
 * one kernel, in one boot each.
 */
static void same_kernel_baseline(struct plan *p)
{
	struct list all = p->baseline_models;
	for (int i = 0; i < p->models.n; i++)
		if (!list_has(&all, p->models.item[i]) && all.n < PLAN_MAX_LIST)
			snprintf(all.item[all.n++], PLAN_NAME, "%s", p->models.item[i]);
	for (int i = 0; i < p->baseline_models.n; i++)
		if (!list_has(&p->models, p->baseline_models.item[i]))
			plan_note("MODELS: %s added: the baseline is %s/%s, on the kernel under test itself",
				  p->baseline_models.item[i], p->kernel.label, p->baseline_models.item[i]);
	p->models = all;
	snprintf(p->baseline_variant, sizeof(p->baseline_variant), "%s/%s", p->kernel.label,
		 p->baseline_models.item[0]);
}

/* BASELINE and BASELINE_MODELS. */
static void baseline_settings(struct plan *p, const char *top)
{
	const char *b = var_get("BASELINE");
	/* SCENARIO=overhead measures instruments on one kernel: no other kernel
	 * beside it (scenario.c's defaults come later, scaled to the guest). */
	if (!b && !strcmp(var_or("SCENARIO", "default"), "overhead"))
		b = "none";
	/*
	 * A kernel that offers none is its own baseline (7.2-lab, 6.12):
	 * then a comparison changes the model and nothing else.  Others are
	 * compared with 6.12, the last release whose x86 build had none.
	 */
	bool offers_none = list_has(&p->kernel.models, "none");
	snprintf(p->baseline_asked, sizeof(p->baseline_asked), "%s",
		 b ? b : offers_none ? p->kernel.label : "6.12");
	p->has_baseline = p->baseline_asked[0] && strcmp(p->baseline_asked, "none") != 0;
	if (p->has_baseline) {
		catalog_resolve(top, p->baseline_asked, "BASELINE", &p->baseline);
		if (strcmp(p->baseline.source, "host") == 0)
			plan_die("BASELINE=%s: the baseline must be a guest kernel (6.12, 6.1) or none",
				 p->baseline_asked);
		/* Debian's arm64 6.12 has one model, voluntary: the nearest to none
		 * an arm64 baseline can have, and said so. */
		const char *base_model = "none";
		if (!p->garch->debian_none && p->baseline.models.n &&
		    !list_has(&p->baseline.models, "none")) {
			base_model = p->baseline.default_model;
			plan_note("BASELINE=%s: Debian's %s build has no PREEMPT_NONE; the baseline "
				  "runs its %s", p->baseline_asked, p->arch, base_model);
		} else if (p->baseline.models.n && !list_has(&p->baseline.models, "none"))
			plan_die("BASELINE=%s has no PREEMPT_NONE (models: %s%s); use 6.12, 6.1 or "
				 "BASELINE=none", p->baseline_asked, p->baseline.models.item[0],
				 p->baseline.models.n > 1 ? " ..." : "");
		/* A baseline kernel of another version that also offers full runs
		 * it beside none by default: the report then tells the model's
		 * part of a change from the version's (6.12/none -> 6.12/full,
		 * 6.12/full -> 7.0/full) without being asked. */
		char base_default[32];
		bool other_kernel = strcmp(p->baseline.label, p->kernel.label) != 0;
		snprintf(base_default, sizeof(base_default), "%s%s", base_model,
			 other_kernel && !strcmp(base_model, "none") &&
			 list_has(&p->baseline.models, "full") ? " full" : "");
		list_split(&p->baseline_models, "BASELINE_MODELS", var_or("BASELINE_MODELS", base_default));
		check_list(&p->baseline_models, &vocab_models, "BASELINE_MODELS");
		check_models(&p->baseline_models, &p->baseline, "BASELINE_MODELS");
		/* The kernel under test as its own baseline runs once. */
		if (strcmp(p->baseline.label, p->kernel.label) == 0) {
			p->has_baseline = false;
			p->baseline_same_kernel = true;
		}
	}
}

/* A guest's MODELS: by default every model its kernel offers. */
static void guest_models(struct plan *p)
{
	const char *models = var_get("MODELS");
	if (models) {
		list_split(&p->models, "MODELS", models);
		check_list(&p->models, &vocab_models, "MODELS");
		check_models(&p->models, &p->kernel, "MODELS");
	} else if (p->kernel.models.n) {
		p->models = p->kernel.models;
	} else {
		list_split(&p->models, "MODELS", "current");
	}
	if (p->baseline_same_kernel)
		same_kernel_baseline(p);
	else if (p->has_baseline)
		snprintf(p->baseline_variant, sizeof(p->baseline_variant), "%s/%s", p->baseline.label,
			 p->baseline_models.item[0]);
}

/* ACCEL, else PREEMPTLAB_ACCEL from the environment; checked unless auto. */
static void accel_setting(struct plan *p)
{
	snprintf(p->accel, sizeof(p->accel), "%s", var_or("ACCEL", var_or("PREEMPTLAB_ACCEL", "auto")));
	if (strcmp(p->accel, "auto") != 0)
		check_one(p->accel, &vocab_accels, "ACCEL");
	/* Without a usable /dev/kvm the runner's probe (scripts/qemu-accel.sh)
	 * can only answer icount: plan on it now, so that the estimate, the
	 * pinning and what the plan prints are icount's, not KVM's. */
	else if (access("/dev/kvm", R_OK | W_OK) != 0)
		snprintf(p->accel, sizeof(p->accel), "icount");
}

static void guest_settings(struct plan *p, const char *top)
{
	baseline_settings(p, top);
	guest_models(p);
	accel_setting(p);
	kvm_host(p);
	p->vcpus = p->host_cpus;
	vars_stage(p, V_GUEST, top);	/* MODEL_SWITCH, VCPUS, MEM_MB, ICOUNT_*, PIN_VCPUS, ... */
}

void icount_epoch_setting(struct plan *p, const char *top)
{
	(void)top;
	plan_icount_epoch(p);
}

void vcpus_check(struct plan *p)
{
	if (p->vcpus > p->host_cpus) {
		plan_note("VCPUS=%ld exceeds the host's %ld CPUs; using %ld", p->vcpus, p->host_cpus,
			  p->host_cpus);
		p->vcpus = p->host_cpus;
	}
}

void mem_check(struct plan *p)
{
	p->mem_given = p->mem_mb != 0;	/* at least 128 when given */
}

static void host_settings(struct plan *p)
{
	for (const struct variable *r = variables; r->name; r++)
		if (r->scope == V_GUEST_ONLY && var_get(r->name))
			plan_note("%s is for guest kernels; KERNEL=host ignores it", r->name);
	list_split(&p->models, "MODELS", var_or("MODELS", "current"));
	check_list(&p->models, &vocab_models, "MODELS");
	host_models_check(&p->models);
	p->vcpus = p->host_cpus;
	p->boots = 1;
}

/*
 * FAULT_AROUND_BYTES: how much one read fault of a shared page maps
 * (debugfs fault_around_bytes), the knob that moves p_f without more CPUs
 * (issue 27's validation).  The kernel takes 4 KB up to one page table's
 * span (PTRS_PER_PTE pages: 2 MB on x86-64 and on arm64's 4 KB granule)
 * and rounds down to a power of two pages; anything else would be
 * changed behind the plan, so it is refused here.  Guests only (its row's
 * scope): the host's kernel is shared with whoever else runs on it.
 */
void fault_around_setting(struct plan *p, const char *top)
{
	(void)top;
	const char *v = var_get("FAULT_AROUND_BYTES");
	p->fault_around_bytes = 0;
	if (!v && !strcmp(p->kernel.source, "host") && !strcmp(p->scenario, "hot-lock"))
		plan_note("SCENARIO=hot-lock: the host's kernel keeps its own fault-around (shared "
			  "with whoever else runs here), so fewer holds fault than in a guest with "
			  "FAULT_AROUND_BYTES=%s; each run's provenance.fault_around_pages says how many "
			  "pages one fault maps", HOT_FAULT_AROUND);
	if (!v)
		v = scenario_default("FAULT_AROUND_BYTES");	/* guests only (scenario.c) */
	if (!v || !*v)
		return;
	uint64_t b = parse_size("FAULT_AROUND_BYTES", v);
	if (b < 4096 || b > (2u << 20) || (b & (b - 1)))
		plan_die("FAULT_AROUND_BYTES=%s: expected a power of two from 4K (no fault-around) "
			 "to 2M (one page table), e.g. 4K, 64K (the kernel's default), 256K", v);
	p->fault_around_bytes = (long)b;
}

/*
 * SPINS_PER_DELAY: adaptive (PostgreSQL's s_lock: 10..1000 by experience,
 * which sinks to 10 on 2 CPUs, so waiters sleep) or fixed:N, bufbench's
 * --spins-per-delay: waiters spin N times between sleeps, as on the
 * many-CPU machine where spinning succeeds (issue 36).  Only the spinning
 * locks have it.
 */
void spins_setting(struct plan *p, const char *top)
{
	(void)top;
	const char *v = var_or("SPINS_PER_DELAY", "adaptive");
	p->fixed_spins_per_delay = 0;
	if (!strcmp(v, "adaptive"))
		return;
	char *end;
	long n = strncmp(v, "fixed:", 6) ? -1 : strtol(v + 6, &end, 10);
	if (n < 0 || end == v + 6 || *end || n < 1 || n > SPIN_FIXED_MAX)
		plan_die("SPINS_PER_DELAY=%s: use adaptive (PostgreSQL's) or fixed:N with N in "
			 "1..%d, e.g. fixed:1000 (PostgreSQL's most, on many CPUs)", v, SPIN_FIXED_MAX);
	for (int i = 0; i < p->locks.n; i++)
		if (!strcmp(p->locks.item[i], "futex") || !strcmp(p->locks.item[i], "mcs"))
			plan_die("SPINS_PER_DELAY=%s sets s_lock's spinning; LOCKS=%s does not spin "
				 "that way: LOCKS from tas, rseq, resilient, resilient-late", v,
				 p->locks.item[i]);
	p->fixed_spins_per_delay = n;
}

/*
 * KERNEL.  SCENARIO=mitigations compares models on one kernel: 7.2-lab, the
 * one with all four and the slice extension, where it is built.  The
 * scenario is chosen later, once the CPUs it scales to are known; its
 * kernel must be known before.
 */
static void kernel_setting(struct plan *p, const char *top)
{
	const char *def_kernel = "host";
	const char *sc = var_get("SCENARIO");
	if (sc && !strcmp(sc, "mitigations") && !var_get("KERNEL")) {
		/* The build cache's images are the catalog's base architecture's. */
		const struct arch *a = arch_find(var_get("ARCH") && *var_get("ARCH") ? var_get("ARCH") : arch_host());
		if (kernel_built(top, "7.2-lab") && a && a->catalog_base)
			def_kernel = "7.2-lab";
		else
			plan_note("SCENARIO=mitigations: 7.2-lab is not built here (make kernel "
				  "KERNEL=7.2-lab): KERNEL=host, its one model");
	}
	snprintf(p->kernel_asked, sizeof(p->kernel_asked), "%s", var_or("KERNEL", def_kernel));
	if (!p->kernel_asked[0])
		plan_die("KERNEL is empty: use host, a catalog series, an exact version or a path");
	arch_pick(p);
	catalog_resolve(top, p->kernel_asked, "KERNEL", &p->kernel);
}

/* A scenario scales to the CPUs and RAM the cells will run on. */
static void scenario_setting(struct plan *p, bool host)
{
	snprintf(p->scenario, sizeof(p->scenario), "%s", var_or("SCENARIO", "default"));
	scenario_select(p->scenario, p->vcpus, host ? mem_total_mb() : p->mem_given ? p->mem_mb : 0,
			!host);
	if (scenario_hot() && scenario_hot()->pool_capped && !var_get("POOL"))
		plan_note("SCENARIO=hot-lock: POOL=%s, 30%% of this host's RAM, is less than %d s "
			  "of fill at the measured %.0f buffers/s: the fill is shorter",
			  scenario_default("POOL"), HOT_FILL_S, HOT_HOST_FILL_RATE);
	if (scenario_default("SEED_GUEST_MEM_MB"))
		p->seed_guest_mem_mb = strtol(scenario_default("SEED_GUEST_MEM_MB"), NULL, 10);
}

/* The defaults computed from variables taken before (variables.def). */
void clients_default(const struct plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "%ld", !strcmp(p->kernel.source, "host") ? 8 : p->vcpus * 4);
}

/*
 * The model's own cost per fault and system call (issue 24): wherever a
 * guest's models are compared, and wherever the evidence is asked to
 * explain a difference; a few seconds a model.
 */
void costbench_default(const struct plan *p, char *buf, size_t len)
{
	bool models_compared = strcmp(p->kernel.source, "host") != 0 &&
			       p->models.n + p->baseline_models.n > 1;
	snprintf(buf, len, "%s", models_compared || p->evidence ? "on" : "off");
}

/* The census's channel events ride on the trace (issue 36); CHANNEL=off drops them. */
void channel_default(const struct plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s", p->evidence ? "on" : "off");
}

/* A guest's shared_buffers and scale are sized from its RAM (sizing.c)
 * when not given: "" until then. */
void pg_shared_buffers_default(const struct plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s", !strcmp(p->kernel.source, "host") ? p->pool : "");
}

/*
 * REPEAT's runs per cell, host included: the host once ran pgbench once per
 * cell, and the first report a newcomer saw called every pgbench comparison
 * "not computable: 1 and 1 runs" (issue 35).  Three runs cost make bench
 * about 2 minutes more.
 */
void pg_repeat_default(const struct plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "%ld", p->repeat);
}

void pg_duration_default(const struct plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "%ld", p->duration_s);
}

/* The checks between a variable and those taken before it (variables.def). */
void locks_check(struct plan *p)
{
	/* The architecture's guest kernels may lack the rseq slice extension
	 * (arch.c says why).  A host's own kernel may be newer: bufbench
	 * checks it there. */
	if (list_has(&p->locks, "rseq") && p->garch->no_rseq_slice &&
	    strcmp(p->kernel.source, "host") != 0)
		plan_die("LOCKS=rseq: no %s guest kernel has the rseq slice extension (%s); LOCKS "
			 "without rseq on ARCH=%s", p->arch, p->garch->no_rseq_slice, p->arch);
}

void stride_check(struct plan *p)
{
	if (p->freelist_stride > 1 && list_has(&p->strategies, "pg19"))
		plan_note("FREELIST_STRIDE=%ld: pg19 has no freelist; its cells run without it",
			  p->freelist_stride);
}

void steady_check(struct plan *p)
{
	if (p->steady_s > p->duration_s)
		plan_die("STEADY=%ld is longer than DURATION=%ld, the limit of each run", p->steady_s,
			 p->duration_s);
}

void evidence_check(struct plan *p)
{
	const char *no_trace = cannot_trace(p);
	if (p->evidence && no_trace && !var_get("EVIDENCE")) {
		/* The scenario asked, not the user: count outside the hold instead. */
		plan_note("SCENARIO=%s: no trace here (%s): faulting holds counted with "
			  "--hold-events (read before the acquire and after the release) instead "
			  "of EVIDENCE=on", scenario_name(), no_trace);
		p->evidence = false;
		p->hold_events = true;
	}
	if (p->evidence && no_trace)
		plan_die("EVIDENCE=on: %s; or EVIDENCE=off", no_trace);
}

void channel_check(struct plan *p)
{
	if (p->channel && !p->evidence) {
		if (var_get("CHANNEL"))
			plan_die("CHANNEL=on adds events to the EVIDENCE trace: add EVIDENCE=on");
		p->channel = false;
	}
}

/* The kernel takes 5..50 us (rseq_slice_ext_write() in kernel/rseq.c).
 * The grant is used by the rseq lock, the mitigations' rseq:N and
 * costbench's wake test (its slice-requested arm); COSTBENCH is taken
 * before the knobs. */
void slice_ext_check(struct plan *p)
{
	if (p->slice_ext_us && !list_has(&p->locks, "rseq") && !var_or("MITIGATIONS", NULL) &&
	    !p->costbench)
		plan_note("SLICE_EXT_US=%ld changes nothing without LOCKS=...,rseq or COSTBENCH=on",
			  p->slice_ext_us);
}

void bufbench_args_split(struct plan *p)
{
	p->bufbench_argv.n = 0;
	if (p->bufbench_args[strspn(p->bufbench_args, " \t")])
		list_split(&p->bufbench_argv, "BUFBENCH_ARGS", p->bufbench_args);
}

/* A guest profiles with the host's perf, which runs on the host's
 * architecture only. */
void profile_check(struct plan *p)
{
	if (p->profile && p->cross)
		plan_die("PROFILE=on: the host's perf does not run in an %s guest; PROFILE=off, "
			 "or run it from an %s machine", p->arch, p->arch);
}

void callgraph_check(struct plan *p)
{
	if (strcmp(p->profile_callgraph, "dwarf") && strcmp(p->profile_callgraph, "fp"))
		plan_die("PROFILE_CALLGRAPH=%s: use dwarf or fp", p->profile_callgraph);
	if (strcmp(p->kernel.source, "host") != 0 && strcmp(p->profile_callgraph, "fp") != 0)
		plan_die("PROFILE_CALLGRAPH=%s: guests unwind by frame pointers only (fp)",
			 p->profile_callgraph);
}

/* The rows whose values code of its own takes, at their place. */
void mitigations_setting(struct plan *p, const char *top)
{
	(void)top;
	mitigation_settings(p, var_or("MITIGATIONS", NULL));
}

/* An arm64 guest runs Debian's arm64 PostgreSQL (scripts/pg-guest-root.sh arm64),
 * from an x86 host or an arm64 one, so pgbench is on there as anywhere. */
void pg_huge_pages_setting(struct plan *p, const char *top)
{
	(void)top;
	pg_huge_pages(p);
	if (!strcmp(p->kernel.source, "host") && under_qemu_user() && list_has(&p->pg_huge_pages, "on"))
		plan_die("PG_HUGE_PAGES=on: PostgreSQL's hugetlb segment cannot be mapped under "
			 "qemu-user (qemu places the mappings); PG_HUGE_PAGES=off|try, or run on a "
			 "native machine");
}

void pg_version_setting(struct plan *p, const char *top)
{
	pg_version_settings(p, top, var_or("PG_VERSION", NULL));
	pg_mitigation_settings(p, top);
}

/*
 * Every variable, in stages: the kernel and the machine, then the scenario
 * (scaled to that machine), then the table's rows stage by stage
 * (variables.def; PostgreSQL's only with PGBENCH=on).
 */
void plan_settings(struct plan *p, const char *top)
{
	memset(p, 0, sizeof(*p));
	p->host_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	kernel_setting(p, top);
	bool host = strcmp(p->kernel.source, "host") == 0;
	if (host)
		host_settings(p);
	else
		guest_settings(p, top);
	arch_settings(p, top);
	scenario_setting(p, host);
	for (enum var_stage s = V_BENCH; s <= V_CONTROLS; s++)
		if (s != V_PG || p->pgbench)
			vars_stage(p, s, top);
	command_line(p->command, sizeof(p->command));
}
