/*
 * The report's documents through jansson, a maintained parser: each
 * document is decoded once and converted into the report's own small tree
 * (json_read.h), which the report queries by dotted path.  Documents come
 * from the lab's writers but may be hand-edited, truncated by an
 * interrupted run, or hostile, so errors say where, and the whole file is
 * read with a size cap before it is parsed.
 */
#include "json_read.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Result documents are kilobytes; a profile-sized one would be a mistake. */
#define JR_MAX_FILE (64u << 20)
/* Deeper than any document the lab writes; bounds the conversion's recursion. */
#define JR_MAX_DEPTH 64
/*
 * Larger than any count or time the lab writes (ns over a day of 1000
 * clients is 1e17), small enough that sums, squares and casts to long
 * stay finite and defined: 1e300 as a page size printed as a negative
 * one, and 1e308 as a rate made the charts' coordinates NaN.
 */
#define JR_MAX_NUM 1e18

static void *xcalloc(size_t n, size_t sz)
{
	void *m = calloc(n ? n : 1, sz);
	if (!m) {
		fprintf(stderr, "json_read: out of memory\n");
		exit(1);
	}
	return m;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d) {
		fprintf(stderr, "json_read: out of memory\n");
		exit(1);
	}
	return d;
}

/* Why j cannot be converted, or NULL, and the key of the innermost object
 * member it was found under. */
static const char *why_not;
static char why_key[64];

static struct json_read_val *convert(const json_t *j, int depth)
{
	if (depth > JR_MAX_DEPTH) {
		why_not = "nested deeper than 64 levels";
		return NULL;
	}
	struct json_read_val *v = xcalloc(1, sizeof(*v));
	switch (json_typeof(j)) {
	case JSON_OBJECT: {
		const char *key;
		json_t *item;
		v->type = JR_OBJ;
		v->keys = xcalloc(json_object_size(j), sizeof(*v->keys));
		v->items = xcalloc(json_object_size(j), sizeof(*v->items));
		json_object_foreach((json_t *)j, key, item) {
			struct json_read_val *c = convert(item, depth + 1);
			if (!c) {
				if (!why_key[0])
					snprintf(why_key, sizeof(why_key), "%s", key);
				json_read_free(v);
				return NULL;
			}
			v->keys[v->n] = xstrdup(key);
			v->items[v->n++] = c;
		}
		break;
	}
	case JSON_ARRAY: {
		size_t i;
		json_t *item;
		v->type = JR_ARR;
		v->items = xcalloc(json_array_size(j), sizeof(*v->items));
		json_array_foreach(j, i, item) {
			struct json_read_val *c = convert(item, depth + 1);
			if (!c) {
				json_read_free(v);
				return NULL;
			}
			v->items[v->n++] = c;
		}
		break;
	}
	case JSON_STRING:
		v->type = JR_STR;
		v->str = xstrdup(json_string_value(j));
		break;
	case JSON_INTEGER:
	case JSON_REAL:
		v->type = JR_NUM;
		v->num = json_is_integer(j) ? (double)json_integer_value(j) : json_real_value(j);
		if (!isfinite(v->num) || fabs(v->num) > JR_MAX_NUM) {
			why_not = "a number beyond +-1e18 (no count or time the lab writes is that large)";
			free(v);
			return NULL;
		}
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		v->type = JR_BOOL;
		v->b = json_is_true(j);
		break;
	case JSON_NULL:
		v->type = JR_NULL;
		break;
	}
	return v;
}

struct json_read_val *json_read_parse(const char *text, char *err, size_t errlen)
{
	json_error_t e;
	/*
	 * jansson refuses \u0000 (it would cut a C string short) and, asked
	 * to, duplicate keys (which of two tps values would be the result?).
	 */
	json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, &e);
	if (!j) {
		/* An interrupted run leaves a document cut short: say so. */
		snprintf(err, errlen, "line %d column %d: %s%s", e.line, e.column, e.text,
			 (size_t)e.position >= strlen(text) ? " (the document ends early: truncated?)" : "");
		return NULL;
	}
	why_not = NULL;
	why_key[0] = 0;
	struct json_read_val *v = convert(j, 0);
	json_decref(j);
	if (!v)
		snprintf(err, errlen, "%s%s%s%s", why_not ? why_not : "cannot be read",
			 why_key[0] ? " (at \"" : "", why_key, why_key[0] ? "\")" : "");
	return v;
}

int json_read_open_own(const char *path, char *err, size_t errlen)
{
	/*
	 * A FIFO or device named *.json would hang the report or never end;
	 * a link could bring a file from outside the run into the report and
	 * the attachment made from it (issue 28, D1): a document is the run's
	 * own regular file.  A hard link is a link too (issue 35, N3): `ln
	 * /etc/shadow results/X/logs/...` passes every path check, so a file
	 * with a second name anywhere is not the run's own.
	 */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path,
			 errno == ELOOP ? "a symbolic link, not the run's own file" : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	const char *why = NULL;
	if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (st.st_nlink > 1)
		why = "a file with more than one hard link, not the run's own file "
		      "(it may be any file of this machine)";
	else if ((size_t)st.st_size > JR_MAX_FILE)
		why = "larger than 64 MiB: not a result document";
	if (why) {
		snprintf(err, errlen, "%s: %s", path, why);
		close(fd);
		return -1;
	}
	return fd;
}

struct json_read_val *json_read_parse_file(const char *path, char *err, size_t errlen)
{
	int fd = json_read_open_own(path, err, errlen);
	struct stat st;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	size_t len = (size_t)st.st_size, got = 0;
	char *buf = xcalloc(len + 1, 1);
	while (got < len) {
		ssize_t r = read(fd, buf + got, len - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = 0;
	char msg[200];
	struct json_read_val *v = json_read_parse(buf, msg, sizeof(msg));
	if (!v)
		snprintf(err, errlen, "%s: %s", path, msg);
	free(buf);
	return v;
}

struct json_read_val *json_read_copy(const struct json_read_val *v)
{
	struct json_read_val *c = xcalloc(1, sizeof(*c));
	*c = *v;
	c->str = v->str ? xstrdup(v->str) : NULL;
	c->keys = NULL;
	c->items = NULL;
	if (v->n) {
		c->items = xcalloc(v->n, sizeof(*c->items));
		if (v->keys)
			c->keys = xcalloc(v->n, sizeof(*c->keys));
		for (size_t i = 0; i < v->n; i++) {
			c->items[i] = json_read_copy(v->items[i]);
			if (v->keys)
				c->keys[i] = xstrdup(v->keys[i]);
		}
	}
	return c;
}

void json_read_add(struct json_read_val *obj, const char *key, struct json_read_val *val)
{
	char **keys = realloc(obj->keys, (obj->n + 1) * sizeof(*keys));
	struct json_read_val **items = realloc(obj->items, (obj->n + 1) * sizeof(*items));
	if (!keys || !items)
		exit(1);
	keys[obj->n] = xstrdup(key);
	items[obj->n] = val;
	obj->keys = keys;
	obj->items = items;
	obj->n++;
}

struct json_read_val *json_read_new_object(void)
{
	struct json_read_val *v = xcalloc(1, sizeof(*v));
	v->type = JR_OBJ;
	return v;
}

void json_read_free(struct json_read_val *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		if (v->keys)
			free(v->keys[i]);
		json_read_free(v->items[i]);
	}
	free(v->keys);
	free(v->items);
	free(v->str);
	free(v);
}

const struct json_read_val *json_read_get(const struct json_read_val *obj, const char *key)
{
	if (!obj || obj->type != JR_OBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

const struct json_read_val *json_read_path(const struct json_read_val *v, const char *path)
{
	char part[128];
	while (v && *path) {
		size_t l = strcspn(path, ".");
		if (l >= sizeof(part))
			return NULL;
		memcpy(part, path, l);
		part[l] = 0;
		v = json_read_get(v, part);
		path += l;
		if (*path == '.')
			path++;
	}
	return v;
}

bool json_read_true(const struct json_read_val *v, const char *path)
{
	const struct json_read_val *x = json_read_path(v, path);
	return x && x->type == JR_BOOL && x->b;
}

bool json_read_num(const struct json_read_val *v, const char *path, double *out)
{
	const struct json_read_val *x = json_read_path(v, path);
	if (!x || x->type != JR_NUM)
		return false;
	*out = x->num;
	return true;
}

const char *json_read_str(const struct json_read_val *v, const char *path, const char *def)
{
	const struct json_read_val *x = json_read_path(v, path);
	return x && x->type == JR_STR ? x->str : def;
}
