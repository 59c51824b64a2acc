/*
 * The cell runner (lab/runner/): carries out one unit of a plan
 * (lab/plan/), in a guest (its initramfs's /bin/runner, started by
 * guest/init) or on the host (build/runner, started by
 * scripts/run-plan.sh), and sends each result over the channel the
 * moment it exists, so a later crash or hang loses nothing finished.  The
 * host side reads the channel the same way for both
 * (scripts/qemu-channel.sh).  The channel's protocol is in main.c.
 */
#ifndef PREEMPTLAB_RUNNER_H
#define PREEMPTLAB_RUNNER_H

#include <stddef.h>

#define PREEMPT "/sys/kernel/debug/sched/preempt"
#define NR_HUGEPAGES "/proc/sys/vm/nr_hugepages"
#define PERF_EVENT "cpu-clock"

/* What the runner was given and found, read once at start. */
struct runner {
	const char *conf_path, *cells, *work;
	const char *kind, *label, *top, *bench, *static_model;
	int guest;
	/* Whether bufbench cells are profiled: "on" (perf record here),
	 * "host" (scripts/profile.sh) or "off"; why not, where asked. */
	const char *prof;
	char prof_why[512];
	/* The last reservation's shortfall, for a failing cell's reason. */
	char hp_short[256];
};
extern struct runner R;

/* main.c: the console log, "runner: ..." on standard output. */
void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Stop here when a signal came (restore, exit 128 + signal), as the shell
 * runner's traps did once the program it waited for had ended. */
void signal_check(void);

/* channel.c: the result channel. */
int chan_open(const char *path);
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One checked block: "@@PL KIND NAME BYTES SHA256", base64, "@@PL END NAME". */
void send_block(const char *kind, const char *name, const char *path);

/* files.c: small file chores. */
/* snprintf, for paths and messages that are cut where too long. */
void strf(char *out, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* FILE's text with trailing newlines removed, or NULL (caller frees). */
char *file_read(const char *path, size_t *len);
/* $(cat FILE) into OUT; -1 when unreadable. */
int file_get(const char *path, char *out, size_t size);
/* echo VALUE > FILE; -1 when it fails. */
int file_put(const char *path, const char *value);
/* cat FILE to standard output. */
void file_cat(const char *path);
/* $(tail -n N FILE) into OUT; BLANKS: newlines as blanks (| tr '\n' ' ') */
void file_tail(const char *path, int n, int blanks, char *out, size_t size);
int file_exists(const char *path);
int file_regular(const char *path);
int file_nonempty(const char *path);
long file_size(const char *path);
void remove_tree(const char *path);

/* proc.c: the programs the runner starts, as `ARGV < /dev/null > OUT
 * 2>&1` (OUT NULL: the runner's own output; APPEND: >>); ENV one extra
 * NAME=VALUE or NULL.  The shell's $? of it. */
int run(char *const argv[], const char *out, int append, const char *env);
/* command -v NAME */
int in_path(const char *name);

/* kernel.c: models, knobs and huge pages. */
void model_line(char *out, size_t size);
void model_now(char *out, size_t size);
int set_model(const char *m, char *why, size_t size);
int models_usable(char *why, size_t size);
int set_knobs(char *why, size_t size);
void restore_init(void);
void restore_model(void);
void set_hugepages(const char *pages);

/* bufbench.c, pg.c, after.c: the cells, and what runs after them. */
void run_bufbench(const char *id, const char *model, const char *pages, const char *args,
		  const char *cell_prof);
void run_pg(const char *id, const char *huge_pages, const char *servers);
void profile_probe(void);
void run_costbench(void);
void run_repro_min(void);

#endif
