/*
 * The KVM pinning plan (lab/plan/pinning.c), checked without KVM: host
 * descriptions of a 96-CPU Graviton (one socket, no SMT), a 96-thread x86
 * (2 sockets x 24 cores x 2 threads) and SMT siblings numbered next to each
 * other; the description reader's refusals; this machine's sysfs.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "plan/pinning.h"

static struct host_topology t;
static int pin[PIN_MAX_CPUS];

/* sockets x cores x threads; sibling_far: CPU numbers of a core's threads
 * are cores*sockets apart (Intel/AMD enumeration), else adjacent. */
static void describe(int sockets, int cores, int threads, bool sibling_far)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	fprintf(m, "# CPU,Socket,Core\n");
	for (int s = 0; s < sockets; s++)
		for (int c = 0; c < cores; c++)
			for (int th = 0; th < threads; th++) {
				int core = s * cores + c;
				int cpu = sibling_far ? th * sockets * cores + core : core * threads + th;
				fprintf(m, "%d,%d,%d\n", cpu, s, core);
			}
	fclose(m);
	char err[256];
	if (topology_parse(text, &t, err, sizeof(err)))
		printf("FAIL: describe: %s\n", err);
	free(text);
}

static int core_of(int cpu)
{
	for (int i = 0; i < t.n; i++)
		if (t.cpu[i].cpu == cpu)
			return t.cpu[i].socket * 100000 + t.cpu[i].core;
	return -1;
}

/* No two of pin[0..n) share a physical core; every pin is a distinct CPU. */
static bool distinct_cores(int n)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (core_of(pin[i]) == core_of(pin[j]))
				return false;
	return true;
}

static bool permutation(int n)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (pin[i] == pin[j])
				return false;
	return true;
}

int main(void)
{
	char buf[1024], err[256];

	describe(1, 96, 1, true);
	CHECK(t.n == 96, "Graviton-like: 96 CPUs described (%d)", t.n);
	CHECK(pin_plan(&t, 96, pin) == 0, "96 vCPUs on 96 CPUs");
	pin_format(pin, 96, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0-95"), "one core each, vCPU i -> CPU i (%s)", buf);

	describe(2, 24, 2, true);
	CHECK(t.n == 96, "x86 2x24x2: 96 CPUs described (%d)", t.n);
	CHECK(pin_plan(&t, 96, pin) == 0 && permutation(96), "96 vCPUs: every CPU once");
	pin_format(pin, 96, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0-95"), "96 vCPUs: cores first, then their siblings (%s)", buf);
	CHECK(distinct_cores(48), "the first 48 vCPUs have a physical core each");
	CHECK(core_of(pin[48]) == core_of(pin[0]), "vCPU 48 is vCPU 0's sibling (CPU %d and %d)",
	      pin[48], pin[0]);
	CHECK(pin_plan(&t, 24, pin) == 0, "24 vCPUs");
	pin_format(pin, 24, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0-23") && distinct_cores(24),
	      "24 vCPUs: one socket, a core each (%s)", buf);
	CHECK(pin_plan(&t, 97, pin) == -1, "97 vCPUs on 96 CPUs are refused");
	CHECK(pin_plan(&t, 0, pin) == -1, "0 vCPUs are refused");

	describe(1, 4, 2, false);
	CHECK(pin_plan(&t, 4, pin) == 0, "siblings numbered side by side: 4 vCPUs on 4x2");
	pin_format(pin, 4, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0,2,4,6") && distinct_cores(4), "a core each, skipping siblings (%s)", buf);
	CHECK(pin_plan(&t, 8, pin) == 0, "8 vCPUs on 4x2");
	pin_format(pin, 8, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0,2,4,6,1,3,5,7"), "then the siblings (%s)", buf);

	CHECK(topology_parse("0,0\n", &t, err, sizeof(err)) == -1 && strstr(err, "CPU,SOCKET,CORE"),
	      "a line without its core is refused (%s)", err);
	CHECK(topology_parse("0,0,0\n0,0,1\n", &t, err, sizeof(err)) == -1 && strstr(err, "twice"),
	      "a CPU listed twice is refused (%s)", err);
	CHECK(topology_parse("# nothing\n", &t, err, sizeof(err)) == -1, "an empty description is refused");

	CHECK(topology_read_sysfs(&t, err, sizeof(err)) == 0, "this machine's sysfs reads");
	CHECK(t.n == sysconf(_SC_NPROCESSORS_ONLN), "with every online CPU (%d)", t.n);
	CHECK(pin_plan(&t, t.n, pin) == 0 && permutation(t.n), "and a plan over all of them");
	return check_failures != 0;
}
