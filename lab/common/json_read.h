/*
 * The report tools' view of a JSON document.  The lab's result documents are
 * a few kilobytes each, so the whole document is parsed (by jansson) into a
 * tree of values that the report then queries by dotted path.  The static
 * guest binaries only write JSON (lab/common/json.c) and never link this.
 */
#ifndef PREEMPTLAB_JSON_READ_H
#define PREEMPTLAB_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

enum jr_type { JR_NULL, JR_BOOL, JR_NUM, JR_STR, JR_ARR, JR_OBJ };

struct jr_val {
	enum jr_type type;
	bool b;
	double num;
	char *str;              /* JR_STR: decoded, NUL-terminated */
	size_t n;               /* JR_ARR / JR_OBJ: number of items */
	char **keys;            /* JR_OBJ: n keys */
	struct jr_val **items;  /* JR_ARR / JR_OBJ: n values */
};

/*
 * Parse text (NUL-terminated).  Returns NULL on error and writes a message
 * naming the line and column into err.
 */
struct jr_val *jr_parse(const char *text, char *err, size_t errlen);

/*
 * Open a file of a run for reading: a regular file of one link, not a
 * symbolic link, of at most 64 MiB.  Returns the descriptor, or -1 with
 * err naming the file and why it is refused.
 */
int jr_open_own(const char *path, char *err, size_t errlen);

/* Read and parse a whole file (through jr_open_own); err names the file on failure. */
struct jr_val *jr_parse_file(const char *path, char *err, size_t errlen);

void jr_free(struct jr_val *v);
/* A deep copy, freed with jr_free. */
struct jr_val *jr_copy(const struct jr_val *v);
/* An empty object; jr_add appends key: val to an object and owns val. */
struct jr_val *jr_new_object(void);
void jr_add(struct jr_val *obj, const char *key, struct jr_val *val);

/* Member of an object, or NULL. */
const struct jr_val *jr_get(const struct jr_val *obj, const char *key);

/* Follow a dotted path ("results.latency_us.p99"); NULL when absent. */
const struct jr_val *jr_path(const struct jr_val *v, const char *path);

/* Typed lookups by path; return false / def when absent or of another type. */
bool jr_num(const struct jr_val *v, const char *path, double *out);
const char *jr_str(const struct jr_val *v, const char *path, const char *def);
/* PATH is the JSON value true (absent, false or another type: false). */
bool jr_true(const struct jr_val *v, const char *path);

#endif
