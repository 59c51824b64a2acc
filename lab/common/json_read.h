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

enum json_read_type { JR_NULL, JR_BOOL, JR_NUM, JR_STR, JR_ARR, JR_OBJ };

struct json_read_val {
	enum json_read_type type;
	bool b;
	double num;
	char *str;              /* JR_STR: decoded, NUL-terminated */
	size_t n;               /* JR_ARR / JR_OBJ: number of items */
	char **keys;            /* JR_OBJ: n keys */
	struct json_read_val **items;  /* JR_ARR / JR_OBJ: n values */
};

/*
 * Parse text (NUL-terminated).  Returns NULL on error and writes a message
 * naming the line and column into err.
 */
struct json_read_val *json_read_parse(const char *text, char *err, size_t errlen);

/*
 * Open a file of a run for reading: a regular file of one link, not a
 * symbolic link, of at most 64 MiB.  Returns the descriptor, or -1 with
 * err naming the file and why it is refused.
 */
int json_read_open_own(const char *path, char *err, size_t errlen);

/* Read and parse a whole file (through json_read_open_own); err names the file on failure. */
struct json_read_val *json_read_parse_file(const char *path, char *err, size_t errlen);

void json_read_free(struct json_read_val *v);
/* A deep copy, freed with json_read_free. */
struct json_read_val *json_read_copy(const struct json_read_val *v);
/* An empty object; json_read_add appends key: val to an object and owns val. */
struct json_read_val *json_read_new_object(void);
void json_read_add(struct json_read_val *obj, const char *key, struct json_read_val *val);

/* Member of an object, or NULL. */
const struct json_read_val *json_read_get(const struct json_read_val *obj, const char *key);

/* Follow a dotted path ("results.latency_us.p99"); NULL when absent. */
const struct json_read_val *json_read_path(const struct json_read_val *v, const char *path);

/* Typed lookups by path; return false / def when absent or of another type. */
bool json_read_num(const struct json_read_val *v, const char *path, double *out);
const char *json_read_str(const struct json_read_val *v, const char *path, const char *def);
/* PATH is the JSON value true (absent, false or another type: false). */
bool json_read_true(const struct json_read_val *v, const char *path);

#endif
