/*
 * KVM at scale: the host the guests run on (its CPU topology, from sysfs
 * or HOST_TOPOLOGY=FILE to plan another machine), which host CPU each vCPU
 * thread is pinned to (PIN_VCPUS), and whether guest memory is backed by
 * the host's huge pages (GUEST_HUGEPAGES).  The runner applies the plan;
 * nothing here needs KVM.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"
#include "variables.h"

static struct host_topology topo;

void kvm_host(struct plan *p)
{
	const char *file = var_get("HOST_TOPOLOGY");
	char err[512];
	if (file) {
		/* A FIFO or a device blocked the planner or never ended. */
		struct stat st;
		int fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (1 << 20))) {
			close(fd);
			plan_die("HOST_TOPOLOGY=%s is not a regular file of at most 1 MiB; give "
				 "`lscpu -p=CPU,SOCKET,CORE` of the host, saved to a file", file);
		}
		FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
		if (!f)
			plan_die("HOST_TOPOLOGY=%s cannot be read; give `lscpu -p=CPU,SOCKET,CORE` "
				 "of the host, saved to a file", file);
		char *text = NULL;
		size_t cap = 0;
		ssize_t n = getdelim(&text, &cap, 0, f);
		fclose(f);
		if (n < 0 || topology_parse(text, &topo, err, sizeof(err)))
			plan_die("HOST_TOPOLOGY=%s: %s", file, n < 0 ? "empty" : err);
		free(text);
		snprintf(topo.source, sizeof(topo.source), "%s", file);
		/* Planning another machine: its CPUs, not this one's. */
		p->host_cpus = topo.n;
	} else if (topology_read_sysfs(&topo, err, sizeof(err))) {
		plan_die("cannot read this machine's CPUs: %s; give HOST_TOPOLOGY=FILE "
			 "(lscpu -p=CPU,SOCKET,CORE)", err);
	} else {
		p->host_cpus = topo.n;
	}
	snprintf(p->host_topology, sizeof(p->host_topology), "%s", topo.source);
}

/* PIN_VCPUS (the variable table's row), and the pinning plan for VCPUS. */
void pin_check(struct plan *p)
{
	if (strcmp(p->pin, "auto") && strcmp(p->pin, "on") && strcmp(p->pin, "off"))
		plan_die("PIN_VCPUS=%s: use auto (pin under KVM), on (pin under any "
			 "accelerator) or off", p->pin);
	if (pin_plan(&topo, (int)p->vcpus, p->vcpu_pin))
		plan_die("VCPUS=%ld: the host has %d CPUs to pin them to", p->vcpus, topo.n);
}

void guest_hugepages_check(struct plan *p)
{
	if (strcmp(p->guest_hugepages, "off") && strcmp(p->guest_hugepages, "2m") &&
	    strcmp(p->guest_hugepages, "1g"))
		plan_die("GUEST_HUGEPAGES=%s: use off (ordinary host memory), 2m or 1g (guest "
			 "memory backed by the host's huge pages of that size)", p->guest_hugepages);
}

/* After sizing: guest RAM in whole huge pages, and how many the host gives. */
void kvm_backing(struct plan *p)
{
	long mb = !strcmp(p->guest_hugepages, "2m") ? 2 : !strcmp(p->guest_hugepages, "1g") ? 1024 : 0;
	p->guest_hp_pages = 0;
	if (!mb)
		return;
	if (p->mem_mb % mb)
		p->mem_mb += mb - p->mem_mb % mb;
	p->guest_hp_pages = p->mem_mb / mb;
}

void kvm_print(const struct plan *p)
{
	char list[8192];
	pin_format(p->vcpu_pin, (int)p->vcpus, list, sizeof(list));
	/* Pinning happens under KVM (or PIN_VCPUS=on): a plan that will run
	 * under TCG or icount says nothing of it. */
	bool kvm = !strcmp(p->accel, "kvm"), maybe_kvm = !strcmp(p->accel, "auto");
	if (!strcmp(p->pin, "on") || (!strcmp(p->pin, "auto") && (kvm || maybe_kvm)))
		printf("preemptlab: vCPU pinning (PIN_VCPUS=%s: %s), host %s with %ld CPUs: vCPU "
		       "0-%ld -> CPU %s\n", p->pin,
		       !strcmp(p->pin, "on") ? "always" : kvm ? "under KVM"
						  : "if the KVM probe boot succeeds",
		       p->host_topology, p->host_cpus, p->vcpus - 1, list);
	if (p->guest_hp_pages)
		printf("preemptlab: guest memory %ld MB backed by %ld host huge pages of %s\n", p->mem_mb,
		       p->guest_hp_pages, p->guest_hugepages);
}

void kvm_write_pins(const struct plan *p, FILE *f)
{
	fprintf(f, "# vcpu\thost_cpu\tsocket\tcore\n");
	for (long v = 0; v < p->vcpus; v++)
		for (int i = 0; i < topo.n; i++)
			if (topo.cpu[i].cpu == p->vcpu_pin[v])
				fprintf(f, "%ld\t%d\t%d\t%d\n", v, topo.cpu[i].cpu, topo.cpu[i].socket,
					topo.cpu[i].core);
}
