/*
 * Is this program running under qemu-user?  An arm64 chroot on an x86
 * machine (tests/native/arm64_chroot.sh) and make cross-test run aarch64
 * programs on an x86 kernel, whose /proc/cpuinfo QEMU 7.2 does not rewrite
 * for aarch64: x86's "vendor_id" line seen by an aarch64 program means every
 * instruction is being translated, and that qemu, not the kernel, places
 * the program's mappings (so hugetlb mappings, which need aligned
 * addresses, fail).  PREEMPTLAB_QEMU_USER=1 or 0 overrides the check.
 * Header-only: provenance (which pgsample links without the pool library)
 * and shmem both ask.
 */
#ifndef PREEMPTLAB_EMULATION_H
#define PREEMPTLAB_EMULATION_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int under_qemu_user(void)
{
	const char *env = getenv("PREEMPTLAB_QEMU_USER");
	if (env && *env)
		return strcmp(env, "0") != 0;
#if defined(__aarch64__)
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024];
	int x86 = 0;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "vendor_id", 9) == 0) {
			x86 = 1;
			break;
		}
	if (f)
		fclose(f);
	return x86;
#else
	return 0;
#endif
}

#endif
