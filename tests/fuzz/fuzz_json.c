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

static void strings(const struct json_read_val *v)
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
	struct json_read_val *v = json_read_parse(text, err, sizeof(err));
	if (v) {
		double d;
		json_read_num(v, "results.tps", &d);
		json_read_str(v, "provenance.kernel_label", "");
		json_read_path(v, "results.phases");
		strings(v);
		json_read_free(json_read_copy(v));
		json_read_free(v);
	}
	free(text);
	return 0;
}
