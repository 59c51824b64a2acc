#include "pgsample_tally.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPINDELAY_KEY "Timeout:SpinDelay"

void tally_init(struct wait_tally *t)
{
	memset(t, 0, sizeof(*t));
}

static void add_event(struct wait_tally *t, const char *key)
{
	for (size_t i = 0; i < t->nev; i++) {
		if (strcmp(t->ev[i].key, key) == 0) {
			t->ev[i].n++;
			return;
		}
	}
	if (t->nev == TALLY_MAX_EVENTS) {
		t->dropped++;
		return;
	}
	snprintf(t->ev[t->nev].key, TALLY_KEY_LEN, "%s", key);
	t->ev[t->nev].n = 1;
	t->nev++;
}

void tally_row(struct wait_tally *t, const char *state, const char *type, const char *event)
{
	char key[TALLY_KEY_LEN];

	if (!state || strcmp(state, "active") != 0)
		return;
	t->active_sum++;
	if (!type || !*type) {
		t->on_cpu++;
		return;
	}
	snprintf(key, sizeof(key), "%s:%s", type, event ? event : "");
	if (strcmp(key, SPINDELAY_KEY) == 0)
		t->spindelay++;
	add_event(t, key);
}

void tally_end_sample(struct wait_tally *t)
{
	t->samples++;
}

static int by_count_desc(const void *a, const void *b)
{
	const struct wait_count *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

void tally_write_events(struct json *j, const struct wait_tally *t)
{
	struct wait_count *sorted = malloc(sizeof(*sorted) * (t->nev ? t->nev : 1));
	size_t n = 0;

	for (size_t i = 0; i < t->nev; i++)
		if (strcmp(t->ev[i].key, SPINDELAY_KEY) != 0 && sorted)
			sorted[n++] = t->ev[i];
	if (sorted)
		qsort(sorted, n, sizeof(*sorted), by_count_desc);
	json_begin_object(j, "wait_events");
	json_uint(j, SPINDELAY_KEY, t->spindelay);
	for (size_t i = 0; i < n; i++)
		json_uint(j, sorted[i].key, sorted[i].n);
	json_end_object(j);
	free(sorted);
}
