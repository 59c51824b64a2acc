/*
 * build/jobj: a JSON object of strings from KEY=VALUE arguments, for the
 * scripts that write JSON (scripts/fleet.sh's Ansible variables) without a
 * JSON stack of their own.  A dotted KEY nests (fleet_vars.SCENARIO=seed
 * is {"fleet_vars": {"SCENARIO": "seed"}}); the VALUE is everything after
 * the first '=', kept as it is (jansson escapes it).  A later KEY wins.
 *
 *   jobj KEY=VALUE...     the object on stdout; exit 2 on bad usage, a
 *                         value over 64 KiB or over 1024 arguments
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#define JOBJ_MAX_VALUE (64 << 10)
#define JOBJ_MAX_ARGS 1024

/* Set VALUE at the dotted KEY (klen bytes) under OBJ, creating objects. */
static int put(json_t *obj, const char *key, size_t klen, const char *value)
{
	const char *dot = memchr(key, '.', klen);
	char name[256];
	size_t n = dot ? (size_t)(dot - key) : klen;
	if (n == 0 || n >= sizeof(name))
		return -1;
	memcpy(name, key, n);
	name[n] = '\0';
	if (!dot)
		return json_object_set_new(obj, name, json_string(value));
	json_t *sub = json_object_get(obj, name);
	if (!json_is_object(sub)) {
		sub = json_object();
		json_object_set_new(obj, name, sub);
	}
	return put(sub, dot + 1, klen - n - 1, value);
}

int main(int argc, char **argv)
{
	if (argc > JOBJ_MAX_ARGS) {
		fprintf(stderr, "jobj: over %d KEY=VALUE arguments\n", JOBJ_MAX_ARGS);
		return 2;
	}
	json_t *obj = json_object();
	for (int i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		/* Values are make variables (fleet.sh): a cap, so that no input
		 * of any size is taken whole (64 KiB, as a line of the lab's). */
		if (eq && strlen(eq + 1) > JOBJ_MAX_VALUE) {
			fprintf(stderr, "jobj: the value of '%.*s' is over 64 KiB: no variable "
					"of the lab's is that long\n", (int)(eq - argv[i] > 64 ? 64 : eq - argv[i]), argv[i]);
			return 2;
		}
		if (!eq ||
		    put(obj, argv[i], (size_t)(eq - argv[i]), eq + 1) != 0) {
			fprintf(stderr, "jobj: '%s' is no KEY=VALUE (a UTF-8 value, a key of "
					"dot-separated names)\n", argv[i]);
			return 2;
		}
	}
	if (json_dumpf(obj, stdout, JSON_INDENT(2) | JSON_SORT_KEYS) != 0)
		return 1;
	putchar('\n');
	json_decref(obj);
	return 0;
}
