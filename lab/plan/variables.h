/*
 * The table of `make bench` variables (lab/common/variables.def): one row
 * a variable, from which the planner parses, defaults and range-checks it,
 * and from which `build/plan --variables` and docs/variables.md come.  As
 * fio's struct fio_option: what is alike in every variable is a column;
 * what is not (a kernel, a baseline, MITIGATIONS) is a hook the row names,
 * and checks between variables are hooks run after the later one.
 */
#ifndef PREEMPTLAB_PLAN_VARIABLES_H
#define PREEMPTLAB_PLAN_VARIABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plan.h"

enum var_kind {
	V_COUNT,	/* a whole number in min..max: a long field */
	V_SIZE,		/* 128M, 2G: the text as given in a char[] field, .bytes its value */
	V_LIST,		/* items by commas or blanks: a struct list, of .vocab or of counts */
	V_ON_OFF,	/* on/off, 1/0, yes/no: a bool field */
	V_WORD,		/* one value of .vocab (or .values, checked by a hook): a char[] */
	V_TEXT,		/* free text, read by code of its own */
};

/* When plan_settings takes the row: the stages in the order it runs them. */
enum var_stage {
	V_CODE,		/* never by the table: its own code (.where) */
	V_GUEST,	/* guests, once the accelerator and host CPUs are known */
	V_BENCH,	/* once the scenario is chosen: the matrix, the instruments */
	V_EVIDENCE_ON,	/* defaults that read EVIDENCE, though listed before it */
	V_KNOBS,	/* the kernel's knobs and the spinning */
	V_MITIGATIONS,	/* MITIGATIONS, which rewrite the lists taken before */
	V_PG,		/* with PGBENCH=on only */
	V_PROFILE,
	V_CONTROLS,	/* last: it reads what the instruments are */
};

enum var_scope {
	V_ANYWHERE,
	V_GUEST_ONLY,	/* a guest's: on the host noted and ignored */
	V_GUEST_QUIET,	/* a guest's: on the host ignored without a word */
	V_GUEST_KNOB,	/* a guest kernel's knob: refused on the host, shared with others */
};

#define V_EMPTY_OK 1u	/* "" (or unset) leaves the field empty: the kernel's or auto */
#define V_CANONICAL 2u	/* a list rewritten in the vocabulary's spelling (list_canonical) */
#define V_KEEP_TEXT 4u	/* a count kept as text in a char[] field */

/*
 * A kernel knob the runner sets for every unit where the variable has a
 * value (lab/plan/knobs.c writes the unit's knob lines from these rows;
 * lab/runner/'s set_knobs applies them, knowing none by name).
 */
struct knob_file {
	const char *path;	/* the file the kernel reads it from */
	long scale;		/* the file's value: the variable's x scale */
	bool skip_missing;	/* a kernel without the file: said and skipped, not fatal */
	bool restore_host;	/* on the host, the old value goes back when the unit ends */
	const char *needs;	/* what a kernel needs to have the file */
	/* A switch in a file of words (sched/features): the word written
	 * for off and for on, where the variable is on/off; the runner then
	 * checks the file lists the word instead of reading it back whole. */
	const char *words[2];
};
#define DEBUGFS "/sys/kernel/debug/"

struct variable {
	const char *name;
	enum var_kind kind;
	enum var_stage stage;
	enum var_scope scope;
	unsigned flags;
	size_t off, len;	/* the field of struct plan; len 0: none */
	size_t bytes;		/* V_SIZE: the uint64_t field of its value, or 0 */
	const char *host_def, *guest_def;	/* NULL: unset unless the user or scenario sets it */
	const char *def_doc;	/* the default in words, where it is not one value */
	/* A default computed from variables taken before (into buf). */
	void (*def)(const struct plan *p, char *buf, size_t len);
	long min, max;		/* V_COUNT, and a list of counts */
	const struct vocab *vocab;
	const char *values;	/* the values in words, where no vocabulary lists them */
	void (*parse)(struct plan *p, const char *top);	/* takes the value itself */
	void (*after)(struct plan *p);	/* cross-checks, after the row is taken */
	const char *where;	/* V_CODE, .parse: the code that reads it */
	const char *doc;	/* the docs page that explains it */
	const char *help;
	/* A knob: its file.  A knob's count with no field of its own (len 0)
	 * is kept in struct plan's knob_value[], by its row. */
	const struct knob_file *knob;
};

#define F(field) .off = offsetof(struct plan, field), .len = sizeof(((struct plan *)0)->field)

extern const struct variable variables[];	/* ended by a row with no name */

/* A knob row's value for the plan (0: the kernel's own). */
long knob_value(const struct plan *p, const struct variable *r);

/* The user's value, else the scenario's, else def. */
const char *var_or(const char *name, const char *def);
/* NAME's value (else DEF) as a count within its row's range. */
long var_count(const char *name, const char *def);
/* Take every row of STAGE, in the table's order. */
void vars_stage(struct plan *p, enum var_stage stage, const char *top);
/* docs/variables.md. */
void variables_write_md(FILE *f);
/* Refusals naming the valid values. */
void check_list(const struct list *l, const struct vocab *v, const char *var);
void check_one(const char *val, const struct vocab *v, const char *var);
bool on_off_value(const char *var, const char *v);

/* The hooks the rows name (settings.c). */
void hugepages_setting(struct plan *p, const char *top);
void mitigations_setting(struct plan *p, const char *top);
void fault_around_setting(struct plan *p, const char *top);
void spins_setting(struct plan *p, const char *top);
void pg_huge_pages_setting(struct plan *p, const char *top);
void pg_version_setting(struct plan *p, const char *top);
void icount_epoch_setting(struct plan *p, const char *top);
void clients_default(const struct plan *p, char *buf, size_t len);
void costbench_default(const struct plan *p, char *buf, size_t len);
void channel_default(const struct plan *p, char *buf, size_t len);
void pg_shared_buffers_default(const struct plan *p, char *buf, size_t len);
void pg_repeat_default(const struct plan *p, char *buf, size_t len);
void pg_duration_default(const struct plan *p, char *buf, size_t len);
void locks_check(struct plan *p);
void stride_check(struct plan *p);
void steady_check(struct plan *p);
void evidence_check(struct plan *p);
void channel_check(struct plan *p);
void slice_ext_check(struct plan *p);
void bufbench_args_split(struct plan *p);
void profile_check(struct plan *p);
void callgraph_check(struct plan *p);
void vcpus_check(struct plan *p);
void mem_check(struct plan *p);
/* instruments.c: CONTROLS, after EVIDENCE, HOLD_EVENTS, PROFILE and SCENARIO. */
void controls_default(const struct plan *p, char *buf, size_t len);
void controls_check(struct plan *p);
/* kvm.c: after VCPUS. */
void pin_check(struct plan *p);
void guest_hugepages_check(struct plan *p);

#endif
