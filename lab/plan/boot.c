/*
 * How each unit is carried out: the exact QEMU command (argv) and kernel
 * command line of a guest, the limits the runner enforces (boot, cell,
 * pgbench cell), how many times a unit may be started, which host CPU
 * each vCPU thread is pinned to.  The runner executes these as written
 * (scripts/run-plan.sh, scripts/qemu-boot.sh) and logs what it executed
 * (logs/qemu-TAG.argv, logs/limits-UNIT.txt), so a plan can be checked
 * against what ran (tests/e2e/plan_boot.sh).
 *
 * The argv holds four placeholders the runner fills, because only it knows
 * the paths: {kernel} (the resolved image), {initrd} (the initramfs with
 * the unit's plan appended), {console} and {channel} (host files).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "knobs.h"
#include "plan.h"

/* A few seconds' margin is no margin on a machine shared by many. */
#define BOOT_TIMEOUT_TCG 180	/* a 7.0 initramfs boot reaches init in ~7 s under TCG */
#define BOOT_TIMEOUT_KVM 60
#define ATTEMPTS 3		/* an emulator oops while booting is retried, at most this often */
/*
 * The retry rule: a guest that ended before its runner answered and whose
 * console holds this text oopsed while booting.  Multi-threaded TCG races
 * the kernel patching its own text (int3 oopses in sched_clock_cpu, seen
 * here): the emulator's chance, not the kernel's verdict, so it boots
 * again within the attempts.  A panic without an oops (no init, no root)
 * is final.
 */
#define RETRY_CONSOLE "Oops:"

static void add(char **argv, int *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char **argv, int *n, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (*n + 1 >= BOOT_MAX_ARGS)
		plan_die("the QEMU command has over %d arguments", BOOT_MAX_ARGS);
	argv[(*n)++] = strdup(buf);
	argv[*n] = NULL;
}

static void add_all(char **argv, int *n, const char *const *args)
{
	for (int i = 0; i < ARCH_MAX_ARGS && args[i]; i++)
		add(argv, n, "%s", args[i]);
}

/* The architecture's emulator, or the one its variable names ($QEMU). */
const char *boot_emulator(const struct plan *p)
{
	const char *v = var_get(p->garch->qemu_var);
	return v && *v ? v : p->garch->qemu;
}

int boot_argv(const struct plan *p, const char *accel, long vcpus, long mem_mb,
	      const char *ram_pages, const char *epoch, const char *cmdline, char **argv)
{
	const struct arch *a = p->garch;
	bool kvm = !strcmp(accel, "kvm");
	int n = 0;
	add(argv, &n, "%s", boot_emulator(p));
	/* debug-threads names the vCPU threads "CPU N/KVM" (scripts/qemu-pin.sh). */
	static const char *const fixed[] = { "-nodefaults", "-no-reboot", "-display", "none",
					     "-monitor", "none", "-name", "preemptlab,debug-threads=on",
					     NULL };
	add_all(argv, &n, fixed);
	add(argv, &n, "-machine");
	add(argv, &n, "%s", kvm ? a->machine_kvm : a->machine);
	if (kvm) {
		add(argv, &n, "-enable-kvm");
		add(argv, &n, "-cpu");
		add(argv, &n, "host");
	} else if (!strcmp(accel, "tcg")) {
		/* TCG's "max" model has pdpe1gb, which 1 GB pages need. */
		add(argv, &n, "-accel");
		add(argv, &n, "tcg,thread=multi");
		add(argv, &n, "-cpu");
		add(argv, &n, "max");
	} else if (!strcmp(accel, "icount")) {
		/*
		 * Virtual time: one instruction is 2^shift ns and the vCPUs take
		 * turns on one host thread, so the guest's clock no longer
		 * follows the host's load.  The host's last inputs go too: its
		 * entropy (the architecture's cpu_icount) and the RTC, which
		 * otherwise reads the host's clock.  The same initramfs then
		 * boots to the same instructions (docs/kernels.md).
		 */
		add(argv, &n, "-accel");
		add(argv, &n, "tcg,thread=single");
		add(argv, &n, "-icount");
		add(argv, &n, "shift=%ld,sleep=off", p->icount_shift);
		add_all(argv, &n, a->cpu_icount);
		add(argv, &n, "-rtc");
		add(argv, &n, "base=%s,clock=vm", epoch);
	} else {
		return -1;
	}
	/* Guest RAM from the host's huge pages (GUEST_HUGEPAGES; the runner
	 * reserves them): a memfd of hugetlb pages as the machine's memory. */
	if (strcmp(ram_pages, "off") != 0 && ram_pages[0]) {
		add(argv, &n, "-object");
		add(argv, &n, "memory-backend-memfd,id=ram,size=%ldM,hugetlb=on,hugetlbsize=%s,"
			      "prealloc=on", mem_mb, !strcmp(ram_pages, "1g") ? "1G" : "2M");
		add(argv, &n, "-machine");
		add(argv, &n, "memory-backend=ram");
	}
	add(argv, &n, "-smp");
	add(argv, &n, "%ld", vcpus);
	add(argv, &n, "-m");
	add(argv, &n, "%ld", mem_mb);
	static const char *const files[] = { "-kernel", "{kernel}", "-initrd", "{initrd}", NULL };
	add_all(argv, &n, files);
	add(argv, &n, "-append");
	add(argv, &n, "%s", cmdline);
	add(argv, &n, "-serial");
	add(argv, &n, "file:{console}");
	add_all(argv, &n, a->channel);
	return n;
}

/*
 * Full boot messages: a guest that hangs or panics is diagnosed from its
 * console log, and they cost under a second under TCG.  cryptomgr.notests:
 * Debian's kernels run the crypto self-tests in a kernel thread for the
 * first ~20 s of virtual time after init, which took 15-25% of the CPU
 * from the first two runs of every boot (docs/kernels.md, "The first run
 * of a boot").  PREEMPTLAB_GUEST_APPEND adds words (a test's hook).
 */
void boot_cmdline(const struct plan *p, const char *extra, char *buf, size_t len)
{
	const char *append = var_get("PREEMPTLAB_GUEST_APPEND");
	snprintf(buf, len, "console=%s%s%s panic=-1 cryptomgr.notests=1%s%s%s%s", p->garch->console,
		 *p->garch->chan_param ? " " : "", p->garch->chan_param, *extra ? " " : "", extra,
		 append && *append ? " " : "", append ? append : "");
}

static bool has_1g(const struct unit *u)
{
	for (size_t i = 0; i < u->ncells; i++)
		if (!strcmp(u->cells[i].tool, "bufbench") &&
		    (!strcmp(u->cells[i].pages, "1g") || !strcmp(u->cells[i].pages, "try-1g")))
			return true;
	return false;
}

/* A test's hook over a planned limit (PREEMPTLAB_BOOT_TIMEOUT and the like). */
static long limit(const char *var, long planned)
{
	const char *v = var_get(var);
	return v && *v ? parse_count(var, v, 1, 7L * 86400) : planned;
}

static void reserve(struct unit *u, const char *pages, long kb, long count, bool required,
		    const char *hint)
{
	struct reservation *r = &u->reserve[u->nreserve++];
	snprintf(r->pages, sizeof(r->pages), "%s", pages);
	r->kb = kb;
	r->count = count;
	r->required = required;
	snprintf(r->hint, sizeof(r->hint), "%s", hint);
}

/* The host's pages for its cells: a size is reserved where a cell runs on
 * it exactly (try-2m falls back inside bufbench), required where one such
 * cell was not asked "where it can be had".  A guest reserves its own 2 MB
 * pages inside (lab/runner/) and 1 GB ones from its command line. */
static void unit_reservations(const struct plan *p, struct unit *u)
{
	static const struct { const char *pages; long kb; } sizes[] = { { "2m", 2048 },
									{ "1g", 1048576 } };
	u->nreserve = 0;
	u->restore_model = false;
	if (strcmp(u->kind, "host") != 0) {
		if (strcmp(p->guest_hugepages, "off") != 0 && p->guest_hugepages[0]) {
			char hint[64];
			snprintf(hint, sizeof(hint), "GUEST_HUGEPAGES=off");
			reserve(u, "ram", !strcmp(p->guest_hugepages, "1g") ? 1048576 : 2048,
				p->guest_hp_pages, true, hint);
		}
		return;
	}
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		bool used = false, required = false;
		for (size_t i = 0; i < u->ncells; i++) {
			const struct cell *c = &u->cells[i];
			if (strcmp(c->tool, "bufbench") || strcmp(c->pages, sizes[s].pages))
				continue;
			used = true;
			required |= !c->optional;
		}
		if (used)
			reserve(u, sizes[s].pages, sizes[s].kb, s == 0 ? p->hp2m : p->hp1g, required,
				"ask for fewer page sizes (PAGES=, HUGEPAGES=off)");
	}
	/* Cells on another model than the booted one switch the host's. */
	for (size_t i = 0; i < u->ncells; i++) {
		const struct cell *c = &u->cells[i];
		if (!strcmp(c->tool, "bufbench") && strcmp(c->model, "current"))
			u->restore_model = true;
		for (int m = 0; !strcmp(c->tool, "pgbench") && m < c->pg_models->n; m++)
			if (strcmp(c->pg_models->item[m], "current"))
				u->restore_model = true;
	}
}

static void unit_run(const struct plan *p, struct unit *u)
{
	bool host = !strcmp(u->kind, "host");
	bool kvm = !strcmp(p->accel, "kvm");
	bool emulated = !host && !kvm;
	long slack = emulated ? 120 : 60;
	u->boot_timeout_s = host ? 0 : limit("PREEMPTLAB_BOOT_TIMEOUT",
					     kvm ? BOOT_TIMEOUT_KVM : BOOT_TIMEOUT_TCG);
	u->cell_timeout_s = limit("PREEMPTLAB_CELL_TIMEOUT", p->warmup_s + p->duration_s + slack);
	u->attempts = ATTEMPTS;
	/*
	 * A pgbench cell: its cluster's setup (initdb, the server's start,
	 * pgbench -i of the planned scale), then its runs.  pgbench -i took
	 * 25.7 s for scale 3 in a 6.12 guest under TCG, about 9 s a scale
	 * unit: the limit allows twice that, and four times across
	 * architectures (arm64 from x86 emulates the slow way).
	 */
	u->pg_runs_per_cell = u->npgbench ? (long)(u->npgruns / u->npgbench) : 0;
	long scale = p->pg_scale[0] ? strtol(p->pg_scale, NULL, 10) : 0;
	long per_unit = !emulated ? 2 : p->cross ? 40 : 20;
	long setup = kvm ? 240 : 600, pg_slack = kvm ? 30 : 60;
	u->pg_timeout_s = limit("PREEMPTLAB_PG_TIMEOUT", setup + scale * per_unit +
				u->pg_runs_per_cell * (p->pg_duration_s + pg_slack));
	/* Each vCPU thread on its own host CPU: under KVM (PIN_VCPUS=auto), or
	 * under any accelerator when asked (on). */
	u->pinned = !host && (!strcmp(p->pin, "on") || (!strcmp(p->pin, "auto") && kvm));
	unit_reservations(p, u);
	if (host)
		return;
	char extra[256] = "";
	size_t off = 0;
	if (has_1g(u))
		off += (size_t)snprintf(extra + off, sizeof(extra) - off, "hugepagesz=1G hugepages=%ld",
					p->hp1g);
	if (u->boot_model[0])
		snprintf(extra + off, sizeof(extra) - off, "%spreempt=%s", off ? " " : "", u->boot_model);
	boot_cmdline(p, extra, u->cmdline, sizeof(u->cmdline));
	/* ACCEL=auto before the probe (scripts/bench.sh): no command yet. */
	u->nqemu = 0;
	if (strcmp(p->accel, "auto") != 0)
		u->nqemu = boot_argv(p, p->accel, p->vcpus, p->mem_mb, p->guest_hugepages,
				     u->icount_epoch, u->cmdline, u->qemu);
}

void plan_boots(struct plan *p)
{
	for (int i = 0; i < p->nunits; i++)
		unit_run(p, &p->units[i]);
	p->nprobe = 0;
	/* The KVM probe: one vCPU reaching userspace (guest/init answers
	 * preemptlab.probe on its console) is the verdict. */
	if (strcmp(p->kernel.source, "host") != 0 && !strcmp(p->accel, "auto")) {
		char cmdline[256];
		snprintf(cmdline, sizeof(cmdline), "console=%s panic=-1 preemptlab.probe",
			 p->garch->console);
		p->nprobe = boot_argv(p, "kvm", 1, 512, "off", p->icount_epoch, cmdline, p->probe);
		p->probe_timeout_s = limit("PREEMPTLAB_KVM_PROBE_S", 30);
		/* A paravirtual KVM (kvm_pvm, FACTS 9) emulates a stock kernel's
		 * kernel mode and stops at the first instruction its emulator
		 * lacks: QEMU says this and pauses the guest, which would then
		 * wait out the whole timeout.  The probe stops at these words. */
		p->probe_fail_text = "KVM internal error";
	}
}

static void write_argv(const char *dir, const char *name, char *const *argv, int n)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		plan_die("cannot write %s", path);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s\n", argv[i]);
	fclose(f);
}

static void pins(const struct plan *p, const struct unit *u, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (long v = 0; u->pinned && v < p->vcpus && off < len; v++)
		off += (size_t)snprintf(buf + off, len - off, "%s%d", v ? "," : "", p->vcpu_pin[v]);
}

/* How a unit is run (key TAB value), in its plan file (plan/UNIT.plan,
 * write.c): scripts/run-plan.sh's limits, retries, pins and reservations.
 * restore_model is the unit's, written with the runner's keys. */
void boot_write_unit(FILE *f, const struct plan *p, const struct unit *u)
{
	char list[8192];
	pins(p, u, list, sizeof(list));
	/* A pgbench cell's runs reach the runner in its cell_watch line (write.c). */
	fprintf(f, "accel\t%s\nattempts\t%d\nboot_timeout_s\t%ld\ncell_timeout_s\t%ld\n"
		"pg_timeout_s\t%ld\nvcpu_pin\t%s\ncmdline\t%s\n",
		!strcmp(u->kind, "host") ? "none" : p->accel, u->attempts, u->boot_timeout_s,
		u->cell_timeout_s, u->pg_timeout_s, list, u->cmdline);
	fprintf(f, "retry_console\t%s\n", RETRY_CONSOLE);
	/* One line a reservation: PAGES KB COUNT required|optional HINT. */
	for (int r = 0; r < u->nreserve; r++)
		fprintf(f, "reserve\t%s %ld %ld %s %s\n", u->reserve[r].pages, u->reserve[r].kb,
			u->reserve[r].count, u->reserve[r].required ? "required" : "optional",
			u->reserve[r].hint);
	/*
	 * One line a cell of a page size asked where it can be had: PAGES ID.
	 * Such a cell that does not run is unavailable, not failed, and an
	 * optional reservation that fails drops the cells of its size.
	 */
	for (size_t i = 0; i < u->ncells; i++) {
		const struct cell *c = &u->cells[i];
		if (!strcmp(c->tool, "bufbench") && c->optional)
			fprintf(f, "optional_cell\t%s\t%s\n", c->pages, c->id);
	}
}

/* plan/UNIT.qemu and plan/probe.qemu (one argument a line). */
void boot_write(const struct plan *p, const char *dir)
{
	char name[PLAN_NAME + 8], path[4200];
	for (int i = 0; i < p->nunits; i++) {
		const struct unit *u = &p->units[i];
		snprintf(name, sizeof(name), "%s.qemu", u->id);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		remove(path);
		if (u->nqemu)
			write_argv(dir, name, u->qemu, u->nqemu);
	}
	snprintf(path, sizeof(path), "%s/probe.qemu", dir);
	remove(path);
	if (p->nprobe)
		write_argv(dir, "probe.qemu", p->probe, p->nprobe);
}

/* units[].run in plan.json: the same, for the record. */
void boot_json(struct json *j, const struct plan *p, const struct unit *u)
{
	json_begin_object(j, "run");
	json_str(j, "accel", !strcmp(u->kind, "host") ? "none" : p->accel);
	json_int(j, "attempts", u->attempts);
	json_int(j, "boot_timeout_s", u->boot_timeout_s);
	json_int(j, "cell_timeout_s", u->cell_timeout_s);
	json_int(j, "pg_timeout_s", u->pg_timeout_s);
	json_int(j, "pg_runs_per_cell", u->pg_runs_per_cell);
	json_str(j, "retry_console", RETRY_CONSOLE);
	json_bool(j, "restore_model", u->restore_model);
	knobs_json(j, p, !strcmp(u->kind, "host"));
	json_begin_array(j, "reserve");
	for (int r = 0; r < u->nreserve; r++) {
		json_begin_object(j, NULL);
		json_str(j, "pages", u->reserve[r].pages);
		json_int(j, "kb", u->reserve[r].kb);
		json_int(j, "count", u->reserve[r].count);
		json_bool(j, "required", u->reserve[r].required);
		json_end_object(j);
	}
	json_end_array(j);
	if (u->pinned) {
		json_begin_array(j, "vcpu_pin");
		for (long v = 0; v < p->vcpus; v++)
			json_int(j, NULL, p->vcpu_pin[v]);
		json_end_array(j);
	} else {
		json_null(j, "vcpu_pin");
	}
	if (strcmp(u->kind, "host") != 0)
		json_str(j, "cmdline", u->cmdline);
	if (u->nqemu) {
		json_begin_array(j, "qemu");
		for (int i = 0; i < u->nqemu; i++)
			json_str(j, NULL, u->qemu[i]);
		json_end_array(j);
	} else {
		json_null(j, "qemu");
	}
	json_end_object(j);
}
