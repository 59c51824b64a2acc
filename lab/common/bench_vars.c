/* The names and the safe characters of `make bench` variables (bench_vars.h). */
#include <string.h>

#include "bench_vars.h"

/* The names of variables.def's rows, in its order. */
#define VAR(name, ...) #name,
const char *const bench_vars[] = {
#include "variables.def"
	NULL,
};
#undef VAR

bool bench_var_known(const char *name)
{
	for (int i = 0; bench_vars[i]; i++)
		if (!strcmp(bench_vars[i], name))
			return true;
	return false;
}

bool bench_value_safe(const char *value)
{
	for (const unsigned char *c = (const unsigned char *)value; *c; c++) {
		/* Not isalnum(): the locale must not widen the set. */
		bool alnum = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9');
		if (!alnum && !strchr(" ,._:/+=@-", *c))
			return false;
	}
	return true;
}
