/* Which of a run's files go into its attachment, its kernel configs'
 * excerpts, and its revision: read from its documents (attach.h). */
#include "attach.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "manifest/capped.h"

/* V as the scripts' build/jget printed it: a string raw with each control
 * character a '?', a number or boolean as JSON spells it; NULL for null,
 * nothing, an object or an array.  Malloc'd. */
static char *text_of(json_t *v)
{
	char *t = NULL;
	if (json_is_string(v)) {
		t = strdup(json_string_value(v));
		for (char *p = t; p && *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
	} else if (json_is_integer(v)) {
		if (asprintf(&t, "%" JSON_INTEGER_FORMAT, json_integer_value(v)) < 0)
			t = NULL;
	} else if (json_is_real(v)) {
		if (asprintf(&t, "%.17g", json_real_value(v)) < 0)
			t = NULL;
	} else if (json_is_boolean(v)) {
		t = strdup(json_is_true(v) ? "true" : "false");
	}
	return t;
}

static char *provenance(json_t *doc, const char *key)
{
	return text_of(json_object_get(json_object_get(doc, "provenance"), key));
}

/* A list of strings that grows. */
struct strs {
	char **s;
	size_t n, cap;
};

static void push(struct strs *l, char *s)
{
	if (!s)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		char **m = realloc(l->s, cap * sizeof(*m));
		if (!m) {
			free(s);
			return;
		}
		l->s = m;
		l->cap = cap;
	}
	l->s[l->n++] = s;
}

static int by_bytes(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every string under KEY in V, at any depth. */
static void all_under(json_t *v, const char *key, struct strs *out)
{
	const char *k;
	json_t *x;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach(v, k, x) {
			if (!strcmp(k, key) && json_is_string(x))
				push(out, text_of(x));
			all_under(x, key, out);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			all_under(x, key, out);
	}
}

static void make_dir(const char *stage, const char *sub)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", stage, sub);
	if (mkdir(path, 0777) != 0 && errno != EEXIST)
		attach_note("cannot make %s: %s", path, strerror(errno));
}

struct stage {
	const char *dir, *real, *stage;
	const struct attach_limit *file_max;
	FILE *out;
};

/* FILE into the stage as SUB/NAME (SUB "": its top) when it is the run's own. */
static bool take(const struct stage *s, const char *file, const char *sub, const char *name)
{
	if (!attach_own_file(file, s->real, s->file_max))
		return false;
	if (sub[0])
		make_dir(s->stage, sub);
	fprintf(s->out, "%s\t%s%s%s\n", file, sub, sub[0] ? "/" : "", name ? name : attach_base(file));
	return true;
}

/* Each file of DIR/SUB matching PATTERN into the stage's TO; the list of
 * those taken onto TAKEN when it is not NULL. */
static void take_all(const struct stage *s, const char *sub, const char *pattern, const char *to,
		     struct strs *taken)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s%s%s", s->dir, sub[0] ? "/" : "", sub);
	size_t n;
	char **l = attach_glob(dir, pattern, &n);
	for (size_t i = 0; i < n; i++)
		if (take(s, l[i], to, NULL) && taken)
			push(taken, strdup(l[i]));
	attach_free_list(l, n);
}

/* Kernel configs: the bench manifest names them (guest kernels); the
 * host's is in /boot, for a document of the host's own release.  Only
 * from the lab's own kernel cache (the manifest's) or /boot. */
static void configs(const struct stage *s, const char *manifest, struct strs *docs,
		    const char *cache, bool full)
{
	struct strs c = { 0 };
	char err[512];
	json_t *m = manifest ? capped_load(manifest, JSON_DECODE_ANY, err, sizeof(err)) : NULL;
	all_under(m, "config", &c);
	json_decref(m);
	for (size_t i = 0; i < docs->n; i++) {
		json_t *doc = capped_load(docs->s[i], JSON_DECODE_ANY, err, sizeof(err));
		char *label = provenance(doc, "kernel_label"), *rel = provenance(doc, "kernel_release");
		char boot[4096];
		struct stat st;
		if (label && rel && !strcmp(label, "host") && attach_release_ok(rel) &&
		    (size_t)snprintf(boot, sizeof(boot), "/boot/config-%s", rel) < sizeof(boot) &&
		    stat(boot, &st) == 0 && S_ISREG(st.st_mode))
			push(&c, strdup(boot));
		free(label);
		free(rel);
		json_decref(doc);
	}
	if (c.n)
		qsort(c.s, c.n, sizeof(*c.s), by_bytes);
	char *cache_real = attach_realpath(cache);
	for (size_t i = 0; i < c.n; i++) {
		if (i && !strcmp(c.s[i], c.s[i - 1]))
			continue;
		bool boot = !strncmp(c.s[i], "/boot/config-", 13);
		if (!attach_own_file(c.s[i], boot ? "/boot" : cache_real ? cache_real : "/nonexistent",
				     s->file_max))
			continue;
		char *base = attach_config_base(c.s[i]), out[4096];
		make_dir(s->stage, "kernel-configs");
		snprintf(out, sizeof(out), "%s/kernel-configs/%s.excerpt", s->stage, base);
		attach_write_excerpt(c.s[i], out);
		if (full)
			fprintf(s->out, "%s\tkernel-configs/%s\n", c.s[i], base);
		free(base);
	}
	free(cache_real);
	for (size_t i = 0; i < c.n; i++)
		free(c.s[i]);
	free(c.s);
}

int attach_stage(const char *rundir, const char *stage, const char *cache,
		 const struct attach_limit *file_max, bool full_config, FILE *out)
{
	char *real = realpath(rundir, NULL);
	struct stage s = { rundir, real ? real : "/nonexistent", stage, file_max, out };
	struct strs docs = { 0 };
	take_all(&s, "runs", "*.json", "runs", &docs);
	int rc = 0;
	if (!docs.n) {
		attach_note("no run document of %s is a regular file inside it", rundir);
		rc = -1;
		goto done;
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/manifest.json", rundir);
	bool manifest = take(&s, path, "", "bench-manifest.json");
	snprintf(path, sizeof(path), "%s/summary.txt", rundir);
	take(&s, path, "", NULL);
	take_all(&s, "", "*.svg", "", NULL);
	/* Small logs a reader needs: what failed or was skipped, the
	 * uncontended costs the report quotes (bufmicro), PostgreSQL's
	 * non-default settings and repro-min's output on the run's kernels. */
	static const char *const logs[] = { "failed*.txt", "skipped.txt", "bufmicro*.json",
					    "postgresql-*.conf", "repro-min-*.txt" };
	struct stat st;
	snprintf(path, sizeof(path), "%s/logs", rundir);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++)
			take_all(&s, "logs", logs[i], "logs", NULL);
	snprintf(path, sizeof(path), "%s/manifest.json", rundir);
	configs(&s, manifest ? path : NULL, &docs, cache, full_config);
done:
	for (size_t i = 0; i < docs.n; i++)
		free(docs.s[i]);
	free(docs.s);
	free(real);
	return rc;
}

char *attach_doc_revision(char **docs, int n)
{
	char *rev = NULL;
	for (int i = 0; i < n; i++) {
		char err[512];
		json_t *doc = capped_load(docs[i], JSON_DECODE_ANY, err, sizeof(err));
		if (!doc)
			fprintf(stderr, "attach: %s\n", err);
		char *r = provenance(doc, "lab_revision");
		/* Documents of one run name one revision; of several, the first
		 * in byte order. */
		if (r && r[0] && (!rev || strcmp(r, rev) < 0)) {
			free(rev);
			rev = r;
		} else {
			free(r);
		}
		json_decref(doc);
	}
	if (rev && !attach_revision_ok(rev)) {
		attach_note("the documents' lab_revision is not a git revision (characters outside [A-Za-z0-9._+-]); reproduce.sh says unknown");
		free(rev);
		rev = NULL;
	}
	return rev ? rev : strdup("unknown");
}
