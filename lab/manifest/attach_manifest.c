/*
 * build/attach-manifest: the manifest.json of an attachment
 * (scripts/attach.sh; schema preemptlab.attachment/1, docs/attach.md), so
 * that the writer needs no jq.  The facts come as options, the file list
 * as a TSV (NAME TAB BYTES TAB SHA256), the kernels, versions and command
 * lines from the run's result documents (their provenance), each list
 * without duplicates, in a stable order (by its compact JSON text).
 *
 *   attach-manifest --run NAME --rev REV --reproduce CMD --made TIME
 *       --dropped "F ..." --perf V --qemu V --compiler V --host V
 *       --files TSV --src-commit C --src-sha S --src-note N --dirty true|false
 *       --dirty-patch P  DOC.json...
 *
 * An empty --src-* or --dirty-patch value is null.  Exit 1 when a document
 * or the file list cannot be read or is over 64 MiB (capped.h), 2 on bad
 * usage.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capped.h"

enum { RUN, REV, CMD, MADE, DROPPED, PERF, QEMU, CC, HOST, FILES, SCOMMIT, SSHA, SNOTE, DIRTY,
       PATCH, NOPT };
static const char *const names[NOPT] = {
	"--run", "--rev", "--reproduce", "--made", "--dropped", "--perf", "--qemu", "--compiler",
	"--host", "--files", "--src-commit", "--src-sha", "--src-note", "--dirty", "--dirty-patch",
};

static json_t *str_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ITEMS (a JSON array) without duplicates, ordered by compact JSON text. */
static json_t *unique(json_t *items)
{
	size_t n = json_array_size(items), m = 0;
	char **text = calloc(n ? n : 1, sizeof(*text));
	for (size_t i = 0; i < n; i++)
		text[i] = json_dumps(json_array_get(items, i),
				     JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	qsort(text, n, sizeof(*text), by_text);
	json_t *out = json_array();
	for (size_t i = 0; i < n; i++) {
		if (!text[i])
			continue;
		if (m && !strcmp(text[i], text[m - 1])) {
			free(text[i]);
			continue;
		}
		text[m++] = text[i];
		json_array_append_new(out, json_loads(text[i], JSON_DECODE_ANY, NULL));
	}
	/* Every text is freed once: the kept ones moved to the front. */
	for (size_t i = 0; i < m; i++)
		free(text[i]);
	free(text);
	json_decref(items);
	return out;
}

static json_t *get(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return v ? json_incref(v) : json_null();
}

static json_t *files(const char *path)
{
	char line[8192];
	FILE *f = capped_open(path, line, sizeof(line));
	if (!f) {
		fprintf(stderr, "attach-manifest: --files %s\n", line);
		return NULL;
	}
	json_t *out = json_array();
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
		if (!line[0] || !t2)
			continue;
		*t1 = *t2 = '\0';
		json_array_append_new(out, json_pack("{s:s, s:I, s:s}", "name", line, "bytes",
						     (json_int_t)strtoll(t1 + 1, NULL, 10),
						     "sha256", t2 + 1));
	}
	fclose(f);
	return out;
}

int main(int argc, char **argv)
{
	const char *opt[NOPT] = { 0 };
	int i = 1;
	for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		int k = 0;
		while (k < NOPT && strcmp(argv[i], names[k]))
			k++;
		if (k == NOPT) {
			fprintf(stderr, "attach-manifest: unknown option %s\n", argv[i]);
			return 2;
		}
		opt[k] = argv[i + 1];
	}
	for (int k = 0; k < NOPT; k++)
		if (!opt[k]) {
			fprintf(stderr, "attach-manifest: %s is missing\n", names[k]);
			return 2;
		}
	json_t *kernels = json_array(), *versions = json_array(), *cmds = json_array();
	for (; i < argc; i++) {
		char err[512];
		json_t *doc = capped_load(argv[i], 0, err, sizeof(err));
		if (!doc) {
			fprintf(stderr, "attach-manifest: %s\n", err);
			return 1;
		}
		json_t *p = json_object_get(doc, "provenance");
		json_array_append_new(kernels, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
			"label", get(p, "kernel_label"), "release", get(p, "kernel_release"),
			"version", get(p, "kernel_version"), "model", get(p, "preempt_model"),
			"model_source", get(p, "preempt_model_source"),
			"virtualization", get(p, "virtualization")));
		json_array_append_new(versions, get(p, "versions"));
		json_array_append_new(cmds, get(p, "command_line"));
		json_decref(doc);
	}
	json_t *fl = files(opt[FILES]);	/* it says why not */
	if (!fl)
		return 1;
	json_t *dropped = json_array();
	char *d = strdup(opt[DROPPED]);
	for (char *save = NULL, *w = strtok_r(d, " ", &save); w; w = strtok_r(NULL, " ", &save))
		json_array_append_new(dropped, json_string(w));
	free(d);
	bool has_src = opt[SSHA][0] != '\0';
	json_t *m = json_pack(
		"{s:s, s:s, s:s, s:s, s:s,"
		" s:{s:o, s:o, s:o, s:b, s:o, s:o},"
		" s:{s:s, s:s, s:s, s:s},"
		" s:o, s:o, s:o, s:o, s:o}",
		"schema", "preemptlab.attachment/1", "run", opt[RUN], "lab_revision", opt[REV],
		"made", opt[MADE], "reproduce", opt[CMD],
		"source", "file", has_src ? json_string("source.tar.xz") : json_null(),
		"sha256", str_or_null(opt[SSHA]), "commit", str_or_null(opt[SCOMMIT]),
		"dirty", !strcmp(opt[DIRTY], "true"), "dirty_patch", str_or_null(opt[PATCH]),
		"note", str_or_null(opt[SNOTE]),
		"made_on", "host", opt[HOST], "perf", opt[PERF], "qemu", opt[QEMU], "compiler",
		opt[CC],
		"kernels", unique(kernels), "versions", unique(versions), "command_lines",
		unique(cmds), "dropped_to_fit", dropped, "files", fl);
	if (!m) {
		fprintf(stderr, "attach-manifest: a value is no UTF-8 text\n");
		return 1;
	}
	if (json_dumpf(m, stdout, JSON_INDENT(2)) != 0)
		return 1;
	putchar('\n');
	json_decref(m);
	return 0;
}
