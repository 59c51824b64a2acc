/*
 * ARCH: the guest's architecture.  amd64 is what the lab always booted;
 * arm64 boots Debian's arm64 kernels (package_arm64: in kernels/<series>),
 * or a built series' arm64 recipe (base_arm64:, target_arm64:, cross-built
 * by scripts/kernel-build.sh), under qemu-system-aarch64: from an x86 host
 * under TCG, from an arm64 host under KVM where it works.  The default is
 * the host's own architecture; an amd64 guest from an arm64 host is refused.
 * The rows themselves are lab/common/arch.c.
 */
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "plan.h"

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
