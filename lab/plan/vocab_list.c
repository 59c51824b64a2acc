/*
 * A list variable's items as the vocabulary spells them (list_canonical,
 * plan.h): rseq:05 and rseq:5 named two cells of one mitigation.  Apart
 * from vars.c, whose parser the fuzz harness builds without the
 * vocabulary (tests/e2e/fuzz_smoke.sh).
 */
#include <stdio.h>

#include "plan.h"
#include "vocab.h"

void list_canonical(struct list *l, const struct vocab *v, const char *var)
{
	char choices[512], canon[PLAN_NAME];
	int n = l->n;
	l->n = 0;	/* the items kept so far, for list_has; item i >= l->n */
	for (int i = 0; i < n; i++) {
		const char *why = vocab_range_error(v, l->item[i]);
		if (vocab_canonical(v, l->item[i], canon, sizeof(canon)) != 0)
			plan_die("%s: '%s' is not a %s value; use %s", var, l->item[i], v->key,
				 vocab_choices(v, choices, sizeof(choices)));
		if (why)
			plan_die("%s: '%s': %s", var, l->item[i], why);
		if (!list_has(l, canon))
			snprintf(l->item[l->n++], PLAN_NAME, "%s", canon);
	}
}
