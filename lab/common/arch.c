/*
 * The architecture table (arch.h): one row per architecture a guest can
 * be, read by the planner (lab/plan/arch.c: ARCH as a setting), by the
 * shell through build/plan --arch-info, and by the report, which names a
 * run's architecture from its provenance (uname -m) with the same rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "arch.h"

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
		.readelf_machine = "X86-64", .elf_machine = 62, .file_machine = "x86-64",
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
		.readelf_machine = "AArch64", .elf_machine = 183, .file_machine = "aarch64",
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
