/*
 * libFuzzer target: the planner's variable parser (lab/plan/vars.c) on
 * any bytes.  The input is VAR=value words separated by NUL bytes (so a
 * value may hold newlines and TABs, issue 28's D3 and D4); every variable
 * of the vocabulary is then read as the planner reads it (var_get, which
 * refuses control characters and lengths over PATH_MAX), as a list, a
 * count and a size, and the command line is rebuilt.  plan_die returns
 * here through plan_die_hook instead of exiting.
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bench_vars.h"
#include "plan/plan.h"

static jmp_buf back;

static void died(void)
{
	longjmp(back, 1);
}

#define TRY(stmt)                  \
	do {                       \
		if (!setjmp(back)) \
			stmt;      \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct list l;
	static char cmd[1 << 16];
	static char *argv[80];
	plan_die_hook = died;
	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	int argc = 0;
	for (char *s = buf; s <= buf + size && argc < 80; s += strlen(s) + 1)
		if (*s)
			argv[argc++] = s;
	vars_clear();
	TRY(vars_from_args(argc, argv, 0));
	for (int i = 0; bench_vars[i]; i++) {
		const char *volatile v = NULL;
		TRY(v = var_get(bench_vars[i]));
		if (!v)
			continue;
		TRY(list_split(&l, bench_vars[i], v));
		TRY(parse_count(bench_vars[i], v, 0, 1L << 30));
		TRY(parse_size(bench_vars[i], v));
	}
	TRY(plan_forced());
	TRY(command_line(cmd, sizeof(cmd)));
	vars_clear();
	free(buf);
	return 0;
}
