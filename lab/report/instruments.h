/*
 * The instruments a run carried, read from its document (and perf/ for a
 * profile), and what the report does with them (issue 24): where a cell
 * has bare runs beside its instrumented ones (CONTROLS, SCENARIO=overhead),
 * its timings come from the bare runs and its counts (faults and switches
 * per hold, q_M, T_tail) from the instrumented ones.
 */
#ifndef PREEMPTLAB_REPORT_INSTRUMENTS_H
#define PREEMPTLAB_REPORT_INSTRUMENTS_H

#include <stddef.h>

#include "json_read.h"

#define RI_TRACE 1u	/* --trace-holds: the kernel's trace joined */
#define RI_KPROBE 2u	/* its faults from the kprobe on handle_mm_fault */
#define RI_RECORDS 4u	/* --hold-records alone */
#define RI_EVENTS 8u	/* --hold-events (window) */
#define RI_PROFILE 16u	/* perf record around the run */
#define RI_CHANNEL 32u	/* --trace-channel: sched_waking and the folio-lock kprobes too */

/* The instruments of runs/<name>.json under dir. */
unsigned run_instruments(const struct json_read_val *doc, const char *dir, const char *name);
/* "EVIDENCE trace (tracepoint faults)", "hold records + perf profile", "none". */
void instruments_label(unsigned set, char *buf, size_t len);
/* The bare twin's name of an instrumented run's: NAME-ctl, the
 * SCENARIO=overhead suffix (-trace, -kprobe, ...) replaced. */
void control_name(const char *name, char *buf, size_t len);

#endif
