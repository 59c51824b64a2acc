#include "micro.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "json_read.h"

static double num_or(const struct json_read_val *d, const char *path)
{
	double v;
	return json_read_num(d, path, &v) ? v : -1;
}

static int load_one(const char *dir, const char *name, struct micro *m)
{
	char path[4096], err[512];
	snprintf(path, sizeof(path), "%s/logs/%s", dir, name);
	struct json_read_val *d = json_read_parse_file(path, err, sizeof(err));
	if (!d) {
		/* bench-host.sh leaves an empty file when bufmicro could not run. */
		txt_printf(stderr, "report: ignoring %s\n", err);
		return -1;
	}
	memset(m, 0, sizeof(*m));
	snprintf(m->file, sizeof(m->file), "logs/%s", name);
	snprintf(m->who, sizeof(m->who), "%s/%s (%s)",
		 json_read_str(d, "provenance.kernel_label", "?"),
		 json_read_str(d, "provenance.preempt_model", "?"),
		 json_read_str(d, "provenance.kernel_release", "?"));
	m->iterations = num_or(d, "results.iterations");
	m->clock_ns = num_or(d, "results.clock_read_ns");
	m->hit_ns = num_or(d, "results.buffer_hit_ns");
	m->hit_instr_ns = num_or(d, "results.buffer_hit_instrumented_ns");
	const struct json_read_val *l = json_read_path(d, "results.lock_acquire_release_ns");
	for (size_t i = 0; l && l->type == JR_OBJ && i < l->n; i++) {
		const char *k = l->keys[i];
		size_t kl = strlen(k);
		if (kl > 13 && !strcmp(k + kl - 13, "_instrumented"))
			continue;
		if (l->items[i]->type != JR_NUM || m->nlock == sizeof(m->lock) / sizeof(m->lock[0]))
			continue;
		struct micro_lock *ml = &m->lock[m->nlock++];
		snprintf(ml->name, sizeof(ml->name), "%s", k);
		ml->plain_ns = l->items[i]->num;
		char ik[64];
		snprintf(ik, sizeof(ik), "%s_instrumented", k);
		const struct json_read_val *iv = json_read_get(l, ik);
		ml->instrumented_ns = iv && iv->type == JR_NUM ? iv->num : -1;
	}
	int ok = m->hit_ns >= 0 || m->clock_ns >= 0 || m->nlock;
	if (!ok)
		txt_printf(stderr, "report: ignoring %s: no results of bufmicro in it\n", path);
	json_read_free(d);
	return ok ? 0 : -1;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t micro_load(const char *dir, struct micro *out, size_t max)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/logs", dir);
	DIR *dh = opendir(path);
	if (!dh)
		return 0;
	char *names[64];
	size_t nn = 0;
	struct dirent *de;
	while ((de = readdir(dh)) && nn < 64) {
		size_t l = strlen(de->d_name);
		if (!strncmp(de->d_name, "bufmicro", 8) && l > 5 && !strcmp(de->d_name + l - 5, ".json"))
			if ((names[nn] = strdup(de->d_name)))
				nn++;
	}
	closedir(dh);
	qsort(names, nn, sizeof(*names), name_cmp);
	size_t n = 0;
	for (size_t i = 0; i < nn; i++) {
		if (n < max && !load_one(dir, names[i], &out[n]))
			n++;
		free(names[i]);
	}
	return n;
}

void micro_text(const struct micro *m, char *buf, size_t len)
{
	size_t l = 0;
	buf[0] = 0;
#define ADD(...) do { if (l < len) l += (size_t)snprintf(buf + l, len - l, __VA_ARGS__); } while (0)
	if (m->hit_ns >= 0) {
		ADD("buffer hit %.0f", m->hit_ns);
		if (m->hit_instr_ns >= 0)
			ADD(" (%.0f instrumented)", m->hit_instr_ns);
	}
	for (size_t i = 0; i < m->nlock; i++) {
		ADD("%s%s %.0f", i ? ", " : l ? "; lock+unlock " : "lock+unlock ",
		    m->lock[i].name, m->lock[i].plain_ns);
		if (m->lock[i].instrumented_ns >= 0)
			ADD(" (%.0f)", m->lock[i].instrumented_ns);
	}
	if (m->clock_ns >= 0)
		ADD("%sclock read %.0f", l ? "; " : "", m->clock_ns);
#undef ADD
}
