#include "json.h"

#include <math.h>

void json_init(struct json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->need_comma[0] = false;
	j->after_key = false;
}

static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

/* Emit the separator and the key that precede any value. */
static void prefix(struct json *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->out);
	if (j->depth > 0) {
		fputc('\n', j->out);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	if (key) {
		put_string(j->out, key);
		fputs(": ", j->out);
	}
	j->need_comma[j->depth] = true;
}

static void open_scope(struct json *j, const char *key, char c)
{
	prefix(j, key);
	fputc(c, j->out);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_scope(struct json *j, char c)
{
	bool had_items = j->need_comma[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (had_items) {
		fputc('\n', j->out);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	fputc(c, j->out);
}

void json_begin_object(struct json *j, const char *key) { open_scope(j, key, '{'); }
void json_end_object(struct json *j) { close_scope(j, '}'); }
void json_begin_array(struct json *j, const char *key) { open_scope(j, key, '['); }
void json_end_array(struct json *j) { close_scope(j, ']'); }

void json_str(struct json *j, const char *key, const char *val)
{
	prefix(j, key);
	if (val)
		put_string(j->out, val);
	else
		fputs("null", j->out);
}

void json_int(struct json *j, const char *key, int64_t val)
{
	prefix(j, key);
	fprintf(j->out, "%lld", (long long)val);
}

void json_uint(struct json *j, const char *key, uint64_t val)
{
	prefix(j, key);
	fprintf(j->out, "%llu", (unsigned long long)val);
}

void json_double(struct json *j, const char *key, double val)
{
	prefix(j, key);
	/* JSON has no NaN or infinity; null says "not measured". */
	if (isfinite(val))
		fprintf(j->out, "%.6g", val);
	else
		fputs("null", j->out);
}

void json_bool(struct json *j, const char *key, bool val)
{
	prefix(j, key);
	fputs(val ? "true" : "false", j->out);
}

void json_null(struct json *j, const char *key)
{
	prefix(j, key);
	fputs("null", j->out);
}

void json_finish(struct json *j)
{
	fputc('\n', j->out);
	fflush(j->out);
}
