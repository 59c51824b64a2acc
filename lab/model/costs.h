/*
 * Fault costs for X0 per page size (x0page.h) from costbench documents
 * (lab/costbench, preemptlab.costbench/1): the median ns of fault_4k_alloc,
 * fault_4k_map, fault_2m_alloc and fault_2m_map, in microseconds.  A run
 * with COSTBENCH=on keeps one per kernel and model in RUN/logs.
 */
#ifndef PREEMPTLAB_MODEL_COSTS_H
#define PREEMPTLAB_MODEL_COSTS_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs.h"

struct fault_costs {
	double alloc_us[MI_PAGES], map_us[MI_PAGES];	/* 0: not measured */
	int docs;			/* costbench documents that gave a number */
	char source[160];
};

/* One costbench document into c (medians of what it measured); false with err. */
bool fc_read(const char *path, struct fault_costs *c, char *err, size_t errlen);

/*
 * Every RUN/logs/costbench-*.json: the median over the documents of each
 * cost, preferring model none's documents where there are any (X0 is
 * none's).  0 documents is not an error: c->docs says.
 */
void fc_scan_run(const char *rundir, struct fault_costs *c);

#endif
