/* The many-process fault sweep for predict (see faultbench.h). */
#include "faultbench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_read.h"

bool faultbench_read(const char *path, struct faultbench_sweep *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	struct json_read_val *d = json_read_parse_file(path, err, errlen);
	if (!d)
		return false;
	const struct json_read_val *a = json_read_get(d, "procs");
	bool ok = strcmp(json_read_str(d, "tool", ""), "costbench") == 0 && a && a->type == JR_ARR && a->n > 0;
	if (!ok)
		snprintf(err, errlen, "%s: not a costbench --procs document (no \"procs\" array)", path);
	for (size_t i = 0; ok && i < a->n && s->n < FB_MAX; i++) {
		double p, c, w;
		if (!json_read_num(a->items[i], "procs", &p) || !json_read_num(a->items[i], "cpu_ns.p50", &c) ||
		    !json_read_num(a->items[i], "wall_ns.p99", &w) || p < 1 || c <= 0 ||
		    (s->n && p <= s->procs[s->n - 1]) || !json_read_true(a->items[i], "each_faulted")) {
			snprintf(err, errlen, "%s: procs[%zu] lacks procs, cpu_ns.p50 or wall_ns.p99, is out "
				 "of order, or did not take one fault per touch", path, i);
			ok = false;
			break;
		}
		s->procs[s->n] = p;
		s->cpu_p50_ns[s->n] = c;
		s->wall_p99_ns[s->n] = w;
		s->n++;
	}
	if (ok)
		snprintf(s->source, sizeof(s->source), "%s (%s, %d process counts)", path,
			 json_read_str(d, "provenance.kernel_release", "?"), s->n);
	json_read_free(d);
	return ok;
}

double faultbench_cpu_at(const struct faultbench_sweep *s, double n, bool *clamped)
{
	if (n <= s->procs[0] || s->n == 1) {
		*clamped |= n < s->procs[0] || (s->n == 1 && n != s->procs[0]);
		return s->cpu_p50_ns[0];
	}
	for (int i = 1; i < s->n; i++)
		if (n <= s->procs[i]) {
			double f = log(n / s->procs[i - 1]) / log(s->procs[i] / s->procs[i - 1]);
			return s->cpu_p50_ns[i - 1] + f * (s->cpu_p50_ns[i] - s->cpu_p50_ns[i - 1]);
		}
	*clamped = true;
	return s->cpu_p50_ns[s->n - 1];
}

double faultbench_growth(const struct faultbench_sweep *s, double from, double to, bool *clamped)
{
	*clamped = false;
	return faultbench_cpu_at(s, to, clamped) / faultbench_cpu_at(s, from, clamped);
}
