/*
 * Recursive-descent JSON parser (RFC 8259).  Documents come from the lab's
 * own writers but may be hand-edited or truncated by an interrupted run, so
 * every error reports where it happened instead of guessing.
 */
#include "json_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JR_MAX_DEPTH 64

struct parser {
	const char *s;
	const char *start;
	char *err;
	size_t errlen;
	int depth;
	bool failed;
};

static void fail(struct parser *p, const char *what)
{
	if (p->failed)
		return;
	p->failed = true;
	int line = 1, col = 1;
	for (const char *c = p->start; c < p->s; c++) {
		if (*c == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(p->err, p->errlen, "line %d column %d: %s", line, col, what);
}

static void *xcalloc(size_t n, size_t sz)
{
	void *m = calloc(n ? n : 1, sz);
	if (!m) {
		fprintf(stderr, "json_read: out of memory\n");
		exit(1);
	}
	return m;
}

static void skip_ws(struct parser *p)
{
	while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')
		p->s++;
}

static struct jr_val *parse_value(struct parser *p);

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* p->s is at the opening quote. Decoded output is never longer than input. */
static char *parse_string(struct parser *p)
{
	const char *s = p->s + 1;
	size_t cap = 0;
	while (s[cap] && s[cap] != '"') {
		if (s[cap] == '\\' && s[cap + 1])
			cap++;
		cap++;
	}
	char *out = xcalloc(cap + 1, 1), *o = out;
	for (;;) {
		unsigned char c = (unsigned char)*s;
		if (c == '"') {
			s++;
			break;
		}
		if (c == 0) {
			fail(p, "unterminated string");
			free(out);
			return NULL;
		}
		if (c < 0x20) {
			p->s = s;
			fail(p, "control character in string");
			free(out);
			return NULL;
		}
		if (c != '\\') {
			*o++ = (char)c;
			s++;
			continue;
		}
		s++;
		switch (*s) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			unsigned cp, lo;
			if (hex4(s + 1, &cp)) {
				p->s = s;
				fail(p, "bad \\u escape");
				free(out);
				return NULL;
			}
			s += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && s[1] == '\\' &&
			    s[2] == 'u' && !hex4(s + 3, &lo) && lo >= 0xdc00 &&
			    lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				s += 6;
			}
			o += put_utf8(o, cp);
			break;
		}
		default:
			p->s = s;
			fail(p, "bad escape in string");
			free(out);
			return NULL;
		}
		s++;
	}
	*o = 0;
	p->s = s;
	return out;
}

static struct jr_val *parse_number(struct parser *p)
{
	const char *s = p->s;
	/* Check the JSON grammar first: strtod alone accepts hex, inf, nan. */
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		goto bad;
	if (*s == '.') {
		s++;
		if (!(*s >= '0' && *s <= '9'))
			goto bad;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			goto bad;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	struct jr_val *v = xcalloc(1, sizeof(*v));
	v->type = JR_NUM;
	v->num = strtod(p->s, NULL);
	p->s = s;
	return v;
bad:
	fail(p, "bad number");
	return NULL;
}

static struct jr_val *parse_container(struct parser *p, bool is_obj)
{
	struct jr_val *v = xcalloc(1, sizeof(*v));
	v->type = is_obj ? JR_OBJ : JR_ARR;
	size_t cap = 0;
	char close = is_obj ? '}' : ']';
	if (++p->depth > JR_MAX_DEPTH) {
		fail(p, "nesting too deep");
		return v;
	}
	p->s++;
	skip_ws(p);
	if (*p->s == close) {
		p->s++;
		p->depth--;
		return v;
	}
	for (;;) {
		char *key = NULL;
		skip_ws(p);
		if (is_obj) {
			if (*p->s != '"') {
				fail(p, "expected a string key");
				return v;
			}
			key = parse_string(p);
			if (!key)
				return v;
			skip_ws(p);
			if (*p->s != ':') {
				free(key);
				fail(p, "expected ':'");
				return v;
			}
			p->s++;
		}
		struct jr_val *item = parse_value(p);
		if (!item) {
			free(key);
			return v;
		}
		if (v->n == cap) {
			cap = cap ? cap * 2 : 8;
			v->items = realloc(v->items, cap * sizeof(*v->items));
			v->keys = is_obj ? realloc(v->keys, cap * sizeof(*v->keys)) : NULL;
			if (!v->items || (is_obj && !v->keys)) {
				fprintf(stderr, "json_read: out of memory\n");
				exit(1);
			}
		}
		if (is_obj)
			v->keys[v->n] = key;
		v->items[v->n++] = item;
		skip_ws(p);
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		if (*p->s == close) {
			p->s++;
			break;
		}
		if (!*p->s)
			fail(p, "unexpected end of input (truncated document?)");
		fail(p, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
		return v;
	}
	p->depth--;
	return v;
}

static struct jr_val *parse_value(struct parser *p)
{
	skip_ws(p);
	struct jr_val *v;
	switch (*p->s) {
	case '{':
		v = parse_container(p, true);
		break;
	case '[':
		v = parse_container(p, false);
		break;
	case '"': {
		char *s = parse_string(p);
		if (!s)
			return NULL;
		v = xcalloc(1, sizeof(*v));
		v->type = JR_STR;
		v->str = s;
		return v;
	}
	case 't':
	case 'f':
	case 'n': {
		static const struct { const char *w; enum jr_type t; bool b; } lit[] = {
			{ "true", JR_BOOL, true },
			{ "false", JR_BOOL, false },
			{ "null", JR_NULL, false },
		};
		for (size_t i = 0; i < 3; i++) {
			size_t l = strlen(lit[i].w);
			if (!strncmp(p->s, lit[i].w, l)) {
				p->s += l;
				v = xcalloc(1, sizeof(*v));
				v->type = lit[i].t;
				v->b = lit[i].b;
				return v;
			}
		}
		fail(p, "unknown literal");
		return NULL;
	}
	case 0:
		fail(p, "unexpected end of input (truncated document?)");
		return NULL;
	default:
		if (*p->s == '-' || (*p->s >= '0' && *p->s <= '9'))
			return parse_number(p);
		fail(p, "unexpected character");
		return NULL;
	}
	if (p->failed) {
		jr_free(v);
		return NULL;
	}
	return v;
}

struct jr_val *jr_parse(const char *text, char *err, size_t errlen)
{
	struct parser p = { text, text, err, errlen, 0, false };
	struct jr_val *v = parse_value(&p);
	if (!v)
		return NULL;
	skip_ws(&p);
	if (*p.s) {
		fail(&p, "trailing characters after the document");
		jr_free(v);
		return NULL;
	}
	return v;
}

struct jr_val *jr_parse_file(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 65536, len = 0;
	char *buf = xcalloc(cap, 1);
	size_t r;
	while ((r = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += r;
		if (len + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf) {
				fprintf(stderr, "json_read: out of memory\n");
				exit(1);
			}
		}
	}
	fclose(f);
	buf[len] = 0;
	char msg[200];
	struct jr_val *v = jr_parse(buf, msg, sizeof(msg));
	if (!v)
		snprintf(err, errlen, "%s: %s", path, msg);
	free(buf);
	return v;
}

void jr_free(struct jr_val *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		if (v->keys)
			free(v->keys[i]);
		jr_free(v->items[i]);
	}
	free(v->keys);
	free(v->items);
	free(v->str);
	free(v);
}

const struct jr_val *jr_get(const struct jr_val *obj, const char *key)
{
	if (!obj || obj->type != JR_OBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

const struct jr_val *jr_path(const struct jr_val *v, const char *path)
{
	char part[128];
	while (v && *path) {
		size_t l = strcspn(path, ".");
		if (l >= sizeof(part))
			return NULL;
		memcpy(part, path, l);
		part[l] = 0;
		v = jr_get(v, part);
		path += l;
		if (*path == '.')
			path++;
	}
	return v;
}

bool jr_num(const struct jr_val *v, const char *path, double *out)
{
	const struct jr_val *x = jr_path(v, path);
	if (!x || x->type != JR_NUM)
		return false;
	*out = x->num;
	return true;
}

const char *jr_str(const struct jr_val *v, const char *path, const char *def)
{
	const struct jr_val *x = jr_path(v, path);
	return x && x->type == JR_STR ? x->str : def;
}
