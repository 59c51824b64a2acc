#include "tracefs.h"

#include "trace_join.h"
#include "trace_ns.h"
#include "tracefs_reap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int put(struct tracefs *t, const char *file, const char *val, char *err, size_t errlen)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", t->dir, file);
	int fd = open(p, O_WRONLY | O_TRUNC);
	ssize_t n = -1;
	if (fd >= 0) {
		n = write(fd, val, strlen(val));
		close(fd);
	}
	if (n < 0 && err)
		snprintf(err, errlen, "cannot write '%s' to %s: %s", val, p, strerror(errno));
	return n < 0 ? -1 : 0;
}

/* Append to a file of the tracefs root (kprobe_events is global); errno says why not. */
static int put_root(struct tracefs *t, const char *file, const char *val)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", t->root, file);
	int fd = open(p, O_WRONLY | O_APPEND);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, val, strlen(val));
	int saved = errno;
	close(fd);
	errno = saved;
	return n < 0 ? -1 : 0;
}

static bool has(struct tracefs *t, const char *file)
{
	char p[512];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", t->dir, file);
	return stat(p, &st) == 0;
}

/*
 * The faults on [lo, hi) as page_fault_user (and page_fault_kernel where it
 * exists: kernel-mode faults on user addresses), or, on architectures
 * without those tracepoints, as a kprobe on handle_mm_fault, where every
 * architecture's fault handler goes for a user address: its second
 * argument is the address ($arg2, which needs no debug information).
 */
static int arm_faults(struct tracefs *t, const char *want, const char *filter, char *err,
		      size_t errlen)
{
	if (!want)
		want = getenv("PREEMPTLAB_FAULT_EVENT");
	bool tracepoint = has(t, "events/exceptions/page_fault_user");
	if (want && strcmp(want, "tracepoint") == 0 && !tracepoint) {
		snprintf(err, errlen, "--fault-event tracepoint: this kernel has no "
			 "exceptions:page_fault_user tracepoint (only x86 and riscv have it); "
			 "--fault-event kprobe");
		return -1;
	}
	bool kprobe = (want && strcmp(want, "kprobe") == 0) || !tracepoint;
	char file[160];
	if (!kprobe) {
		/*
		 * page_fault_kernel is left off: a hold makes no system call, so
		 * none of its faults is taken in kernel mode, while every pread
		 * into a fresh buffer page is, and each paid the filter for
		 * nothing (issue 24: the instrument's cost).
		 */
		t->fault_event = "exceptions:page_fault_user";
		if (put(t, "events/exceptions/page_fault_user/filter", filter, err, errlen) ||
		    put(t, "events/exceptions/page_fault_user/enable", "1", err, errlen))
			return -1;
		return 0;
	}
	char def[160];
	snprintf(t->kprobe, sizeof(t->kprobe), "preemptlab_%d/" TRACE_KPROBE_FAULT,
		 (int)getpid());
	snprintf(def, sizeof(def), "p:%s handle_mm_fault address=$arg2:x64\n", t->kprobe);
	if (put_root(t, "kprobe_events", def) != 0) {
		snprintf(err, errlen,
			 "cannot define the kprobe event %s on handle_mm_fault in "
			 "%s/kprobe_events (%s; the kernel needs CONFIG_KPROBE_EVENTS): %s",
			 t->kprobe, t->root, strerror(errno),
			 want && strcmp(want, "kprobe") == 0
				 ? "--fault-event kprobe asked for it; --fault-event tracepoint "
				   "uses exceptions:page_fault_user"
				 : "this kernel has no exceptions:page_fault_user tracepoint "
				   "either (only x86 and riscv have it)");
		t->kprobe[0] = 0;
		return -1;
	}
	t->fault_event = "kprobe:handle_mm_fault";
	snprintf(file, sizeof(file), "events/%s/filter", t->kprobe);
	if (put(t, file, filter, err, errlen))
		return -1;
	snprintf(file, sizeof(file), "events/%s/enable", t->kprobe);
	return put(t, file, "1", err, errlen);
}

static int find_root(struct tracefs *t, char *err, size_t errlen)
{
	static const char *const where[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct stat st;
	for (int i = 0; i < 2; i++) {
		char p[160];
		snprintf(p, sizeof(p), "%s/instances", where[i]);
		if (stat(p, &st) == 0) {
			snprintf(t->root, sizeof(t->root), "%s", where[i]);
			return 0;
		}
	}
	/*
	 * The busybox guest mounts nothing it does not need: mount it here,
	 * attached nowhere (fsopen, fsmount: Linux 5.2) and reached through
	 * /proc/self/fd/N, the same in the clients forked later.  Such a
	 * mount goes with the last descriptor of it, so with bufbench and its
	 * clients however they end: one at /sys/kernel/tracing stayed for ever
	 * after a bufbench killed outright (issue 35).  Where that cannot be
	 * had, mounted there as before (tracefs_close unmounts it).
	 */
	int fs = fsopen("tracefs", FSOPEN_CLOEXEC);
	if (fs >= 0) {
		int m = -1;
		if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
			m = fsmount(fs, FSMOUNT_CLOEXEC, 0);
		close(fs);
		if (m >= 0) {
			snprintf(t->root, sizeof(t->root), "/proc/self/fd/%d", m);
			t->mounted_here = true;
			t->detached = true;
			t->detached_fd = m;
			return 0;
		}
	}
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0) {
		snprintf(t->root, sizeof(t->root), "/sys/kernel/tracing");
		t->mounted_here = true;
		return 0;
	}
	snprintf(err, errlen,
		 "no tracefs: /sys/kernel/tracing/instances is missing and mounting tracefs "
		 "failed (%s); run as root on a kernel with CONFIG_FTRACE, or without --trace-holds",
		 strerror(errno));
	return -1;
}

int tracefs_put(struct tracefs *t, const char *file, const char *val, char *err, size_t errlen)
{
	return put(t, file, val, err, errlen);
}

int tracefs_open_bare(struct tracefs *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	if (find_root(t, err, errlen) != 0)
		return -1;
	tracefs_reap(t->root, stderr);
	snprintf(t->dir, sizeof(t->dir), "%s/instances/preemptlab-%d", t->root, (int)getpid());
	if (mkdir(t->dir, 0700) != 0) {
		snprintf(err, errlen, "cannot create the tracefs instance %s: %s (read-only "
			 "tracefs or lockdown?)", t->dir, strerror(errno));
		t->dir[0] = 0;
		return -1;
	}
	return 0;
}

int tracefs_open(struct tracefs *t, uint64_t fault_lo, uint64_t fault_hi,
		 const char *fault_event, char *err, size_t errlen)
{
	char v[256];
	if (tracefs_open_bare(t, err, errlen) != 0)
		return -1;
	snprintf(v, sizeof(v), "%d", (int)getpid());
	/* Only the page faults on the pool's control and descriptors: those are the holds'. */
	char filter[128];
	snprintf(filter, sizeof(filter), "address >= 0x%llx && address < 0x%llx",
		 (unsigned long long)fault_lo, (unsigned long long)fault_hi);
	/*
	 * The text the join reads: symbols without offsets or addresses (its
	 * rules match whole frame names), one line per event, not raw.  These
	 * are the defaults, but the instance inherits nothing we can assume.
	 */
	static const char *const plain[] = { "options/sym-offset", "options/sym-addr",
					     "options/raw", "options/hex", "options/bin",
					     "options/latency-format", NULL };
	for (int i = 0; plain[i]; i++)
		if (has(t, plain[i]) && put(t, plain[i], "0", err, errlen)) {
			tracefs_close(t);
			return -1;
		}
	/* Timer interrupts on the holders' CPUs, where the architecture traces them (x86). */
	t->timer = has(t, "events/irq_vectors/local_timer_entry/enable") &&
		   put(t, "events/irq_vectors/local_timer_entry/enable", "1", NULL, 0) == 0;
	/*
	 * A stack only where the join can use one: a switch out of a task
	 * still runnable (R, or R+ when preempted) or blocked uninterruptibly
	 * (D: a fault waiting), never of the idle task (pid 0), of a sleep
	 * (S: the waiters' backoff, most of the switches) or of an idle
	 * kworker (I, 0x80).  A hold makes no system call, so its holder never
	 * sleeps in S.  Unwinding every switch cost about 5 points of fill
	 * tps under icount (docs/evidence.md); a kernel that refuses the
	 * filter gets the unfiltered trigger.  No sched_wakeup: the join
	 * reads none.
	 */
	const char *stack_if = "stacktrace if prev_pid != 0 && prev_state != 1 && prev_state != 128";
	if (put(t, "tracing_on", "0", err, errlen) || put(t, "trace_clock", "mono", err, errlen) ||
	    put(t, "buffer_size_kb", "16384", err, errlen) ||
	    put(t, "options/event-fork", "1", err, errlen) ||
	    put(t, "set_event_pid", v, err, errlen) ||
	    put(t, "events/sched/sched_switch/enable", "1", err, errlen) ||
	    (put(t, "events/sched/sched_switch/trigger", stack_if, NULL, 0) &&
	     put(t, "events/sched/sched_switch/trigger", "stacktrace", err, errlen)) ||
	    arm_faults(t, fault_event, filter, err, errlen)) {
		tracefs_close(t);
		return -1;
	}
	return 0;
}

/* Define the kprobe event i ("p:group/name FUNC folio=$arg1:x64 ...") and enable it, filtered. */
static int folio_probe(struct tracefs *t, int i, const char *name, const char *func,
		       const char *fetch, const char *filter, char *err, size_t errlen)
{
	char def[256], file[192];
	snprintf(t->folio_probes[i], sizeof(t->folio_probes[i]), "preemptlab_%d/%s",
		 (int)getpid(), name);
	snprintf(def, sizeof(def), "p:%s %s %s\n", t->folio_probes[i], func, fetch);
	if (put_root(t, "kprobe_events", def) != 0) {
		snprintf(err, errlen, "cannot define the kprobe event %s on %s in %s/kprobe_events "
			 "(%s; the kernel needs CONFIG_KPROBE_EVENTS)", t->folio_probes[i], func,
			 t->root, strerror(errno));
		t->folio_probes[i][0] = 0;
		return -1;
	}
	snprintf(file, sizeof(file), "events/%s/filter", t->folio_probes[i]);
	if (filter && put(t, file, filter, err, errlen))
		return -1;
	snprintf(file, sizeof(file), "events/%s/enable", t->folio_probes[i]);
	return put(t, file, "1", err, errlen);
}

int tracefs_channel(struct tracefs *t, char *err, size_t errlen)
{
	if (put(t, "events/sched/sched_waking/enable", "1", err, errlen))
		return -1;
	t->channel = true;
	/*
	 * The folios need kprobe events (CONFIG_KPROBE_EVENTS): without them
	 * the census says "not traced" and the wakeups are still measured.
	 */
	char why[256];
	if (folio_probe(t, 0, TRACE_FOLIO_WAIT, "__folio_lock", "folio=$arg1:x64", NULL, why,
			sizeof(why)) ||
	    folio_probe(t, 1, TRACE_FOLIO_UNLOCK, "folio_unlock",
			"folio=$arg1:x64 flags=+0($arg1):x64", "flags & 0x80", why, sizeof(why)))
		fprintf(stderr, "%s: no folio census (its kprobes): %s\n", program_invocation_short_name,
			why);
	return 0;
}

int tracefs_on(struct tracefs *t, bool on)
{
	return t->dir[0] ? put(t, "tracing_on", on ? "1" : "0", NULL, 0) : -1;
}

uint64_t tracefs_lost(struct tracefs *t)
{
	uint64_t lost = 0;
	for (int cpu = 0; cpu < 4096; cpu++) {
		char p[512], line[128];
		snprintf(p, sizeof(p), "%s/per_cpu/cpu%d/stats", t->dir, cpu);
		FILE *f = fopen(p, "r");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f)) {
			unsigned long long n;
			if (sscanf(line, "overrun: %llu", &n) == 1 ||
			    sscanf(line, "dropped events: %llu", &n) == 1)
				lost += n;
		}
		fclose(f);
	}
	return lost;
}

/* A copy of the instance's trace file, printed with options/raw as raw says. */
static FILE *read_view(struct tracefs *t, bool raw)
{
	char p[512];
	if (put(t, "options/raw", raw ? "1" : "0", NULL, 0) != 0)
		return NULL;
	snprintf(p, sizeof(p), "%s/trace", t->dir);
	FILE *in = fopen(p, "r"), *out = tmpfile();
	char buf[65536];
	size_t n;
	while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	if (in)
		fclose(in);
	if (raw)
		put(t, "options/raw", "0", NULL, 0);
	if (out)
		rewind(out);
	return out;
}

const char *tracefs_trace_path(struct tracefs *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s/trace", t->dir);
	const char *tmp = getenv("TMPDIR");
	snprintf(t->merged, sizeof(t->merged), "%s/preemptlab-trace-%d.txt",
		 tmp && *tmp ? tmp : "/tmp", (int)getpid());
	/*
	 * The raw view is small (about 30 bytes an entry) and is copied; the
	 * text is read straight from the instance: a guest's /tmp is its RAM.
	 */
	FILE *raw = read_view(t, true), *text = fopen(buf, "r");
	FILE *out = fopen(t->merged, "w");
	long n = text && raw && out ? trace_ns_merge(text, raw, out) : -1;
	if (out && fclose(out) != 0)
		n = -1;
	if (text)
		fclose(text);
	if (raw)
		fclose(raw);
	if (n < 0) {
		fprintf(stderr, "%s: the trace's nanoseconds could not be "
			"read back (%s); joining at the text's microseconds\n", program_invocation_short_name,
			out ? "its raw and text views differ" : strerror(errno));
		unlink(t->merged);
		t->merged[0] = 0;
		return buf;
	}
	snprintf(buf, len, "%s", t->merged);
	return buf;
}

static bool instances_left(struct tracefs *t)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/instances", t->root);
	DIR *d = opendir(p);
	struct dirent *e;
	bool any = false;
	while (d && !any && (e = readdir(d)))
		any = e->d_name[0] != '.';
	if (d)
		closedir(d);
	return any;
}

void tracefs_close(struct tracefs *t)
{
	if (t->dir[0]) {
		put(t, "tracing_on", "0", NULL, 0);
		put(t, "events/sched/sched_switch/trigger", "!stacktrace", NULL, 0);
		if (t->kprobe[0]) {
			char file[160];
			snprintf(file, sizeof(file), "events/%s/enable", t->kprobe);
			put(t, file, "0", NULL, 0);
		}
		for (int i = 0; i < 2; i++)
			if (t->folio_probes[i][0]) {
				char file[160];
				snprintf(file, sizeof(file), "events/%s/enable", t->folio_probes[i]);
				put(t, file, "0", NULL, 0);
			}
		if (rmdir(t->dir) != 0)
			fprintf(stderr, "%s: cannot remove the tracefs instance %s: %s\n",
				program_invocation_short_name, t->dir, strerror(errno));
		t->dir[0] = 0;
	}
	/* The kprobe event is global: it goes once no instance uses it. */
	if (t->kprobe[0]) {
		char undef[96];
		snprintf(undef, sizeof(undef), "-:%s\n", t->kprobe);
		if (put_root(t, "kprobe_events", undef) != 0)
			fprintf(stderr, "%s: cannot remove the kprobe event %s: %s\n",
				program_invocation_short_name, t->kprobe, strerror(errno));
		t->kprobe[0] = 0;
	}
	if (t->merged[0]) {
		unlink(t->merged);
		t->merged[0] = 0;
	}
	for (int i = 0; i < 2; i++)
		if (t->folio_probes[i][0]) {
			char undef[96];
			snprintf(undef, sizeof(undef), "-:%s\n", t->folio_probes[i]);
			if (put_root(t, "kprobe_events", undef) != 0)
				fprintf(stderr, "%s: cannot remove the kprobe event %s: %s\n",
					program_invocation_short_name, t->folio_probes[i], strerror(errno));
			t->folio_probes[i][0] = 0;
		}
	/* Another run's instance still there: the mount is in use, leave it to the last. */
	if (t->mounted_here && t->detached) {
		close(t->detached_fd);
		t->detached = false;
		t->mounted_here = false;
	} else if (t->mounted_here && !instances_left(t)) {
		umount(t->root);
		t->mounted_here = false;
	}
}
