/*
 * libFuzzer target: the report's JSON reader (lab/common/json_read.c) on
 * any bytes, then what the report does with a document's strings: the
 * sanitiser of both modes (escape.c) and the shell quoting (repro.c).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "json_read.h"
#include "report/report.h"

static void strings(const struct jr_val *v)
{
	if (v->type == JR_STR) {
		free(esc_dup(v->str, ESC_TXT));
		free(esc_dup(v->str, ESC_MD));
		free(shell_words(v->str));
	}
	for (size_t i = 0; i < v->n; i++)
		strings(v->items[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256];
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	free(esc_dup(text, ESC_TXT));
	free(esc_dup(text, ESC_MD));
	struct jr_val *v = jr_parse(text, err, sizeof(err));
	if (v) {
		double d;
		jr_num(v, "results.tps", &d);
		jr_str(v, "provenance.kernel_label", "");
		jr_path(v, "results.phases");
		strings(v);
		jr_free(jr_copy(v));
		jr_free(v);
	}
	free(text);
	return 0;
}
