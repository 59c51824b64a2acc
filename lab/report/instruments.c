#include "instruments.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

unsigned run_instruments(const struct json_read_val *doc, const char *dir, const char *name)
{
	unsigned set = 0;
	double holds = 0;
	bool kernel = json_read_true(doc, "config.trace_kernel");
	if (kernel) {
		set |= RI_TRACE;
		if (!strncmp(json_read_str(doc, "evidence.fault_event", ""), "kprobe", 6))
			set |= RI_KPROBE;
		if (json_read_true(doc, "config.trace_channel"))
			set |= RI_CHANNEL;
	} else if (json_read_num(doc, "config.trace_holds", &holds) && holds > 0) {
		set |= RI_RECORDS;
	}
	if (json_read_true(doc, "config.hold_events"))
		set |= RI_EVENTS;
	static const char *const ext[] = { "folded", "perf.txt" };
	for (int i = 0; i < 2; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/perf/%s.%s", dir, name, ext[i]);
		if (!access(path, R_OK))
			set |= RI_PROFILE;
	}
	return set;
}

void instruments_label(unsigned set, char *buf, size_t len)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ RI_TRACE, "EVIDENCE trace" }, { RI_RECORDS, "hold records" },
		{ RI_EVENTS, "hold events (window)" }, { RI_PROFILE, "perf profile" },
	};
	size_t off = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && off < len; i++) {
		if (!(set & names[i].bit))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " + " : "", names[i].name);
		if (names[i].bit == RI_TRACE && off < len)
			off += (size_t)snprintf(buf + off, len - off, " (%s faults%s)",
						set & RI_KPROBE ? "kprobe" : "tracepoint",
						set & RI_CHANNEL ? ", channel probes" : "");
	}
	if (!off)
		snprintf(buf, len, "none");
}

void control_name(const char *name, char *buf, size_t len)
{
	static const char *const suffix[] = { "-trace", "-kprobe", "-records", "-events",
					      "-profile", "-channel" };
	size_t n = strlen(name);
	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		size_t s = strlen(suffix[i]);
		if (n > s && !strcmp(name + n - s, suffix[i])) {
			n -= s;
			break;
		}
	}
	snprintf(buf, len, "%.*s-ctl", (int)n, name);
}
