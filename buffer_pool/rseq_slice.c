#include "rseq_slice.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <unistd.h>

/* From the 7.0 uapi, absent from Debian 12's headers. */
#define PR_RSEQ_SLICE_EXTENSION 79
#define PR_RSEQ_SLICE_EXTENSION_SET 2
#define PR_RSEQ_SLICE_EXT_ENABLE 0x01
#define RSEQ_FLAG_SLICE_EXT_ENABLED (1u << 5)
#define SLICE_CTRL_OFFSET 28	/* after mm_cid in struct rseq */
#define SLICE_CTRL_END (SLICE_CTRL_OFFSET + 4)
/* 471 on x86-64 and in asm-generic/unistd.h, the table arm64 uses. */
#define SYS_rseq_slice_yield 471
#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE 27
#endif
/*
 * The abort-handler signature is per architecture (glibc's bits/rseq.h and
 * the kernel's selftests/rseq/rseq-*.h): x86 UD1-prefixed 0x53053053, arm64
 * BRK #0x45E0 in code endianness (big-endian arm64 stores data byte-swapped).
 */
#ifndef RSEQ_SIG
#if defined(__x86_64__) || defined(__i386__)
#define RSEQ_SIG 0x53053053
#elif defined(__aarch64__) && defined(__AARCH64EB__)
#define RSEQ_SIG 0x00bc28d4
#elif defined(__aarch64__)
#define RSEQ_SIG 0xd428bc00
#else
#error "no rseq signature for this architecture: add it from the kernel's selftests/rseq"
#endif
#endif

struct slice_ctrl {
	uint8_t request;	/* ours to set; the kernel clears it */
	volatile uint8_t granted;
	uint16_t reserved;
};

/* Our own registration, used when glibc registered none (tunable off). */
static _Thread_local _Alignas(64) unsigned char own_area[64];
static _Thread_local struct slice_ctrl *ctrl;
/* Registration survives fork: a child of a registered parent must not redo it. */
static _Thread_local bool own_registered;

static unsigned char *glibc_area(void)
{
	return (unsigned char *)__builtin_thread_pointer() + __rseq_offset;
}

bool rseq_slice_needs_own_area(void)
{
	unsigned long feature = getauxval(AT_RSEQ_FEATURE_SIZE);
	return feature >= SLICE_CTRL_END && __rseq_size > 0 && __rseq_size < feature;
}

void rseq_slice_reexec(char **argv, const char *prog)
{
	const char *old = getenv("GLIBC_TUNABLES");
	char buf[1024];

	if (getenv("PREEMPTLAB_RSEQ_REEXEC")) {
		/* The exec through /proc/self/exe named the task "exe": give
		 * it its name back, which traces and the census go by. */
		prctl(PR_SET_NAME, prog, 0, 0, 0);
		return;
	}
	if (!rseq_slice_needs_own_area())
		return;
	snprintf(buf, sizeof(buf), "%s%sglibc.pthread.rseq=0", old ? old : "", old ? ":" : "");
	setenv("GLIBC_TUNABLES", buf, 1);
	setenv("PREEMPTLAB_RSEQ_REEXEC", "1", 1);
	execv("/proc/self/exe", argv);
	fprintf(stderr, "%s: note: could not restart without glibc's rseq area: %s\n", prog,
		strerror(errno));
}

int rseq_slice_enable(char *err, size_t errlen)
{
	unsigned long feature = getauxval(AT_RSEQ_FEATURE_SIZE);
	unsigned char *area;

	if (feature < SLICE_CTRL_END) {
		snprintf(err, errlen,
			 "this kernel's rseq has no slice_ctrl field (AT_RSEQ_FEATURE_SIZE=%lu < %d): "
			 "boot a 7.0+ kernel built with CONFIG_RSEQ_SLICE_EXTENSION=y",
			 feature, SLICE_CTRL_END);
		return -1;
	}
	if (__rseq_size > 0) {
		/*
		 * glibc registered the thread already and a second
		 * registration fails with EINVAL, so its area must do; from
		 * 7.1 the kernel also wants it to cover the feature size.
		 */
		if (__rseq_size < feature) {
			snprintf(err, errlen,
				 "glibc registered a %u-byte rseq area, the kernel needs %lu for the "
				 "slice extension: rerun with GLIBC_TUNABLES=glibc.pthread.rseq=0",
				 __rseq_size, feature);
			return -1;
		}
		area = glibc_area();
	} else {
		uint32_t len = (uint32_t)(feature > 32 ? (feature + 31) & ~31ul : 32);
		if (!own_registered && (len > sizeof(own_area) ||
					syscall(SYS_rseq, own_area, len, 0, RSEQ_SIG) != 0)) {
			snprintf(err, errlen, "rseq registration (%u bytes) failed: %s", len,
				 strerror(errno));
			return -1;
		}
		own_registered = true;
		area = own_area;
	}
	if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_SET,
		  PR_RSEQ_SLICE_EXT_ENABLE, 0, 0) != 0) {
		const char *why = errno == EINVAL ? "the kernel lacks CONFIG_RSEQ_SLICE_EXTENSION" :
				  errno == ENXIO ? "no rseq area registered for this thread" :
						   "disabled at boot (rseq_slice_ext=off?)";
		snprintf(err, errlen, "prctl(PR_RSEQ_SLICE_EXTENSION) failed: %s (%s)",
			 strerror(errno), why);
		return -1;
	}
	uint32_t flags = __atomic_load_n((uint32_t *)(area + 16), __ATOMIC_RELAXED);
	if (!(flags & RSEQ_FLAG_SLICE_EXT_ENABLED)) {
		snprintf(err, errlen, "prctl succeeded but rseq flags 0x%x lack SLICE_EXT_ENABLED",
			 flags);
		return -1;
	}
	ctrl = (struct slice_ctrl *)(area + SLICE_CTRL_OFFSET);
	return 0;
}

void rseq_slice_use_ctrl(void *slice_ctrl)
{
	ctrl = slice_ctrl;
}

void rseq_slice_request(void)
{
	__atomic_store_n(&ctrl->request, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

enum rseq_slice_outcome rseq_slice_withdraw(void)
{
	/*
	 * The kernel grants on the way back to user mode after an interrupt
	 * or exception, by clearing request and setting granted in one store,
	 * and it can do so between any two of our instructions.  Reading
	 * granted before clearing request would lose a grant that lands in
	 * between: we would return "not needed", never yield, and the kernel
	 * would let the grant run out and schedule us out anyway.  So clear
	 * request first, with an exchange, which an interrupt cannot split
	 * (one locked instruction on x86; an exclusive pair on arm64, which an
	 * interrupt makes retry).  Once request is 0 no grant can arrive, and
	 * granted read after it is final.  What the exchange returns tells a
	 * request nobody needed (still set) from one the kernel took away.
	 */
	uint8_t was_requested = __atomic_exchange_n(&ctrl->request, 0, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (ctrl->granted)
		return SLICE_GRANTED;
	return was_requested ? SLICE_NOT_NEEDED : SLICE_REVOKED;
}

bool rseq_slice_yield(void)
{
	/* 1: we gave the CPU back inside the grant; 0: it had already ended. */
	return syscall(SYS_rseq_slice_yield) == 1;
}
