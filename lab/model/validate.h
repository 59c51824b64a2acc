/* Predictions against a run's measurements (validate.c). */
#ifndef PREEMPTLAB_MODEL_VALIDATE_H
#define PREEMPTLAB_MODEL_VALIDATE_H

#include <stddef.h>
#include <stdio.h>

#include "extract.h"

/* The table into out; MX_OK, or MX_ERR / MX_IN_HOLD with err. */
int mv_validate(const char *tsv, const char *run, FILE *out, char *err, size_t errlen);

#endif
