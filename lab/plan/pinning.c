/*
 * The vCPU pinning plan (pinning.h).  The order puts each vCPU on its own
 * physical core while there are cores left: two vCPUs on SMT siblings
 * share a core's execution units, which is noise the lab does not want in
 * a lock holder's critical section.
 */
#include "pinning.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int topology_parse(const char *text, struct host_topology *t, char *err, size_t errlen)
{
	t->n = 0;
	const char *line = text;
	int lineno = 0;
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[256];
		snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) ? len : sizeof(buf) - 1), line);
		lineno++;
		line = end ? end + 1 : NULL;
		if (!buf[strspn(buf, " \t\r")] || buf[0] == '#')
			continue;
		struct host_cpu c;
		char extra;
		if (sscanf(buf, "%d,%d,%d%c", &c.cpu, &c.socket, &c.core, &extra) != 3 || c.cpu < 0 ||
		    c.socket < 0 || c.core < 0) {
			snprintf(err, errlen, "line %d: '%s' is not CPU,SOCKET,CORE (lscpu -p=CPU,SOCKET,CORE)",
				 lineno, buf);
			return -1;
		}
		for (int i = 0; i < t->n; i++)
			if (t->cpu[i].cpu == c.cpu) {
				snprintf(err, errlen, "line %d: CPU %d listed twice", lineno, c.cpu);
				return -1;
			}
		if (t->n == PIN_MAX_CPUS) {
			snprintf(err, errlen, "more than %d CPUs", PIN_MAX_CPUS);
			return -1;
		}
		t->cpu[t->n++] = c;
	}
	if (!t->n) {
		snprintf(err, errlen, "no CPUs described");
		return -1;
	}
	return 0;
}

static int read_int(const char *path, int *v)
{
	FILE *f = fopen(path, "r");
	int ok = f && fscanf(f, "%d", v) == 1;
	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

int topology_read_sysfs(struct host_topology *t, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	DIR *d = opendir("/sys/devices/system/cpu");
	struct dirent *de;
	int n = 0;
	while (m && d && (de = readdir(d))) {
		int cpu, online = 1, socket = 0, core = 0;
		char extra, path[512];
		if (sscanf(de->d_name, "cpu%d%c", &cpu, &extra) != 1)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s/online", de->d_name);
		read_int(path, &online);	/* cpu0 often has no such file: online */
		if (!online)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s/topology/physical_package_id", de->d_name);
		read_int(path, &socket);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s/topology/core_id", de->d_name);
		if (read_int(path, &core))
			core = cpu;	/* no topology: each CPU its own core */
		fprintf(m, "%d,%d,%d\n", cpu, socket < 0 ? 0 : socket, core < 0 ? cpu : core);
		n++;
	}
	if (d)
		closedir(d);
	if (m)
		fclose(m);
	int rc = n ? topology_parse(text, t, err, errlen) : -1;
	if (!n)
		snprintf(err, errlen, "no online CPU in /sys/devices/system/cpu");
	free(text);
	snprintf(t->source, sizeof(t->source), "sysfs");
	return rc;
}

/* Threads of one core: their rank among the core's CPUs (0 = the first). */
static int thread_rank(const struct host_topology *t, int i)
{
	int r = 0;
	for (int j = 0; j < t->n; j++)
		if (t->cpu[j].socket == t->cpu[i].socket && t->cpu[j].core == t->cpu[i].core &&
		    t->cpu[j].cpu < t->cpu[i].cpu)
			r++;
	return r;
}

static const struct host_topology *sort_topo;
static int *sort_rank;

static int order_cmp(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;
	const struct host_cpu *x = &sort_topo->cpu[a], *y = &sort_topo->cpu[b];
	if (sort_rank[a] != sort_rank[b])
		return sort_rank[a] - sort_rank[b];
	if (x->socket != y->socket)
		return x->socket - y->socket;
	if (x->core != y->core)
		return x->core - y->core;
	return x->cpu - y->cpu;
}

int pin_plan(const struct host_topology *t, int vcpus, int *pin)
{
	if (vcpus < 1 || vcpus > t->n)
		return -1;
	int *idx = malloc((size_t)t->n * sizeof(*idx)), *rank = malloc((size_t)t->n * sizeof(*rank));
	if (!idx || !rank)
		exit(1);
	for (int i = 0; i < t->n; i++) {
		idx[i] = i;
		rank[i] = thread_rank(t, i);
	}
	sort_topo = t;
	sort_rank = rank;
	qsort(idx, (size_t)t->n, sizeof(*idx), order_cmp);
	for (int v = 0; v < vcpus; v++)
		pin[v] = t->cpu[idx[v]].cpu;
	free(idx);
	free(rank);
	return 0;
}

void pin_format(const int *pin, int n, char *buf, size_t len)
{
	size_t l = 0;
	buf[0] = 0;
	for (int i = 0; i < n && l < len; ) {
		int j = i;
		while (j + 1 < n && pin[j + 1] == pin[j] + 1)
			j++;
		if (j > i)
			l += (size_t)snprintf(buf + l, len - l, "%s%d-%d", l ? "," : "", pin[i], pin[j]);
		else
			l += (size_t)snprintf(buf + l, len - l, "%s%d", l ? "," : "", pin[i]);
		i = j + 1;
	}
}
