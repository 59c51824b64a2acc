#include "provenance.h"
#include "revision.h"
#include "emulation.h"
#include "unit_conf.h"

#include <errno.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define PREEMPT_DEBUGFS "/sys/kernel/debug/sched/preempt"

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* First line of a file, newline stripped; "" when unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	buf[0] = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int prov_parse_preempt(const char *line, char *out, size_t outlen)
{
	const char *open = strchr(line, '(');
	const char *close = open ? strchr(open, ')') : NULL;
	if (!open || !close || close == open + 1)
		return -1;
	size_t n = (size_t)(close - open - 1);
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, open + 1, n);
	out[n] = '\0';
	return 0;
}

static void detect_preempt(struct provenance *p)
{
	char line[128];
	int err;

	if (read_line(PREEMPT_DEBUGFS, line, sizeof(line)) == 0 &&
	    prov_parse_preempt(line, p->preempt_model, sizeof(p->preempt_model)) == 0) {
		copy(p->preempt_model_raw, sizeof(p->preempt_model_raw), line);
		copy(p->preempt_model_source, sizeof(p->preempt_model_source), "debugfs");
		return;
	}
	err = errno;
	/* A kernel the catalog gives one model (no debugfs file): the plan
	 * names it (--unit-conf's static_model). */
	const char *planned = unit_conf_get("static_model");
	if (planned && *planned) {
		copy(p->preempt_model, sizeof(p->preempt_model), planned);
		copy(p->preempt_model_source, sizeof(p->preempt_model_source), "plan");
		return;
	}
	copy(p->preempt_model, sizeof(p->preempt_model), "unknown");
	/*
	 * Without PREEMPT_DYNAMIC the model is fixed at build time and uname
	 * names it (PREEMPT, PREEMPT_RT, PREEMPT_LAZY); with it, only debugfs
	 * can tell.
	 */
	if (strstr(p->kernel_version, "PREEMPT_RT"))
		copy(p->preempt_model, sizeof(p->preempt_model), "rt");
	snprintf(p->preempt_model_source, sizeof(p->preempt_model_source),
		 "unknown: %s unreadable (%s)%s", PREEMPT_DEBUGFS,
		 line[0] ? "no model marked" : strerror(err),
		 strstr(p->kernel_version, "PREEMPT_DYNAMIC") ?
			 "; kernel is PREEMPT_DYNAMIC, so uname cannot tell" : "");
}

/*
 * The tick the run ran under (kernel_tick.h).  A guest's initramfs has
 * no /boot: the plan names the config it shipped (--unit-conf's
 * kernel_config); the host's is /boot/config-RELEASE or /proc/config.gz.
 */
static void detect_tick(struct provenance *p)
{
	char boot[200];
	const char *paths[4];
	size_t n = 0;
	const char *planned = unit_conf_get("kernel_config");
	if (planned && *planned)
		paths[n++] = planned;
	snprintf(boot, sizeof(boot), "/boot/config-%s", p->kernel_release);
	paths[n++] = boot;
	paths[n++] = "/proc/config.gz";
	paths[n] = NULL;
	if (kernel_tick_read(paths, &p->tick) == 0)
		return;
	/* No config (Debian's 7.0 ships none): count the ticks themselves. */
	char why[sizeof(p->tick.source)];
	snprintf(why, sizeof(why), "%s", p->tick.source + strlen("unknown: "));
	kernel_tick_measure(&p->tick, why);
}

/* buffer_pool/emulation.h says how. */
int prov_under_qemu_user(void)
{
	return under_qemu_user();
}

void prov_detect_virt(char *out, size_t outlen)
{
	/* A guest's accelerator is the plan's (--unit-conf's virt). */
	const char *planned = unit_conf_get("virt");
	char vendor[128] = "", product[128] = "", compat[256] = "";
	if (planned && *planned) {
		snprintf(out, outlen, "%s", planned);
		return;
	}
	if (prov_under_qemu_user()) {
		/* Every instruction is translated: times are an emulator's. */
		snprintf(out, outlen, "tcg-user");
		return;
	}
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024];
	int hypervisor = 0, qemu_cpu = 0, x86 = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) == 0) {
			x86 = 1;
			if (strstr(line, " hypervisor"))
				hypervisor = 1;
		}
		if (strncmp(line, "model name", 10) == 0 && strstr(line, "QEMU"))
			qemu_cpu = 1;
	}
	if (f)
		fclose(f);
	read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	read_line("/sys/class/dmi/id/product_name", product, sizeof(product));
	if (!x86) {
		/* arm64 has no hypervisor CPU flag: firmware tables say it.  QEMU's
		 * virt machine booted with -kernel has no DMI, only its device tree. */
		read_line("/proc/device-tree/compatible", compat, sizeof(compat));
		if (strstr(vendor, "QEMU") || strstr(product, "KVM"))
			snprintf(out, outlen, "kvm");
		else if (strstr(compat, "linux,dummy-virt"))
			snprintf(out, outlen, "other:qemu-virt");
		else if (strstr(vendor, "Amazon EC2") && !strstr(product, "metal"))
			/* A Graviton instance (Nitro); its bare-metal sizes say "metal". */
			snprintf(out, outlen, "other:%s", vendor);
		else
			snprintf(out, outlen, "none");
	} else if (!hypervisor) {
		snprintf(out, outlen, "none");
	} else if (qemu_cpu) {
		/* TCG presents "QEMU Virtual CPU"; KVM passes the host's model. */
		snprintf(out, outlen, "tcg");
	} else if (strstr(vendor, "QEMU") || strstr(product, "KVM")) {
		snprintf(out, outlen, "kvm");
	} else {
		snprintf(out, outlen, "other:%s", vendor[0] ? vendor : "hypervisor");
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Under QEMU a 1 us sleep can cost far more: the report must say so. */
static double measure_sleep_ns(void)
{
	double v[50];
	struct timespec req = { 0, 1000 };
	for (int i = 0; i < 50; i++) {
		double t = now_ns();
		nanosleep(&req, NULL);
		v[i] = now_ns() - t;
	}
	qsort(v, 50, sizeof(v[0]), cmp_double);
	return v[25];
}

/* What one first-touch minor fault costs: the event the lab is about. */
static double measure_fault_ns(void)
{
	enum { PAGES = 256 };
	long pg = sysconf(_SC_PAGESIZE);
	double v[PAGES];
	char *m = mmap(NULL, (size_t)pg * PAGES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -1;
	for (int i = 0; i < PAGES; i++) {
		double t = now_ns();
		((volatile char *)m)[(long)i * pg] = 1;
		v[i] = now_ns() - t;
	}
	munmap(m, (size_t)pg * PAGES);
	qsort(v, PAGES, sizeof(v[0]), cmp_double);
	return v[PAGES / 2];
}

/*
 * How many 4 KB pages one read fault maps in a process that did not write
 * them (the kernel's fault-around on shared memory): a backend reading a
 * descriptor page the postmaster wrote.  1 means every page faults.
 */
static int measure_fault_around_pages(void)
{
	enum { PAGES = 256 };
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, (size_t)pg * PAGES, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status = 0;
	if (m == MAP_FAILED)
		return -1;
	memset(m, 1, (size_t)pg * PAGES);
	pid_t pid = fork();
	if (pid == 0) {
		struct rusage a, b;
		volatile char sum = 0;
		getrusage(RUSAGE_SELF, &a);
		for (int i = 0; i < PAGES; i++)
			sum += m[(long)i * pg];
		getrusage(RUSAGE_SELF, &b);
		long faults = b.ru_minflt - a.ru_minflt;
		_exit(faults > 0 ? (int)((PAGES + faults / 2) / faults) : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		status = -1;
	munmap(m, (size_t)pg * PAGES);
	return status < 0 ? -1 : WEXITSTATUS(status);
}

/* The value of a "key : value" cpuinfo line, newline stripped. */
static char *cpuinfo_value(char *line)
{
	char *v = strchr(line, ':');
	if (!v)
		return NULL;
	v += 1 + (v[1] == ' ');
	v[strcspn(v, "\n")] = '\0';
	return v;
}

/*
 * x86 names its CPU in "model name".  arm64 has no name, only the MIDR's
 * fields: "CPU implementer" (0x41 Arm, 0xc0 Ampere, ...) and "CPU part"
 * (0xd4f Neoverse V2, as in Graviton4): both, since a part number means
 * nothing without its implementer.
 */
static void cpu_model(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], impl[64] = "";
	char *v;
	copy(out, len, "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) == 0 && (v = cpuinfo_value(line))) {
			copy(out, len, v);
			break;
		}
		if (strncmp(line, "CPU implementer", 15) == 0 && (v = cpuinfo_value(line)))
			copy(impl, sizeof(impl), v);
		if (strncmp(line, "CPU part", 8) == 0 && (v = cpuinfo_value(line))) {
			snprintf(out, len, "implementer %s part %s", impl[0] ? impl : "?", v);
			break;
		}
	}
	if (f)
		fclose(f);
}

void prov_collect(struct provenance *p, int argc, char **argv)
{
	struct utsname u;
	const char *label = unit_conf_get("label");

	memset(p, 0, sizeof(*p));
	copy(p->kernel_label, sizeof(p->kernel_label), label && *label ? label : "host");
	if (uname(&u) == 0) {
		copy(p->kernel_release, sizeof(p->kernel_release), u.release);
		copy(p->kernel_version, sizeof(p->kernel_version), u.version);
		copy(p->hostname, sizeof(p->hostname), u.nodename);
		copy(p->arch, sizeof(p->arch), u.machine);
	} else {
		copy(p->arch, sizeof(p->arch), "unknown");
	}
	detect_preempt(p);
	detect_tick(p);
	p->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	prov_detect_virt(p->virtualization, sizeof(p->virtualization));
	if (read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      p->clocksource, sizeof(p->clocksource)) != 0)
		copy(p->clocksource, sizeof(p->clocksource), "unknown");
	cpu_model(p->cpu_model, sizeof(p->cpu_model));
	p->sleep_cost_ns = measure_sleep_ns();
	p->fault_cost_ns = measure_fault_ns();
	p->fault_around_pages = measure_fault_around_pages();
	/* How long a grant lasts, where the kernel has the extension. */
	char ext[32];
	p->slice_ext_ns = read_line("/sys/kernel/debug/rseq/slice_ext_nsec", ext, sizeof(ext)) == 0 && ext[0]
				  ? atol(ext) : -1;
	/* The slice a task runs before EEVDF may switch it (BASE_SLICE_US sets it). */
	p->base_slice_ns = read_line("/sys/kernel/debug/sched/base_slice_ns", ext, sizeof(ext)) == 0 && ext[0]
				   ? atol(ext) : -1;
	p->sched_hrtick = prov_sched_hrtick();
#ifdef __VERSION__
	snprintf(p->compiler, sizeof(p->compiler), "gcc-compatible %s", __VERSION__);
#endif
	copy(p->libc, sizeof(p->libc), gnu_get_libc_version());

	/* --unit-conf FILE is left out: a path inside the unit's boot, whose
	 * values are recorded in their own fields (label, virtualization,
	 * icount_*), so the command line reruns anywhere. */
	size_t off = 0;
	for (int i = 0; i < argc && off < sizeof(p->command_line) - 1; i++) {
		if (!strcmp(argv[i], "--unit-conf") && i + 1 < argc) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--unit-conf=", 12))
			continue;
		off += (size_t)snprintf(p->command_line + off, sizeof(p->command_line) - off,
					"%s%s", off ? " " : "", argv[i]);
	}

	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(p->timestamp, sizeof(p->timestamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void prov_write(struct json *j, const struct provenance *p)
{
	json_begin_object(j, "provenance");
	json_str(j, "kernel_label", p->kernel_label);
	json_str(j, "kernel_release", p->kernel_release);
	json_str(j, "kernel_version", p->kernel_version);
	json_str(j, "preempt_model", p->preempt_model);
	json_str(j, "preempt_model_source", p->preempt_model_source);
	json_str(j, "preempt_model_raw", p->preempt_model_raw);
	if (p->tick.hz > 0)
		json_int(j, "kernel_hz", p->tick.hz);
	else
		json_null(j, "kernel_hz");
	json_str(j, "kernel_nohz", p->tick.nohz[0] ? p->tick.nohz : "unknown");
	json_str(j, "kernel_tick_source", p->tick.source[0] ? p->tick.source : "unknown: not collected");
	json_str(j, "page_policy", p->page_policy);
	json_int(j, "page_size_kb", p->page_size_kb);
	json_str(j, "page_size_source", p->page_size_source);
	json_str(j, "lock", p->lock);
	json_str(j, "strategy", p->strategy);
	json_int(j, "cpus", p->cpus);
	json_str(j, "virtualization", p->virtualization);
	json_bool(j, "emulated", strncmp(p->virtualization, "tcg", 3) == 0);
	/* tcg-icount: one guest instruction is 2^shift ns of virtual time. */
	const char *shift = unit_conf_get("icount_shift");
	if (!strcmp(p->virtualization, "tcg-icount")) {
		json_int(j, "icount_shift", shift && *shift ? atoi(shift) : -1);
		/* The guest clock's start: with it and the plan, a boot replays exactly. */
		const char *epoch = unit_conf_get("icount_epoch");
		json_str(j, "icount_epoch", epoch && *epoch ? epoch : "unknown");
	}
	json_str(j, "clocksource", p->clocksource);
	json_str(j, "cpu_model", p->cpu_model);
	json_str(j, "arch", p->arch);
	json_double(j, "sleep_cost_ns", p->sleep_cost_ns);
	json_double(j, "fault_cost_ns", p->fault_cost_ns);
	if (p->spin_cost_ns > 0)
		json_double(j, "spin_cost_ns", p->spin_cost_ns);
	else
		json_null(j, "spin_cost_ns");
	json_int(j, "fault_around_pages", p->fault_around_pages);
	if (p->slice_ext_ns >= 0)
		json_int(j, "slice_ext_ns", p->slice_ext_ns);
	else
		json_null(j, "slice_ext_ns");
	if (p->base_slice_ns >= 0)
		json_int(j, "base_slice_ns", p->base_slice_ns);
	else
		json_null(j, "base_slice_ns");
	if (p->sched_hrtick)
		json_str(j, "sched_hrtick", p->sched_hrtick);
	json_str(j, "lab_revision", LAB_REVISION);
	json_begin_object(j, "versions");
	json_str(j, "compiler", p->compiler);
	json_str(j, "libc", p->libc);
	if (p->postgresql[0])
		json_str(j, "postgresql", p->postgresql);
	if (p->postgresql_package[0])
		json_str(j, "postgresql_package", p->postgresql_package);
	if (p->postgresql_patch[0])
		json_str(j, "postgresql_patch", p->postgresql_patch);
	json_end_object(j);
	json_str(j, "command_line", p->command_line);
	json_str(j, "timestamp", p->timestamp);
	json_str(j, "hostname", p->hostname);
	json_end_object(j);
}

const char *prov_sched_hrtick(void)
{
	char buf[2048];	/* sched/features is one line of words */
	read_line("/sys/kernel/debug/sched/features", buf, sizeof(buf));
	for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
		if (!strcmp(t, "HRTICK") || !strcmp(t, "NO_HRTICK"))
			return t[0] == 'N' ? "off" : "on";
	return "unknown";
}
