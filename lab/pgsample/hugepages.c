/*
 * PostgreSQL's huge page reservation policy (pgsample_hugepages.h).
 *
 * The order matters: pages already free need nothing; a reservation that
 * would take more than 90% of the available memory is refused before
 * anything is asked of the kernel (the kernel would grant what it could
 * and leave the machine short, or the server would start and the OOM
 * killer would pick a backend); only root can reserve; the rest is
 * reserved by difference, so what was there before stays.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgsample_hugepages.h"

const char *hp_action_name(enum hp_action a)
{
	switch (a) {
	case HP_HAVE:
		return "have";
	case HP_RESERVE:
		return "reserve";
	case HP_REFUSE:
		break;
	}
	return "refuse";
}

void hp_decide(const struct hp_state *s, long need, long sb_kb, struct hp_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->action = HP_REFUSE;
	if (s->hpkb <= 0 || need <= 0) {
		snprintf(v->text, sizeof(v->text),
			 "this kernel offers no huge pages (no Hugepagesize in /proc/meminfo)");
		snprintf(v->fix, sizeof(v->fix), "use a kernel with CONFIG_HUGETLBFS, or HUGEPAGES=off");
		return;
	}
	v->want = s->nr + need - s->free;
	if (s->free >= need) {
		v->action = HP_HAVE;
		snprintf(v->text, sizeof(v->text), "%ld huge pages of %ld kB already free, %ld needed",
			 s->free, s->hpkb, need);
		return;
	}
	if ((need - s->free) * s->hpkb > s->avail_kb * 9 / 10) {
		snprintf(v->text, sizeof(v->text),
			 "shared_buffers=%ldkB needs %ld huge pages of %ld kB (%ld MB) but only %ld MB "
			 "of memory is available", sb_kb, need, s->hpkb, need * s->hpkb / 1024,
			 s->avail_kb / 1024);
		snprintf(v->fix, sizeof(v->fix),
			 "lower shared_buffers (POOL) or free memory, then as root: sysctl -w "
			 "vm.nr_hugepages=%ld; or HUGEPAGES=off|try", v->want);
		return;
	}
	if (!s->root) {
		snprintf(v->text, sizeof(v->text),
			 "%ld huge pages of %ld kB are needed, %ld are free, and only root can reserve more",
			 need, s->hpkb, s->free);
		snprintf(v->fix, sizeof(v->fix),
			 "as root: sysctl -w vm.nr_hugepages=%ld (then retry), or lower shared_buffers "
			 "(POOL), or HUGEPAGES=off|try", v->want);
		return;
	}
	v->action = HP_RESERVE;
	snprintf(v->text, sizeof(v->text), "reserved %ld huge pages of %ld kB", need, s->hpkb);
}

void hp_reserve_failed(const struct hp_state *s, long need, long want, struct hp_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->action = HP_REFUSE;
	v->want = want;
	snprintf(v->text, sizeof(v->text),
		 "could not reserve %ld huge pages of %ld kB (only %ld free after asking for %ld; "
		 "memory too fragmented?)", need, s->hpkb, s->free, want);
	snprintf(v->fix, sizeof(v->fix),
		 "as root: echo 1 > /proc/sys/vm/compact_memory; sysctl -w vm.nr_hugepages=%ld, or "
		 "reserve at boot (hugepages=%ld), or HUGEPAGES=off|try", want, want);
}

/* A number from a one-line sysfs file; 0 when there is none. */
static long read_count(const char *dir, const char *name)
{
	char path[256];
	long n = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%ld", &n) != 1)
		n = 0;
	fclose(f);
	return n;
}

int hp_state_read(struct hp_state *s)
{
	char line[256], dir[128];
	long v;
	FILE *f = fopen("/proc/meminfo", "r");
	memset(s, 0, sizeof(*s));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Hugepagesize: %ld", &v) == 1)
			s->hpkb = v;
		else if (sscanf(line, "MemAvailable: %ld", &v) == 1)
			s->avail_kb = v;
	}
	fclose(f);
	s->root = geteuid() == 0;
	if (s->hpkb > 0) {
		snprintf(dir, sizeof(dir), "/sys/kernel/mm/hugepages/hugepages-%ldkB", s->hpkb);
		s->free = read_count(dir, "free_hugepages");
		s->nr = read_count(dir, "nr_hugepages");
	}
	return 0;
}

static int whole(const char *s, long *out)
{
	char *end;
	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

/*
 * One line, ACTION TAB HPKB TAB WANT TAB TEXT TAB FIX, with "-" for an
 * empty field: a shell's read would merge two TABs into one.
 */
int hugepages_main(int argc, char **argv)
{
	struct hp_state s;
	struct hp_verdict v;
	long a, b;

	if (argc != 5 || whole(argv[3], &a) != 0 || whole(argv[4], &b) != 0 ||
	    (strcmp(argv[2], "check") != 0 && strcmp(argv[2], "failed") != 0)) {
		fprintf(stderr, "usage: pgsample huge-pages check NEED SHARED_BUFFERS_KB | "
			"failed NEED WANT\n");
		return 2;
	}
	if (hp_state_read(&s) != 0) {
		fprintf(stderr, "pgsample: /proc/meminfo: %s\n", strerror(errno));
		return 1;
	}
	if (strcmp(argv[2], "check") == 0)
		hp_decide(&s, a, b, &v);
	else
		hp_reserve_failed(&s, a, b, &v);
	printf("%s\t%ld\t%ld\t%s\t%s\n", hp_action_name(v.action), s.hpkb, v.want, v.text,
	       v.fix[0] ? v.fix : "-");
	return 0;
}
