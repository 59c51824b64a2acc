/*
 * build/jget: the scripts' reader of JSON values, so that no script needs
 * a JSON stack of its own (jq) to read what the lab's C tools wrote.
 *
 *   jget PATH[,PATH...] FILE...   per file one line: the values at the
 *                                 dotted PATHs, tab-separated
 *   jget -a KEY FILE...           every string under KEY, at any depth,
 *                                 one a line
 *   jget -k PATH FILE...          the keys of the object at PATH, in the
 *                                 document's order, one a line
 *
 * A string is printed raw, a number or boolean as JSON spells it; null, a
 * missing path, an object or an array as an empty field.  Control
 * characters in a string (a tab or newline would split the shell's
 * fields or lines) are printed as '?': documents are untrusted input
 * (docs/hostile-input.md).  A file over 64 MiB or not a regular file is
 * refused unread (capped.h).  Exit 1 when a file does not parse or is
 * refused (its line is left out), 2 on bad usage.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "capped.h"

static void put_string(const char *s)
{
	for (; *s; s++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

static void put_value(json_t *v)
{
	if (json_is_string(v))
		put_string(json_string_value(v));
	else if (json_is_integer(v))
		printf("%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		printf("%.17g", json_real_value(v));
	else if (json_is_boolean(v))
		fputs(json_is_true(v) ? "true" : "false", stdout);
}

/* The value at a dotted path (len bytes of path), or NULL. */
static json_t *at(json_t *doc, const char *path, size_t len)
{
	json_t *v = doc;
	while (v && len) {
		size_t n = strcspn(path, ".");
		if (n > len)
			n = len;
		char key[256];
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = 0;
		v = json_object_get(v, key);
		path += n;
		len -= n;
		if (len) {
			path++;
			len--;
		}
	}
	return v;
}

static void all_under(json_t *v, const char *key)
{
	const char *k;
	json_t *x;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach(v, k, x) {
			if (!strcmp(k, key) && json_is_string(x)) {
				put_string(json_string_value(x));
				putchar('\n');
			}
			all_under(x, key);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			all_under(x, key);
	}
}

static void keys_of(json_t *v)
{
	const char *k;
	json_t *x;
	json_object_foreach(v, k, x) {
		put_string(k);
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	int every = argc > 1 && !strcmp(argv[1], "-a");
	int keys = argc > 1 && !strcmp(argv[1], "-k");
	int flag = every || keys;
	if (argc < 3 + flag) {
		fprintf(stderr, "usage: jget PATH[,PATH...] FILE... | jget -a KEY FILE... | jget -k PATH FILE...\n");
		return 2;
	}
	const char *paths = argv[1 + flag];
	int rc = 0;
	for (int f = 2 + flag; f < argc; f++) {
		char err[512];
		json_t *doc = capped_load(argv[f], JSON_DECODE_ANY, err, sizeof(err));
		if (!doc) {
			fprintf(stderr, "jget: %s\n", err);
			rc = 1;
			continue;
		}
		if (keys) {
			keys_of(at(doc, paths, strlen(paths)));
		} else if (every) {
			all_under(doc, paths);
		} else {
			for (const char *p = paths;;) {
				size_t n = strcspn(p, ",");
				put_value(at(doc, p, n));
				if (!p[n])
					break;
				putchar('\t');
				p += n + 1;
			}
			putchar('\n');
		}
		json_decref(doc);
	}
	return fflush(stdout) ? 1 : rc;
}
