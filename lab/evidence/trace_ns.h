/*
 * The trace at its clock's full resolution.  tracefs prints a nanosecond
 * clock (trace_clock=mono) in `trace` as seconds and microseconds, rounded;
 * with options/raw the same buffer prints "PID CPU NS type: N", one line
 * per entry, with the nanoseconds and nothing else of the event.  Read
 * both views of the stopped buffer and this writes the text with each
 * event header's timestamp carrying all nine decimals.
 */
#ifndef PREEMPTLAB_TRACE_NS_H
#define PREEMPTLAB_TRACE_NS_H

#include <stdio.h>

/*
 * Write text to out with the nanoseconds of raw.  The entries must pair
 * one to one (same count, same pid, the rounded microsecond within 500 ns
 * of the raw stamp); the number paired, or -1 with nothing useful in out
 * when they do not (a buffer that changed between the two reads).
 */
long trace_ns_merge(FILE *text, FILE *raw, FILE *out);

#endif
