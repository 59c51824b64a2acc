/*
 * The make variables `make bench` takes: the planner's vocabulary of names
 * (lab/plan/vars.c reads and records them) and the only names the report
 * lets into a reproduce command (lab/report/repro.c), so a document cannot
 * add a variable of its own to a line that readers run.
 */
#ifndef PREEMPTLAB_BENCH_VARS_H
#define PREEMPTLAB_BENCH_VARS_H

#include <stdbool.h>

/* variables.def's names, in the order the planner's command shows them;
 * NULL-terminated. */
extern const char *const bench_vars[];

bool bench_var_known(const char *name);

/*
 * A value that may stand on a make command line someone else runs: only
 * [A-Za-z0-9 ,._:/+=@-].  make expands $(...) even inside the shell's
 * single quotes, so '$' is never one; quotes, backslashes and control
 * characters are not either, and nothing the planner accepts needs them.
 */
bool bench_value_safe(const char *value);

#endif
