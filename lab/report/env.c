/*
 * The environment block: values that are the same in every run are
 * printed once, values that differ are listed, so a mixed directory (two
 * kernels, a guest and the host) is visible at once.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

static void add_distinct(char *buf, size_t len, const char *v)
{
	if (!*v)
		return;
	/* Look for v as a whole item of the ", "-separated list. */
	size_t vl = strlen(v);
	for (const char *s = buf; (s = strstr(s, v)); s += vl) {
		int starts = s == buf || (s >= buf + 2 && s[-2] == ',' && s[-1] == ' ');
		int ends = s[vl] == 0 || (s[vl] == ',' && s[vl + 1] == ' ');
		if (starts && ends)
			return;
	}
	size_t l = strlen(buf);
	snprintf(buf + l, len - l, "%s%s", l ? ", " : "", v);
}

static void value_text(const struct json_read_val *v, char *buf, size_t len)
{
	buf[0] = 0;
	if (!v)
		return;
	if (v->type == JR_STR)
		snprintf(buf, len, "%s", v->str);
	else if (v->type == JR_NUM)
		snprintf(buf, len, "%g", v->num);
	else if (v->type == JR_BOOL)
		snprintf(buf, len, "%s", v->b ? "true" : "false");
}

void distinct_values(const struct results *r, const char *path, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < r->nruns; i++) {
		char v[512];
		value_text(json_read_path(r->runs[i].doc, path), v, sizeof(v));
		add_distinct(buf, len, v);
	}
}

void distinct_fmt(const struct results *r, doc_fmt fn, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < r->nruns; i++) {
		char v[1024];
		fn(r->runs[i].doc, v, sizeof(v));
		add_distinct(buf, len, v);
	}
}

void fmt_kernel(const struct json_read_val *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s = %s %s", json_read_str(d, "provenance.kernel_label", "?"),
		 json_read_str(d, "provenance.kernel_release", "?"),
		 json_read_str(d, "provenance.kernel_version", ""));
}

void fmt_model(const struct json_read_val *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s (from %s)", json_read_str(d, "provenance.kernel_label", "?"),
		 json_read_str(d, "provenance.preempt_model", "unknown"),
		 json_read_str(d, "provenance.preempt_model_source", "an unrecorded source"));
}

/*
 * The kernel's tick: lazy acts on a resched request at the next tick, so
 * the tick belongs beside the model.  Documents from before the field
 * say so rather than guess.
 */
void fmt_tick(const struct json_read_val *d, char *buf, size_t len)
{
	const char *label = json_read_str(d, "provenance.kernel_label", "?");
	const char *src = json_read_str(d, "provenance.kernel_tick_source", NULL);
	const char *nohz = json_read_str(d, "provenance.kernel_nohz", "unknown");
	double hz;
	if (!src) {
		snprintf(buf, len, "%s: HZ not recorded", label);
		return;
	}
	if (!json_read_num(d, "provenance.kernel_hz", &hz)) {
		snprintf(buf, len, "%s: HZ %s", label, src);
		return;
	}
	/* A config is named as the file read; a measurement says itself. */
	snprintf(buf, len, "%s: HZ %.0f, %s (%s%s)", label, hz,
		 !strcmp(nohz, "full") ? "NO_HZ_FULL" : !strcmp(nohz, "idle") ? "NO_HZ_IDLE" :
		 !strcmp(nohz, "periodic") ? "HZ_PERIODIC" : "tick mode unknown",
		 strncmp(src, "measured", 8) ? "from " : "", src);
}

void fmt_hz(const struct json_read_val *d, char *buf, size_t len)
{
	double hz;
	if (!json_read_str(d, "provenance.kernel_tick_source", NULL))
		snprintf(buf, len, "HZ not recorded");
	else if (json_read_num(d, "provenance.kernel_hz", &hz))
		snprintf(buf, len, "HZ %.0f", hz);
	else
		snprintf(buf, len, "HZ unknown");
}

int docs_vary(const struct results *r, doc_fmt fn)
{
	char first[1024], v[1024];
	for (size_t i = 0; i < r->nruns; i++) {
		fn(r->runs[i].doc, i ? v : first, sizeof(v));
		if (i && strcmp(v, first))
			return 1;
	}
	return 0;
}

void fmt_pages(const struct json_read_val *d, char *buf, size_t len)
{
	double kb = 0;
	char pg[32];
	json_read_num(d, "provenance.page_size_kb", &kb);
	snprintf(buf, len, "%s -> %s (%s)", json_read_str(d, "provenance.page_policy", "?"),
		 page_name((long)kb, pg, sizeof(pg)), json_read_str(d, "provenance.page_size_source", "?"));
}

void fmt_lock(const struct json_read_val *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s/%s", json_read_str(d, "tool", "?"), json_read_str(d, "provenance.lock", "?"),
		 json_read_str(d, "provenance.strategy", "?"));
}

void fmt_cpus(const struct json_read_val *d, char *buf, size_t len)
{
	double n = 0;
	json_read_num(d, "provenance.cpus", &n);
	/* arch is absent from results older than the arm64 lab: leave it out there. */
	const char *arch = json_read_str(d, "provenance.arch", NULL);
	snprintf(buf, len, "%.0f x %s%s%s%s", n, json_read_str(d, "provenance.cpu_model", "?"),
		 arch ? " (" : "", arch ? arch : "", arch ? ")" : "");
}

void fmt_virt(const struct json_read_val *d, char *buf, size_t len)
{
	const char *v = json_read_str(d, "provenance.virtualization", "?");
	const struct json_read_val *e = json_read_path(d, "provenance.emulated");
	int em = doc_emulated(d);
	double shift;
	if (!strcmp(v, "tcg-icount") && json_read_num(d, "provenance.icount_shift", &shift))
		/* Virtual time: say what a second is, so nobody compares it with hardware. */
		snprintf(buf, len, "%s, shift %.0f: virtual time, one guest instruction = %.0f ns, "
			 "vCPUs taking turns on one host thread; rates are per virtual second: "
			 "compare cells with each other, never with real hardware", v, shift,
			 pow(2, shift));
	else
		snprintf(buf, len, "%s, %s", v,
			 em ? "emulated (TCG): an emulator's times" :
			 e && e->type == JR_BOOL ? "not emulated" : "emulation not recorded");
}

const struct env_row env_rows[] = {
	{ "Kernel: ", "kernel", fmt_kernel, NULL, ENV_TXT_LINE, 1 },
	{ "Model: ", "preemption model (source)", fmt_model, NULL, ENV_TXT_LINE, 1 },
	{ "Tick: ", "tick (CONFIG_HZ, NO_HZ; source)", fmt_tick, NULL, ENV_TXT_LINE, 1 },
	{ "Pages: ", "pages asked -> obtained (how verified)", fmt_pages, NULL, ENV_TXT_LINE, 1 },
	{ "Lock/strategy: ", "lock/strategy", fmt_lock, NULL, ENV_TXT_LINE, 1 },
	{ "CPUs: ", "CPUs", fmt_cpus, NULL, ENV_TXT_LINE, 1 },
	{ "Virtualization: ", "virtualization", fmt_virt, NULL, ENV_TXT_LINE, 1 },
	{ "Clocksource: ", "clocksource", NULL, "provenance.clocksource", ENV_TXT_COST, 1 },
	{ "Sleep(1us) costs ns: ", "sleep_cost_ns", NULL, "provenance.sleep_cost_ns", ENV_TXT_COST, 0 },
	{ "Minor fault costs ns: ", "fault_cost_ns", NULL, "provenance.fault_cost_ns", ENV_TXT_COST, 0 },
	{ "Pages mapped per shared read fault (fault-around): ", "fault_around_pages", NULL,
	  "provenance.fault_around_pages", ENV_TXT_COST, 0 },
	{ "EEVDF base slice ns (sched/base_slice_ns): ", "base_slice_ns", NULL,
	  "provenance.base_slice_ns", ENV_TXT_COST, 0 },
	/* Recorded since the remote wake work: older runs print nothing here. */
	{ "Scheduler's high-resolution tick (sched/features HRTICK): ", "sched_hrtick", NULL,
	  "provenance.sched_hrtick", ENV_TXT_IF_SET, 0 },
	{ "compiler", "versions.compiler", NULL, "provenance.versions.compiler", ENV_TXT_VERSION, 1 },
	{ "libc", "versions.libc", NULL, "provenance.versions.libc", ENV_TXT_VERSION, 1 },
	{ "PostgreSQL", "versions.postgresql", NULL, "provenance.versions.postgresql",
	  ENV_TXT_VERSION, 1 },
	{ "Lab revision: ", "lab_revision", NULL, "provenance.lab_revision", ENV_TXT_LINE, 1 },
	{ "Host: ", "hostname", NULL, "provenance.hostname", ENV_TXT_IF_SET, 1 },
};
const size_t env_nrows = sizeof(env_rows) / sizeof(env_rows[0]);

void env_value(const struct results *r, const struct env_row *e, char *buf, size_t len)
{
	if (e->fn)
		distinct_fmt(r, e->fn, buf, len);
	else
		distinct_values(r, e->path, buf, len);
}
