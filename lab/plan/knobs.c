/*
 * The knob lines of a unit, from the variable table's knob rows in the
 * table's order: each row whose variable has a value names the file, the
 * value written (the variable's times the file's scale), whether a kernel
 * without the file fails the unit or is passed over, and whether the
 * host's value goes back when a host unit ends.
 */
#include <stdio.h>

#include "knobs.h"
#include "variables.h"

void knobs_write(FILE *f, const struct plan *p, bool host)
{
	for (const struct variable *r = variables; r->name; r++) {
		const struct knob_file *k = r->knob;
		long v = k ? knob_value(p, r) : 0;
		if (v > 0)
			fprintf(f, "knob\t%s %ld %s %s %s=%ld %s\n", k->path, v * k->scale,
				k->skip_missing ? "skip" : "fail",
				host && k->restore_host ? "restore" : "keep", r->name, v, k->needs);
	}
}

void knobs_json(struct json *j, const struct plan *p, bool host)
{
	json_begin_array(j, "knobs");
	for (const struct variable *r = variables; r->name; r++) {
		const struct knob_file *k = r->knob;
		long v = k ? knob_value(p, r) : 0;
		if (v <= 0)
			continue;
		json_begin_object(j, NULL);
		json_str(j, "variable", r->name);
		json_str(j, "path", k->path);
		json_int(j, "value", v * k->scale);
		json_bool(j, "restore", host && k->restore_host);
		json_bool(j, "skip_if_missing", k->skip_missing);
		json_end_object(j);
	}
	json_end_array(j);
}
