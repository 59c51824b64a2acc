/*
 * Where a number came from.  Every result document carries the same
 * provenance object (docs/json.md) so that a report can set bufbench and
 * pgbench numbers side by side per kernel, model and page size, and so a
 * number pasted into a mail can be traced to the machine that made it.
 */
#ifndef PREEMPTLAB_PROVENANCE_H
#define PREEMPTLAB_PROVENANCE_H

#include "json.h"
#include "kernel_tick.h"

struct provenance {
	char kernel_label[64];
	char kernel_release[128];
	char kernel_version[256];
	char preempt_model[32];
	char preempt_model_source[160];
	char preempt_model_raw[128];
	struct kernel_tick tick;	/* CONFIG_HZ and NO_HZ from the kernel's config */
	/* Set by the caller: what was asked and what was obtained. */
	char page_policy[32];
	long page_size_kb;
	char page_size_source[96];
	char lock[32];
	char strategy[32];
	int cpus;
	char virtualization[64];
	char clocksource[64];
	char cpu_model[128];
	char arch[65];		/* uname machine (x86_64, aarch64): utsname field size */
	double sleep_cost_ns;
	double fault_cost_ns;
	double spin_cost_ns;	/* set by bufbench: one tas spin iteration; 0 unmeasured */
	int fault_around_pages;	/* pages mapped per read fault on shared memory; -1 unknown */
	long slice_ext_ns;	/* rseq slice extension length (debugfs); -1: none here */
	long base_slice_ns;	/* EEVDF's sched/base_slice_ns (debugfs); -1: unreadable */
	const char *sched_hrtick;	/* prov_sched_hrtick() */
	char compiler[64];
	char libc[32];
	char postgresql[192];		/* the server's SELECT version() */
	char postgresql_package[128];	/* the Debian package it came from, and its suite */
	char postgresql_patch[32];	/* the lab's patch of a source build (pg/patches), or "" */
	char command_line[2048];
	char timestamp[32];
	char hostname[128];
};

/* Fill everything the machine can tell; measures sleep and fault cost. */
void prov_collect(struct provenance *p, int argc, char **argv);

/* Write the "provenance" object into an open JSON object. */
void prov_write(struct json *j, const struct provenance *p);

/*
 * Parse the debugfs preempt file ("none voluntary (full) lazy" or
 * "full (lazy)"): copies the parenthesised model to out.  Returns 0 on
 * success, -1 if no model is marked.
 */
int prov_parse_preempt(const char *line, char *out, size_t outlen);

/* Virtualization as none | kvm | tcg | other:<what>, the plan's (--unit-conf's virt) when given. */
void prov_detect_virt(char *out, size_t outlen);
/* 1 when this program runs under qemu-user (user-mode emulation). */
int prov_under_qemu_user(void);

/*
 * The scheduler's high-resolution tick, "on" or "off", from debugfs
 * sched/features (HRTICK or NO_HRTICK); "unknown" where it cannot be read.
 * Its cross-CPU call on a remote enqueue interrupts the target CPU under
 * every model, so it decides whether lazy's IPI-less wakeup shows.
 */
const char *prov_sched_hrtick(void);

#endif
