/*
 * A streaming JSON writer.  The lab's tools emit one document per run and
 * never need to read their own output back, so a writer that tracks only
 * "is a comma due" per nesting level is all that is required.
 */
#ifndef PREEMPTLAB_JSON_H
#define PREEMPTLAB_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *out;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;
};

void json_init(struct json *j, FILE *out);
void json_begin_object(struct json *j, const char *key);
void json_end_object(struct json *j);
void json_begin_array(struct json *j, const char *key);
void json_end_array(struct json *j);

/* key may be NULL inside arrays. */
void json_str(struct json *j, const char *key, const char *val);
void json_int(struct json *j, const char *key, int64_t val);
void json_uint(struct json *j, const char *key, uint64_t val);
void json_double(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);

/* Finish the document with a newline. */
void json_finish(struct json *j);

#endif
