#include "hold_events.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_counter(uint64_t config, int group)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.read_format = PERF_FORMAT_GROUP;
	a.disabled = group < 0;
	/* Kernel-side events are the point: the fault is handled in the kernel. */
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}

const char *hold_events_mode_name(enum hold_events_mode m)
{
	return m == HOLD_EVENTS_WINDOW ? "window" : m == HOLD_EVENTS_IN_HOLD ? "in-hold" : "off";
}

int hold_events_mode_parse(const char *s, enum hold_events_mode *out)
{
	static const enum hold_events_mode all[] = { HOLD_EVENTS_OFF, HOLD_EVENTS_WINDOW,
						     HOLD_EVENTS_IN_HOLD };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(s, hold_events_mode_name(all[i]))) {
			*out = all[i];
			return 0;
		}
	return -1;
}

int hold_events_open(struct hold_events *h, enum hold_events_mode mode, char *err,
		     size_t errlen)
{
	memset(h, 0, sizeof(*h));
	h->in_hold = mode == HOLD_EVENTS_IN_HOLD;
	h->group_fd = open_counter(PERF_COUNT_SW_PAGE_FAULTS_MIN, -1);
	if (h->group_fd < 0) {
		if (errno == ENOSYS)
			snprintf(err, errlen,
				 "perf_event_open(minor faults) failed: %s: no perf events here "
				 "(qemu-user has none; run natively or in a guest), so holds cannot "
				 "be counted: drop --hold-events", strerror(errno));
		else
			snprintf(err, errlen,
				 "perf_event_open(minor faults) failed: %s (kernel.perf_event_paranoid=%s?)",
				 strerror(errno), errno == EACCES ? "too high" : "ok");
		return -1;
	}
	if (open_counter(PERF_COUNT_SW_CONTEXT_SWITCHES, h->group_fd) < 0) {
		snprintf(err, errlen, "perf_event_open(context switches) failed: %s",
			 strerror(errno));
		close(h->group_fd);
		h->group_fd = -1;
		return -1;
	}
	ioctl(h->group_fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	return 0;
}

void hold_events_close(struct hold_events *h)
{
	if (h->group_fd >= 0)
		close(h->group_fd);
	h->group_fd = -1;
}

static void read_group(struct hold_events *h, uint64_t *faults, uint64_t *switches)
{
	uint64_t v[3] = { 0, 0, 0 };	/* nr, then one value per counter */
	if (read(h->group_fd, v, sizeof(v)) != (ssize_t)sizeof(v))
		v[1] = v[2] = 0;
	*faults = v[1];
	*switches = v[2];
}

void hold_events_mark(struct hold_events *h)
{
	read_group(h, &h->faults_at_mark, &h->switches_at_mark);
}

void hold_events_since(struct hold_events *h, uint64_t *faults, uint64_t *switches)
{
	uint64_t f, s;
	read_group(h, &f, &s);
	*faults = f - h->faults_at_mark;
	*switches = s - h->switches_at_mark;
}
