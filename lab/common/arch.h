/*
 * The architectures a guest can be, as data: what QEMU machine boots one,
 * where its console and result channel are, what its Debian kernels and
 * packages offer.  Everything in the lab that differs by architecture reads
 * a row of this table (lab/common/arch.c); a new architecture is a new row,
 * plus its keys in the kernel catalog (package_<arch>:, models_<arch>:).
 */
#ifndef PREEMPTLAB_COMMON_ARCH_H
#define PREEMPTLAB_COMMON_ARCH_H

#include <stdbool.h>
#include <stddef.h>

#define ARCH_MAX_ARGS 8

struct arch {
	const char *name;		/* Debian's: amd64 */
	const char *uname;		/* uname -m: x86_64 */
	const char *qemu;		/* the emulator */
	const char *qemu_var;		/* the variable that names another one */
	const char *qemu_package;	/* Debian's package of it */
	const char *machine;		/* -machine under TCG */
	const char *machine_kvm;	/* -machine under KVM */
	const char *console;		/* the guest's console device (the first -serial) */
	/* The result channel on {channel}, after the console; and the command
	 * line word that names its device in the guest ("" : ttyS1, init's default). */
	const char *channel[ARCH_MAX_ARGS];
	const char *chan_param;
	/* Under icount: -cpu and whatever else keeps the host's entropy out. */
	const char *cpu_icount[ARCH_MAX_ARGS];
	/* The lab cross-builds its guest programs for it from another host
	 * with this compiler prefix (make cross-guest); NULL: it does not. */
	const char *cross_prefix;
	/* Catalog keys without a suffix are this architecture's (models:,
	 * package:); every other one reads models_<name>:, package_<name>:. */
	bool catalog_base;
	/* Its initramfs takes the host's /bin/busybox and PostgreSQL (else
	 * Debian's packages of it, through the private apt). */
	bool host_userland;
	/* Debian builds its kernels with PREEMPT_NONE available: a baseline
	 * without none is a mistake there, a fact elsewhere. */
	bool debian_none;
	/* Why no guest kernel of it has the rseq slice extension, or NULL. */
	const char *no_rseq_slice;
	/* For the shell (build/plan --arch-info, lab/plan/info.c): the
	 * kernel's ARCH= and image target, the multiarch triplet of its
	 * libraries, what readelf -h and file(1) call its machine, and the
	 * qemu-user program that runs its static binaries elsewhere. */
	const char *kernel_arch;
	const char *kernel_image;
	const char *triplet;
	const char *readelf_machine;
	/* Its ELF header's e_machine (build/elfclosure reads it). */
	unsigned elf_machine;
	const char *file_machine;
	const char *qemu_user;
	/* Debian's package of the cross compiler (cross_prefix's gcc). */
	const char *cross_package;
};

/* The row named NAME (Debian's or uname -m's name), or NULL. */
const struct arch *arch_find(const char *name);
/* "amd64 or arm64": the names, for messages. */
const char *arch_names(void);
/* The host's row's name (Debian's), or uname -m's when the table lacks it. */
const char *arch_host(void);
/* The rows, in order (NULL past the last). */
const struct arch *arch_at(size_t i);

#endif
