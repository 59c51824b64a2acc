/*
 * --mitigation rseq:N: the slice extension's grant length for this run.
 * The length is machine-wide (debugfs), so bufbench sets it only for the
 * run and puts the old value back at exit, as the cell runner (lab/runner/) does for
 * SLICE_EXT_US on a host.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bufbench.h"

#define SLICE_EXT_FILE "/sys/kernel/debug/rseq/slice_ext_nsec"

static long saved_ns = -1;

static long read_ns(void)
{
	FILE *f = fopen(SLICE_EXT_FILE, "r");
	long v = -1;
	if (f && fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

static int write_ns(long ns)
{
	FILE *f = fopen(SLICE_EXT_FILE, "w");
	if (!f)
		return -1;
	int rc = fprintf(f, "%ld\n", ns) < 0;
	return fclose(f) != 0 || rc ? -1 : 0;
}

void mitigation_restore_slice_ext(void)
{
	if (saved_ns >= 0 && read_ns() != saved_ns)
		write_ns(saved_ns);
	saved_ns = -1;
}

int mitigation_set_slice_ext(long us, char *err, size_t errlen)
{
	long old = read_ns();
	if (old < 0) {
		snprintf(err, errlen, "no readable %s (a kernel without "
			 "CONFIG_RSEQ_SLICE_EXTENSION, or debugfs not mounted)%s", SLICE_EXT_FILE,
#ifdef __aarch64__
			 "; on arm64 the extension needs GENERIC_ENTRY, which arm64 does not "
			 "select in 7.2 (init/Kconfig:2004, arch/arm64/Kconfig)"
#else
			 ""
#endif
			 );
		return -1;
	}
	if (old == us * 1000)
		return 0;
	if (write_ns(us * 1000) != 0 || read_ns() != us * 1000) {
		snprintf(err, errlen, "%s: %ld us not accepted (%s; reads %ld)", SLICE_EXT_FILE, us,
			 strerror(errno), read_ns());
		return -1;
	}
	saved_ns = old;
	atexit(mitigation_restore_slice_ext);
	return 0;
}
