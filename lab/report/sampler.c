/*
 * Older documents lack active_backend_samples; samples x
 * active_backends_mean is the same count, so those still get shares.
 */
#include "sampler.h"

#include <stdio.h>
#include <string.h>

#define MAXEV 64

bool sampler_of(const struct cell *c, struct sampler_sum *s)
{
	struct wait_count all[MAXEV];
	size_t nall = 0;
	int have_cpu = 1;
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < c->nruns; i++) {
		const struct json_read_val *d = c->runs[i]->doc;
		const struct json_read_val *sm = json_read_get(d, "sampler");
		if (!sm || sm->type != JR_OBJ)
			continue;
		s->runs++;
		double v, mean;
		if (json_read_num(sm, "spindelay_samples", &v))
			s->spindelay += v;
		if (json_read_num(sm, "active_backend_samples", &v))
			s->active += v;
		else if (json_read_num(sm, "samples", &v) && json_read_num(sm, "active_backends_mean", &mean))
			s->active += v * mean;
		if (json_read_num(sm, "on_cpu_samples", &v))
			s->on_cpu += v;
		else
			have_cpu = 0;
		const struct json_read_val *we = json_read_get(sm, "wait_events");
		for (size_t k = 0; we && we->type == JR_OBJ && k < we->n; k++) {
			if (we->items[k]->type != JR_NUM || !strcmp(we->keys[k], "Timeout:SpinDelay"))
				continue;
			size_t j;
			for (j = 0; j < nall && strcmp(all[j].name, we->keys[k]); j++)
				;
			if (j == nall) {
				if (nall == MAXEV)
					continue;
				snprintf(all[nall].name, sizeof(all[nall].name), "%s", we->keys[k]);
				all[nall++].n = 0;
			}
			all[j].n += we->items[k]->num;
		}
	}
	if (!have_cpu || !s->runs)
		s->on_cpu = -1;
	/* Selection of the largest few; ties keep the documents' order. */
	while (s->ntop < sizeof(s->top) / sizeof(s->top[0])) {
		size_t best = nall;
		for (size_t j = 0; j < nall; j++)
			if (all[j].n > 0 && (best == nall || all[j].n > all[best].n))
				best = j;
		if (best == nall)
			break;
		s->top[s->ntop++] = all[best];
		all[best].n = 0;
	}
	return s->runs > 0;
}

const char *spindelay_text(const struct sampler_sum *s, char *buf, size_t len)
{
	/* Per run, as the tables' medians are; the share pools all runs. */
	double per = s->runs ? s->spindelay / (double)s->runs : 0;
	if (s->active > 0)
		snprintf(buf, len, "%.*f (%.1f%%)", per < 10 && per != (long)per ? 1 : 0, per,
			 100 * s->spindelay / s->active);
	else
		snprintf(buf, len, "%.*f", per < 10 && per != (long)per ? 1 : 0, per);
	return buf;
}

void waits_text(const struct sampler_sum *s, size_t max, char *buf, size_t len)
{
	size_t l = 0;
	buf[0] = 0;
	if (s->on_cpu >= 0 && s->active > 0)
		l += (size_t)snprintf(buf, len, "on CPU %.0f%%", 100 * s->on_cpu / s->active);
	for (size_t i = 0; i < s->ntop && i < max && l < len; i++) {
		const char *sep = i ? ", " : l ? "; " : "";
		if (s->active > 0)
			l += (size_t)snprintf(buf + l, len - l, "%s%s %.1f%%", sep, s->top[i].name,
					      100 * s->top[i].n / s->active);
		else
			l += (size_t)snprintf(buf + l, len - l, "%s%s %.0f", sep, s->top[i].name,
					      s->top[i].n);
	}
	if (!s->ntop && l < len)
		snprintf(buf + l, len - l, "%sno wait events sampled", l ? "; " : "");
}
