/*
 * ARCH: the guest's architecture.  amd64 is what the lab always booted;
 * arm64 boots Debian's arm64 kernels (package_arm64: in kernels/<series>),
 * or a built series' arm64 recipe (base_arm64:, target_arm64:, cross-built
 * by scripts/kernel-build.sh), under qemu-system-aarch64: from an x86 host
 * under TCG, from an arm64 host under KVM where it works.  The default is
 * the host's own architecture; an amd64 guest from an arm64 host is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "arch.h"
#include "plan.h"

/*
 * amd64 is what the lab always booted.  arm64's virt machine has one
 * PL011 (ttyAMA0), the console; the result channel is a 16550 on PCI
 * (QEMU's pci-serial; Debian's arm64 kernels build in SERIAL_8250_PCI),
 * found as ttyS0 because virt has no legacy ports.  Not a virtio console:
 * its port-open events reach the guest from QEMU's main loop, at a
 * host-timed instruction, so icount boots with one stopped being
 * repeatable.  Under icount x86's RDRAND/RDSEED would bring the host's
 * entropy in; arm64's max CPU keeps FEAT_RNG (QEMU 7.2 has no switch for
 * it), and virt puts random rng-seed and kaslr-seed nodes in the device
 * tree: -seed draws both from a fixed seed instead.
 */
static const struct arch arch_table[] = {
	{
		.name = "amd64", .uname = "x86_64", .qemu = "qemu-system-x86_64",
		.qemu_var = "QEMU", .qemu_package = "qemu-system-x86",
		.machine = "pc", .machine_kvm = "pc", .console = "ttyS0",
		.channel = { "-serial", "file:{channel}" }, .chan_param = "",
		.cpu_icount = { "-cpu", "max,-rdrand,-rdseed" },
		.catalog_base = true, .host_userland = true, .debian_none = true,
		.kernel_arch = "x86", .kernel_image = "bzImage", .triplet = "x86_64-linux-gnu",
		.readelf_machine = "X86-64", .file_machine = "x86-64",
		.qemu_user = "qemu-x86_64-static",
	},
	{
		.name = "arm64", .uname = "aarch64", .qemu = "qemu-system-aarch64",
		.qemu_var = "QEMU_AARCH64", .qemu_package = "qemu-system-arm",
		.machine = "virt", .machine_kvm = "virt,gic-version=host", .console = "ttyAMA0",
		.channel = { "-chardev", "file,id=chan,path={channel}", "-device",
			     "pci-serial,chardev=chan" },
		.chan_param = "preemptlab.chan=ttyS0",
		.cpu_icount = { "-cpu", "max", "-seed", "1" },
		.cross_prefix = "aarch64-linux-gnu-",
		/* RSEQ_SLICE_EXTENSION depends on GENERIC_ENTRY, which arm64
		 * does not select in 7.2 (the arm64 7.2-lab is built without
		 * it, kernels/fragments/arm64-lab.config). */
		.no_rseq_slice = "in 7.2 it needs GENERIC_ENTRY, which arm64 does not select",
		.kernel_arch = "arm64", .kernel_image = "Image", .triplet = "aarch64-linux-gnu",
		.readelf_machine = "AArch64", .file_machine = "aarch64",
		.qemu_user = "qemu-aarch64-static", .cross_package = "gcc-aarch64-linux-gnu",
	},
};

const struct arch *arch_find(const char *name)
{
	for (size_t i = 0; i < sizeof(arch_table) / sizeof(arch_table[0]); i++)
		if (!strcmp(name, arch_table[i].name) || !strcmp(name, arch_table[i].uname))
			return &arch_table[i];
	return NULL;
}

const struct arch *arch_at(size_t i)
{
	return i < sizeof(arch_table) / sizeof(arch_table[0]) ? &arch_table[i] : NULL;
}

const char *arch_names(void)
{
	static char buf[256];
	size_t n = sizeof(arch_table) / sizeof(arch_table[0]), off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && off < sizeof(buf); i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s",
					i == 0 ? "" : i + 1 == n ? " or " : ", ", arch_table[i].name);
	return buf;
}

/* Debian's name for the host's architecture (uname -m otherwise).
 * PREEMPTLAB_HOST_ARCH=amd64|arm64 plans as that host would (as
 * HOST_TOPOLOGY plans for another host's CPUs): tests/e2e/plan.sh checks
 * the x86 catalog's plans on an arm64 machine too. */
const char *arch_host(void)
{
	static struct utsname u;
	const char *env = getenv("PREEMPTLAB_HOST_ARCH");
	if (env && arch_find(env))
		return arch_find(env)->name;
	if (uname(&u) != 0)
		return arch_table[0].name;
	return arch_find(u.machine) ? arch_find(u.machine)->name : u.machine;
}

static void arch_kernel(const struct plan *p, const char *top, const struct kernel_ref *k,
			const char *var)
{
	char key[32], val[256], known[512];
	if (p->garch->catalog_base)
		return;
	snprintf(key, sizeof(key), "package_%s", p->arch);
	if (strcmp(k->source, "apt") == 0 && catalog_value(top, k->label, key, val, sizeof(val)))
		return;
	/* A built series cross-builds when its recipe has this architecture's
	 * base and target (base_arm64:, target_arm64: in kernels/7.2-lab). */
	if (strcmp(k->source, "build") == 0) {
		char bkey[32], tkey[32], built[512];
		snprintf(bkey, sizeof(bkey), "base_%s", p->arch);
		snprintf(tkey, sizeof(tkey), "target_%s", p->arch);
		if (catalog_value(top, k->label, bkey, val, sizeof(val)) &&
		    catalog_value(top, k->label, tkey, val, sizeof(val)))
			return;
		catalog_with_key(top, key, known, sizeof(known));
		catalog_with_key(top, bkey, built, sizeof(built));
		plan_die("%s=%s: kernels/%s is built from source and has no %s recipe (%s:, %s:); "
			 "ARCH=%s takes Debian's %s packages (%s) or a built series with one (%s)",
			 var, k->asked, k->label, p->arch, bkey, tkey, p->arch, p->arch, known,
			 built[0] ? built : "none");
	}
	catalog_with_key(top, key, known, sizeof(known));
	plan_die("%s=%s: no %s kernel in kernels/%s (ARCH=%s boots Debian's %s packages: %s)", var,
		 k->asked, p->arch, k->label, p->arch, p->arch, known);
}

/* Before the catalog is read: the models a series offers depend on it. */
void arch_pick(struct plan *p)
{
	const char *a = var_get("ARCH");
	const char *host = arch_host();
	if (!a || !*a)
		a = host;
	p->garch = arch_find(a);
	if (!p->garch)
		plan_die("ARCH=%s: unknown architecture; use %s (default: the host's, %s)", a,
			 arch_names(), host);
	snprintf(p->arch, sizeof(p->arch), "%.7s", p->garch->name);
	p->cross = strcmp(p->arch, host) != 0;
	catalog_set_arch(p->arch);
}

void arch_settings(struct plan *p, const char *top)
{
	const char *host = arch_host();
	bool guest = strcmp(p->kernel.source, "host") != 0;
	/* An arm64 guest needs an arm64 kernel (a package or an arm64 recipe),
	 * whether this host is x86 or arm64 itself. */
	if (guest && !p->garch->catalog_base) {
		arch_kernel(p, top, &p->kernel, "KERNEL");
		if (p->has_baseline)
			arch_kernel(p, top, &p->baseline, "BASELINE");
	}
	if (!p->cross)
		return;
	if (!guest)
		plan_die("ARCH=%s: KERNEL=host runs on this %s machine; an %s guest needs a "
			 "catalog kernel, e.g. KERNEL=7.0", p->arch, host, p->arch);
	/* The other way round, an x86 guest needs bufbench built for x86,
	 * which only an x86 host does. */
	if (!p->garch->cross_prefix)
		plan_die("ARCH=%s: this %s host builds no %s bufbench for an %s guest; "
			 "run %s guests from an %s machine, or ARCH=%s (this host's)", p->arch, host,
			 p->arch, p->arch, p->arch, p->arch, host);
	/* Another architecture's guest runs under TCG: no KVM can run it. */
	if (strcmp(p->accel, "kvm") == 0)
		plan_die("ACCEL=kvm: an %s guest cannot run under KVM on this %s host; ACCEL=icount "
			 "or tcg", p->arch, host);
	if (strcmp(p->accel, "auto") == 0)
		snprintf(p->accel, sizeof(p->accel), "icount");
}
