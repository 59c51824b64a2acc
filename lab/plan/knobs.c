/*
 * The knob lines of a unit, from the variable table's knob rows in the
 * table's order: each row whose variable has a value names the file, the
 * value written (the variable's times the file's scale, or a switch's
 * word), whether a kernel
 * without the file fails the unit or is passed over, and whether the
 * host's value goes back when a host unit ends.
 */
#include <stdio.h>
#include <string.h>

#include "knobs.h"
#include "variables.h"

/*
 * Row R's knob as written: the file's value into VAL and the variable's
 * into SHOWN; false where the variable has none (unset, or a count of 0).
 */
static bool knob_text(const struct plan *p, const struct variable *r, char *val, size_t len,
		      char *shown, size_t slen)
{
	const struct knob_file *k = r->knob;
	if (k->words[0]) {
		const char *v = (const char *)p + r->off;
		if (!*v)
			return false;
		snprintf(val, len, "%s", k->words[!strcmp(v, "on")]);
		snprintf(shown, slen, "%s", v);
		return true;
	}
	long v = knob_value(p, r);
	snprintf(val, len, "%ld", v * k->scale);
	snprintf(shown, slen, "%ld", v);
	return v > 0;
}

void knobs_write(FILE *f, const struct plan *p, bool host)
{
	for (const struct variable *r = variables; r->name; r++) {
		const struct knob_file *k = r->knob;
		char val[64], shown[64];
		if (k && knob_text(p, r, val, sizeof(val), shown, sizeof(shown)))
			fprintf(f, "knob\t%s %s %s %s %s=%s %s\n", k->path, val,
				k->skip_missing ? "skip" : "fail",
				host && k->restore_host ? "restore" : "keep", r->name, shown, k->needs);
	}
}

void knobs_json(struct json *j, const struct plan *p, bool host)
{
	json_begin_array(j, "knobs");
	for (const struct variable *r = variables; r->name; r++) {
		const struct knob_file *k = r->knob;
		char val[64], shown[64];
		if (!k || !knob_text(p, r, val, sizeof(val), shown, sizeof(shown)))
			continue;
		json_begin_object(j, NULL);
		json_str(j, "variable", r->name);
		json_str(j, "path", k->path);
		if (k->words[0])
			json_str(j, "value", val);
		else
			json_int(j, "value", knob_value(p, r) * k->scale);
		json_bool(j, "restore", host && k->restore_host);
		json_bool(j, "skip_if_missing", k->skip_missing);
		json_end_object(j);
	}
	json_end_array(j);
}
