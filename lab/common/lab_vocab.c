/*
 * The lab's own vocabulary: the values of dimensions the buffer pool
 * library does not implement (how QEMU runs a guest, PostgreSQL's
 * settings, how a guest's models are chosen, the scenarios), beside
 * buffer_pool/vocab.c's, whose functions read both.
 */
#include "lab_vocab.h"

#define ITEMS(a) a, sizeof(a) / sizeof((a)[0])

static const struct vocab_item accels[] = {
	{ "kvm", ACCEL_KVM, "hardware virtualization, used where a probe boot succeeds" },
	{ "tcg", ACCEL_TCG, "QEMU's emulation (multi-threaded): slow and noisy, works everywhere" },
	{ "icount", ACCEL_ICOUNT, "single-threaded TCG on instruction-counted virtual time (ICOUNT_SHIFT)" },
};
const struct vocab vocab_accels = {
	"accels", "ACCEL", NULL, "how QEMU runs a guest (default: kvm if a probe boots, else icount)",
	ITEMS(accels)
};

static const struct vocab_item pg_huge_pages[] = {
	{ "off", 0, "huge_pages = off: 4 KB pages" },
	{ "on", 1, "huge_pages = on: the server refuses to start without them" },
	{ "try", 2, "huge_pages = try: falls back to 4 KB silently" },
	{ "compare", 3, "off and on, one cluster each" },
};
const struct vocab vocab_pg_huge_pages = {
	"pg_huge_pages", "PG_HUGE_PAGES", NULL,
	"PostgreSQL's huge_pages setting (default: follows the page sizes asked of bufbench)",
	ITEMS(pg_huge_pages)
};

static const struct vocab_item pg_builtins[] = {
	{ "select-only", 0, "pgbench -b select-only" },
	{ "simple-update", 1, "pgbench -b simple-update (the report's workload)" },
	{ "tpcb-like", 2, "pgbench -b tpcb-like" },
};
const struct vocab vocab_pg_builtins = {
	"pg_builtins", "PG_BUILTINS", NULL, "pgbench's built-in scripts", ITEMS(pg_builtins)
};

static const struct vocab_item model_switch[] = {
	{ "boot", 0, "one guest boot per model, chosen with preempt= on the command line" },
	{ "runtime", 1, "one boot per kernel, models switched through debugfs (crashed TCG guests)" },
};
const struct vocab vocab_model_switch = {
	"model_switch", "MODEL_SWITCH", NULL, "how a guest kernel's models are chosen",
	ITEMS(model_switch)
};

static const struct vocab_item scenarios[] = {
	{ "default", 0, "the quick matrix: a 128 MB pool that fills within the first second" },
	{ "seed", 1, "the report's ratios scaled to the machine: a cold pool filling (docs/scenarios.md)" },
	{ "overhead", 2, "each instrument's cost: every cell bare and with each instrument, same seed, one boot (docs/evidence.md)" },
	{ "mitigations", 3, "seed's fill regime, every mitigation x model against none/none (docs/mitigations.md)" },
	{ "hot-lock", 4, "the report's regime in miniature: a strategy lock busy most of a 20 s fill, waiters spinning (docs/scenarios.md)" },
};
const struct vocab vocab_scenarios = {
	"scenarios", "SCENARIO", NULL, "named defaults for the other variables", ITEMS(scenarios)
};

/* A switch whose absence means "the kernel's": the knobs that take on/off. */
static const struct vocab_item on_off[] = {
	{ "on", 1, "turned on for the run" },
	{ "off", 0, "turned off for the run" },
};
const struct vocab vocab_on_off = {
	"on_off", NULL, NULL, "a kernel switch the run sets (unset: the kernel's own)", ITEMS(on_off)
};

/* The library's vocabularies and the lab's, in the order docs list them. */
const struct vocab *const vocab_all[] = {
	&vocab_scenarios, &vocab_pages, &vocab_hugepages, &vocab_models, &vocab_locks,
	&vocab_strategies, &vocab_mitigations, &vocab_workloads, &vocab_accels, &vocab_model_switch,
	&vocab_pg_huge_pages, &vocab_pg_builtins, NULL,
};
