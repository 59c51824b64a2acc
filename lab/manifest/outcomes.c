/*
 * logs/outcomes.tsv: what the runner saw, one fact a line, in the order
 * it saw them: "RECORD<TAB>ID<TAB>KEY<TAB>VALUE", RECORD one of run
 * (ID "-"), unit (the plan's unit id), boot (the attempt's log tag) and
 * cell (the cell id).  The runner states facts; which of them are numbers
 * and how they nest is decided here, once, for every reader.
 */
#include "manifest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keys whose value is a number (or null when empty), a boolean, per record. */
static const char *const number_keys[] = {
	"boot", "wall_s", "ready_s", "first_result_s", "started", "ended", NULL
};
static const char *const bool_keys[] = { "vcpus_pinned", "interrupted", NULL };

static int listed(const char *const *list, const char *key)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], key))
			return 1;
	return 0;
}

static json_t *typed(const char *key, const char *val)
{
	if (listed(number_keys, key)) {
		char *end;
		long long n = strtoll(val, &end, 10);
		return *val && !*end ? json_integer(n) : json_null();
	}
	if (listed(bool_keys, key)) {
		if (!strcmp(val, "true") || !strcmp(val, "1"))
			return json_true();
		if (!strcmp(val, "false") || !strcmp(val, "0"))
			return json_false();
		return json_null();
	}
	return json_string(val);
}

/* The object of RECORD/ID in arr (created at its first fact, in order). */
static json_t *entry(json_t *arr, const char *idkey, const char *id)
{
	size_t i;
	json_t *o;
	json_array_foreach(arr, i, o) {
		if (!strcmp(json_string_value(json_object_get(o, idkey)), id))
			return o;
	}
	o = json_object();
	json_object_set_new(o, idkey, json_string(id));
	json_array_append_new(arr, o);
	return o;
}

int outcomes_read(const char *path, struct outcomes *oc, char *err, size_t errlen)
{
	oc->run = json_object();
	oc->units = json_array();
	oc->boots = json_array();
	oc->cells = json_array();
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open", path);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!*line)
			continue;
		char *field[4];
		char *s = line;
		int n = 0;
		for (; n < 4; n++) {
			field[n] = s;
			if (n == 3)
				break;
			char *tab = strchr(s, '\t');
			if (!tab)
				break;
			*tab = 0;
			s = tab + 1;
		}
		if (n != 3 || !*field[1] || !*field[2]) {
			snprintf(err, errlen, "%s:%d: not RECORD<TAB>ID<TAB>KEY<TAB>VALUE", path, lineno);
			rc = -1;
			break;
		}
		json_t *obj;
		if (!strcmp(field[0], "run"))
			obj = oc->run;
		else if (!strcmp(field[0], "unit"))
			obj = entry(oc->units, "unit", field[1]);
		else if (!strcmp(field[0], "boot"))
			obj = entry(oc->boots, "tag", field[1]);
		else if (!strcmp(field[0], "cell"))
			obj = entry(oc->cells, "id", field[1]);
		else {
			snprintf(err, errlen, "%s:%d: unknown record '%.20s'", path, lineno, field[0]);
			rc = -1;
			break;
		}
		json_object_set_new(obj, field[2], typed(field[2], field[3]));
	}
	free(line);
	fclose(f);
	return rc;
}

void outcomes_free(struct outcomes *oc)
{
	json_decref(oc->run);
	json_decref(oc->units);
	json_decref(oc->boots);
	json_decref(oc->cells);
}
