/*
 * The lab's own vocabularies (lab_vocab.c): the values of dimensions that
 * only the planner, bufbench's option lists and the report know, beside
 * the buffer pool's (buffer_pool/vocab.h).
 */
#ifndef PREEMPTLAB_LAB_VOCAB_H
#define PREEMPTLAB_LAB_VOCAB_H

#include "vocab.h"

enum accel { ACCEL_KVM, ACCEL_TCG, ACCEL_ICOUNT };

extern const struct vocab vocab_accels, vocab_pg_huge_pages, vocab_pg_builtins,
	vocab_model_switch, vocab_scenarios, vocab_on_off;

/* Every vocabulary, the library's and the lab's, NULL-terminated, in the
 * order docs list them. */
extern const struct vocab *const vocab_all[];

#endif
