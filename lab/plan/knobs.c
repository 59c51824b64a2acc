/*
 * The kernel knobs a unit sets, as a table (issue 39): each row says which
 * make variable sets which file, in what unit, what a kernel without the
 * file means, and whether the host gets its value back.  The planner turns
 * the rows whose variable has a value into the unit's knob lines; the
 * runner (guest/runner.sh, set_knobs) has one loop for all of them and
 * knows none by name.  A new knob is a row here and its variable's row in
 * lab/common/variables.def.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "knobs.h"

#define DEBUGFS "/sys/kernel/debug/"

const struct knob knobs[] = {
	/* The rseq slice extension's grant length.  A kernel without the
	 * extension has no file: its rseq cells fail on their own (bufbench
	 * says why) and the others do not care, so the unit goes on.  On the
	 * host the machine's value goes back. */
	{ "SLICE_EXT_US", offsetof(struct plan, slice_ext_us), DEBUGFS "rseq/slice_ext_nsec", 1000,
	  true, true, "CONFIG_RSEQ_SLICE_EXTENSION" },
	/* How much one read fault of a shared page maps: moves p_f without
	 * more CPUs.  The planner takes only values the kernel keeps as they
	 * are (settings.c); a guest's only, so nothing to restore. */
	{ "FAULT_AROUND_BYTES", offsetof(struct plan, fault_around_bytes),
	  DEBUGFS "fault_around_bytes", 1, false, false, "CONFIG_DEBUG_FS, CONFIG_MMU" },
	/* EEVDF's slice for every task: moves T, how long a descheduled
	 * holder waits.  A guest's only. */
	{ "BASE_SLICE_US", offsetof(struct plan, base_slice_us), DEBUGFS "sched/base_slice_ns", 1000,
	  false, false, "an EEVDF kernel, 6.6 or later, with CONFIG_DEBUG_FS" },
	{ NULL, 0, NULL, 0, false, false, NULL },
};

static long knob_value(const struct plan *p, const struct knob *k)
{
	return *(const long *)((const char *)p + k->off);
}

void knobs_write(FILE *f, const struct plan *p, bool host)
{
	for (const struct knob *k = knobs; k->var; k++) {
		long v = knob_value(p, k);
		if (v > 0)
			fprintf(f, "knob\t%s %ld %s %s %s=%ld %s\n", k->path, v * k->scale,
				k->skip_missing ? "skip" : "fail",
				host && k->restore_host ? "restore" : "keep", k->var, v, k->needs);
	}
}

void knobs_json(struct json *j, const struct plan *p, bool host)
{
	json_begin_array(j, "knobs");
	for (const struct knob *k = knobs; k->var; k++) {
		long v = knob_value(p, k);
		if (v <= 0)
			continue;
		json_begin_object(j, NULL);
		json_str(j, "variable", k->var);
		json_str(j, "path", k->path);
		json_int(j, "value", v * k->scale);
		json_bool(j, "restore", host && k->restore_host);
		json_bool(j, "skip_if_missing", k->skip_missing);
		json_end_object(j);
	}
	json_end_array(j);
}
