/*
 * The one parser of sizes: make's POOL/RELATION/PG_SHARED_BUFFERS (the
 * planner), bufbench's --pool/--relation, and PostgreSQL's SHOW values
 * (pgsample) once had three, with different limits and spellings.
 */
#ifndef PREEMPTLAB_SIZE_H
#define PREEMPTLAB_SIZE_H

#include <stdint.h>

/* The largest size taken: 1 PiB, far above any machine's memory. */
#define SIZE_MAX_BYTES (1ull << 50)

enum size_result { SIZE_OK = 0, SIZE_BAD, SIZE_TOO_LARGE };

/*
 * Decimal digits with at most one '.', then an optional unit k, M, G or T
 * (either case, powers of 1024), optionally followed by B as PostgreSQL
 * writes them ("128kB", "16MB"); no unit is bytes.  Nothing else: no
 * blanks, signs, exponents, hex or inf, which strtod alone would take.
 * Zero is SIZE_BAD; more than SIZE_MAX_BYTES is SIZE_TOO_LARGE.
 */
enum size_result size_parse(const char *s, uint64_t *bytes);

#endif
