/*
 * build/runstate's parts (lab/runstate/): a state file read as the awk
 * before it read it, and the trust checks that keep a forged or stale one
 * (issue 35, N1) from removing, killing or writing anything of another's:
 * privacy of files and directories, the work directory's place, which
 * process a pid is now, the huge page count, the mark, the removal; then
 * one sweep over a directory of such files.  Everything is the test's own:
 * a temporary directory, its children and a fake huge page pool.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "runstate/runstate.h"

static char top[64];

/* What a call said, one memory stream at a time. */
static char *said;
static size_t said_len;
static FILE *say;

static void listen(void)
{
	if (say)
		fclose(say);
	free(said);
	said = NULL;
	say = open_memstream(&said, &said_len);
}

static const char *heard(void)
{
	fflush(say);
	return said ? said : "";
}

static bool heard_has(const char *text)
{
	return strstr(heard(), text) != NULL;
}

static char *path(const char *fmt, const char *a)
{
	static char buf[64][512];
	static int k;
	k = (k + 1) % 64;
	snprintf(buf[k], sizeof(buf[k]), fmt, top, a);
	return buf[k];
}

static void put(const char *p, const char *text, mode_t mode)
{
	FILE *f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	chmod(p, mode);
}

static bool exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

static bool file_is(const char *p, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(p, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return f && strcmp(buf, text) == 0;
}

static void test_parse(void)
{
	static const char text[] = "pid 123 456\nstarted 2026-01-01T00:00:00Z\n"
				   "work /tmp/tmp.A b\nrundir /r/x\n  pid 9 9\nwork /other\n"
				   "unit 10 20 host\nunit 11 guest\nunit\n"
				   "hugepages 2048 3\nhugepages 1048576 1\nhugepages 2048 0\n"
				   "rundir\t/tab\nbad\0line\nunit 12 30 guest";
	struct rs_state s;
	CHECK(rs_parse(text, sizeof(text) - 1, &s) == 0, "parse: a state file is read");
	CHECK(strcmp(s.pid, "123") == 0 && strcmp(s.pid_start, "456") == 0,
	      "parse: the first pid line wins, with its start time (%s %s)", s.pid, s.pid_start);
	CHECK(strcmp(s.started, "2026-01-01T00:00:00Z") == 0, "parse: started");
	CHECK(strcmp(s.work, "/tmp/tmp.A b") == 0, "parse: work is the rest of its line, blanks kept");
	CHECK(strcmp(s.rundir, "/r/x") == 0, "parse: rundir, the first line's");
	CHECK(s.n_units == 4, "parse: every unit line (%zu)", s.n_units);
	CHECK(s.n_units == 4 && strcmp(s.units[0].kind, "host") == 0 &&
		      strcmp(s.units[0].start, "20") == 0,
	      "parse: a unit with its start time");
	CHECK(s.n_units == 4 && strcmp(s.units[1].start, "guest") == 0 && !*s.units[1].kind,
	      "parse: an old unit line (no start time) has no kind, as awk's $4");
	CHECK(s.n_units == 4 && !*s.units[2].pid, "parse: a bare unit line has no pid");
	CHECK(s.n_units == 4 && strcmp(s.units[3].pid, "12") == 0,
	      "parse: the last line needs no newline; a line with a NUL byte is skipped");
	CHECK(s.n_pages == 2 && strcmp(s.pages[0].kb, "2048") == 0 && strcmp(s.pages[0].n, "0") == 0 &&
		      strcmp(s.pages[1].n, "1") == 0,
	      "parse: huge pages, the last count of each size wins");
	rs_state_free(&s);

	static const char old[] = "pid 77\nwork\t/w\n";
	CHECK(rs_parse(old, sizeof(old) - 1, &s) == 0 && strcmp(s.pid, "77") == 0 && !*s.pid_start &&
		      strcmp(s.work, "work\t/w") == 0 && !s.rundir && !s.started,
	      "parse: no start time, no rundir; 'work<TAB>' is not cut (as sub(/^work /))");
	rs_state_free(&s);

	CHECK(rs_digits("0123", 0) && !rs_digits("", 0) && !rs_digits("12a", 0) &&
		      !rs_digits("-1", 0) && rs_digits("12345678", 8) && !rs_digits("123456789", 8),
	      "digits: non-empty decimal digits, at most so many");
	CHECK(rs_pid("42") == 42 && rs_pid("99999999999") == -1 && rs_pid("x") == -1 &&
		      rs_pid(NULL) == -1,
	      "pid: digits within a pid's range");
}

static void test_private(void)
{
	struct stat st;
	char *d = path("%s/priv%s", "");
	mkdir(d, 0700);
	listen();
	int fd = rs_open_private(AT_FDCWD, d, d, "the dir", say);
	CHECK(fd >= 0 && !*heard(), "private: a 0700 directory of mine is trusted");
	if (fd >= 0)
		close(fd);
	chmod(d, 0770);
	listen();
	CHECK(rs_open_private(AT_FDCWD, d, d, "the dir", say) < 0 &&
		      heard_has("the dir ") && heard_has("is writable by its group or by others (mode 770): refused"),
	      "private: group-writable refused");
	chmod(d, 01777);
	listen();
	CHECK(rs_open_private(AT_FDCWD, d, d, "the dir", say) < 0 && heard_has("(mode 1777)"),
	      "private: world-writable (sticky) refused, its mode as stat %%a prints it");
	chmod(d, 0700);
	char *l = path("%s/link%s", "");
	symlink(d, l);
	listen();
	CHECK(rs_open_private(AT_FDCWD, l, l, "the dir", say) < 0 && heard_has("is a symbolic link: refused"),
	      "private: a symbolic link to a private directory is refused");
	listen();
	CHECK(rs_open_private(AT_FDCWD, path("%s/none%s", ""), "none", "the dir", say) < 0 &&
		      heard_has("the dir none cannot be read: refused"),
	      "private: what is not there is refused");
	if (geteuid() == 0) {
		chown(d, 65534, 65534);
		listen();
		CHECK(rs_open_private(AT_FDCWD, d, d, "the dir", say) < 0 &&
			      heard_has("belongs to uid 65534, not to you (uid 0): refused"),
		      "private: another uid's is refused");
		chown(d, 0, 0);
	} else {
		SKIP("private: another uid's directory needs root to make");
	}
	stat(d, &st);
	CHECK(rs_check_private(&st, d, "x", stderr) == 0, "private: rs_check_private on a stat");
}

static void test_work(void)
{
	struct rs_work w;
	char *t = path("%s/t%s", ""), *ok = path("%s/t/tmp.A%s", "");
	mkdir(t, 0700);
	mkdir(ok, 0700);
	listen();
	CHECK(rs_work_check(ok, t, &w, say) == 0 && w.fd >= 0 && strcmp(w.name, "tmp.A") == 0,
	      "work: a private tmp.* right in TMPDIR is trusted");
	rs_work_close(&w);
	char tslash[600];
	snprintf(tslash, sizeof(tslash), "%s/", t);
	char *alias = path("%s/talias%s", "");
	symlink(t, alias);
	CHECK(rs_work_check(path("%s/talias/tmp.A%s", ""), alias, &w, say) == 0 && w.fd >= 0,
	      "work: in TMPDIR as given, a symbolic link to the real one");
	rs_work_close(&w);
	CHECK(rs_work_check(ok, alias, &w, say) == 0 && w.fd >= 0, "work: in TMPDIR resolved");
	rs_work_close(&w);
	CHECK(rs_work_check(path("%s/t/tmp.gone%s", ""), t, &w, say) == 0 && w.fd < 0,
	      "work: one that no longer exists is trusted (its units may run), nothing to remove");
	rs_work_close(&w);
	CHECK(!*heard(), "work: and none of that is said");

	const char *bad[] = { path("%s/t/tmp.A/../../victim%s", ""), path("%s/t/sub/tmp.B%s", ""),
			      path("%s/t/work%s", ""), path("%s/t/tmp.A/%s", ""), "tmp.A" };
	for (int i = 0; i < 5; i++) {
		listen();
		CHECK(rs_work_check(bad[i], t, &w, say) < 0 && w.fd < 0 && w.tmp_fd < 0 &&
			      heard_has("is not a tmp.* directory right in ") &&
			      heard_has(": left alone, and no process is stopped by it"),
		      "work: %s refused", bad[i]);
	}
	symlink(path("%s/priv%s", ""), path("%s/t/tmp.L%s", ""));
	listen();
	CHECK(rs_work_check(path("%s/t/tmp.L%s", ""), t, &w, say) < 0 &&
		      heard_has("is not a directory of its own (a symbolic link?): left alone"),
	      "work: a tmp.* that is a symbolic link is refused");
	put(path("%s/t/tmp.F%s", ""), "", 0600);
	listen();
	CHECK(rs_work_check(path("%s/t/tmp.F%s", ""), t, &w, say) < 0 && heard_has("not a directory of its own"),
	      "work: a tmp.* that is a file is refused");
	mkdir(path("%s/t/tmp.G%s", ""), 0770);
	chmod(path("%s/t/tmp.G%s", ""), 0770);
	listen();
	CHECK(rs_work_check(path("%s/t/tmp.G%s", ""), t, &w, say) < 0 &&
		      heard_has("  its work directory ") && heard_has("(mode 770): refused") &&
		      heard_has("so it is left alone, and no process is stopped by it"),
	      "work: a group-writable tmp.* is refused");
}

/* A child in its own process group with WORK/runner.sh in its arguments. */
static pid_t runner(const char *work)
{
	char arg[600];
	snprintf(arg, sizeof(arg), "%s/runner.sh", work);
	pid_t p = fork();
	if (p == 0) {
		setpgid(0, 0);
		execl("/bin/sh", "sh", "-c", "sleep 100; :", "fake", arg, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 100 && !rs_cmdline_has(p, arg); i++)
		usleep(20000);
	return p;
}

static void reap(pid_t p)
{
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
}

static void test_proc(void)
{
	char me[32], later[40];
	rs_start(getpid(), me, sizeof(me));
	CHECK(rs_digits(me, 0), "proc: my start time (%s)", me);
	CHECK(rs_same(getpid(), me), "proc: I am the process that started then");
	snprintf(later, sizeof(later), "%lld", atoll(me) + 1);
	CHECK(!rs_same(getpid(), later), "proc: not one that started at another time");
	CHECK(!rs_same(getpid(), "") && !rs_same(getpid(), "12x"), "proc: no start time, no process");
	snprintf(later, sizeof(later), "0%s", me);
	CHECK(!rs_same(getpid(), later), "proc: the start time as recorded, compared as text");

	pid_t z = fork();
	if (z == 0)
		_exit(0);
	char zs[32] = "", st[1024] = "";
	for (int i = 0; i < 100; i++) {
		char p[64];
		snprintf(p, sizeof(p), "/proc/%d/stat", (int)z);
		FILE *f = fopen(p, "r");
		if (f) {
			if (!fgets(st, sizeof(st), f))
				st[0] = '\0';
			fclose(f);
		}
		if (strstr(st, ") Z "))
			break;
		usleep(10000);
	}
	rs_start(z, zs, sizeof(zs));
	CHECK(strstr(st, ") Z ") && *zs && !rs_same(z, zs),
	      "proc: a zombie (killed, not yet waited for) does not run");
	waitpid(z, NULL, 0);
	CHECK(!rs_same(z, zs), "proc: nor does a pid that is gone");

	char *w = path("%s/t/tmp.P%s", "");
	pid_t r = runner(w);
	char rs[32];
	rs_start(r, rs, sizeof(rs));
	CHECK(rs_is(r, rs, w), "proc: a process with WORK/runner.sh in its arguments is the unit");
	CHECK(!rs_is(r, rs, path("%s/t/tmp.%s", "")), "proc: not by a prefix of WORK's name");
	CHECK(!rs_is(r, rs, path("%s/t/tmp.P/runner.sh/x%s", "")), "proc: nor by a path below its argument");
	snprintf(later, sizeof(later), "%lld", atoll(rs) + 1);
	CHECK(!rs_is(r, later, w), "proc: nor at another start time");
	CHECK(rs_cmdline_has(r, "sleep 100") && !rs_cmdline_has(r, "run-plan.sh"),
	      "proc: its command line, arguments joined");
	reap(r);
}

static void test_give_back(void)
{
	char *pool = path("%s/hp/hugepages-2048kB%s", "");
	char *nr = path("%s/hp/hugepages-2048kB/nr_hugepages%s", "");
	mkdir(path("%s/hp%s", ""), 0700);
	mkdir(pool, 0700);
	struct rs_ctx c = { .hp_root = path("%s/hp%s", ""), .say = NULL };
	static const char text[] = "hugepages 2048 4\nhugepages 2048x 5\nhugepages 1048576 1\n"
				   "hugepages 64 abc\nhugepages 4 0\n";
	struct rs_state s;
	rs_parse(text, sizeof(text) - 1, &s);
	put(nr, "10\n", 0600);
	listen();
	c.say = say;
	rs_give_back(&c, &s);
	CHECK(file_is(nr, "6\n"), "hugepages: 4 of 10 given back, by difference");
	CHECK(heard_has("  4 huge pages of 2048 kB it had reserved: given back (10 -> 6)"),
	      "hugepages: and said");
	CHECK(heard_has("huge pages of 64 kB: 'abc' is not a count: left alone"),
	      "hugepages: a count that is none is said and left");
	CHECK(!heard_has("2048x") && !heard_has("1048576") && !heard_has(" 4 kB"),
	      "hugepages: a size that is none, a pool not there, a count of 0: nothing");
	rs_state_free(&s);
	static const char more[] = "hugepages 2048 11\n";
	rs_parse(more, sizeof(more) - 1, &s);
	listen();
	c.say = say;
	rs_give_back(&c, &s);
	CHECK(file_is(nr, "6\n") && heard_has("11 huge pages of 2048 kB it had reserved: more than "
					      "the pool holds (6): left alone"),
	      "hugepages: never more than the pool holds");
	rs_state_free(&s);
}

static void test_mark(void)
{
	char *rd = path("%s/rd%s", ""), *mark = path("%s/rd/logs/killed-outright.txt%s", "");
	mkdir(rd, 0700);
	mkdir(path("%s/rd/logs%s", ""), 0700);
	struct rs_ctx c = { .self = 4242 };
	listen();
	c.say = say;
	rs_mark(&c, rd);
	CHECK(file_is(mark, "killed outright: no manifest; found and undone by the run of pid 4242\n"),
	      "mark: results without a manifest are marked");
	CHECK(heard_has("have no manifest: marked (logs/killed-outright.txt)"), "mark: and said");
	listen();
	c.say = say;
	rs_mark(&c, rd);
	CHECK(heard_has("logs/killed-outright.txt already exists (or cannot be created): not written"),
	      "mark: an existing mark is not written over");
	unlink(mark);
	put(path("%s/rd/manifest.json%s", ""), "{}", 0600);
	listen();
	c.say = say;
	rs_mark(&c, rd);
	CHECK(!exists(mark) && !*heard(), "mark: results with a manifest are not marked");
	listen();
	c.say = say;
	rs_mark(&c, "");
	rs_mark(&c, path("%s/nothing%s", ""));
	CHECK(!*heard(), "mark: no results directory, nothing");

	char *rl = path("%s/rl%s", ""), *target = path("%s/target%s", "");
	mkdir(rl, 0700);
	mkdir(target, 0700);
	symlink(target, path("%s/rl/logs%s", ""));
	listen();
	c.say = say;
	rs_mark(&c, rl);
	CHECK(!exists(path("%s/target/killed-outright.txt%s", "")) &&
		      heard_has("is a symbolic link: refused") && heard_has("so its results are not marked"),
	      "mark: nothing written through a symbolic link logs/");
	mkdir(path("%s/rg%s", ""), 0775);
	chmod(path("%s/rg%s", ""), 0775);
	mkdir(path("%s/rg/logs%s", ""), 0700);
	listen();
	c.say = say;
	rs_mark(&c, path("%s/rg%s", ""));
	CHECK(!exists(path("%s/rg/logs/killed-outright.txt%s", "")) && heard_has("not marked"),
	      "mark: nor into a directory others may write");
}

static void test_remove(void)
{
	struct rs_work w;
	char *t = path("%s/t%s", ""), *wd = path("%s/t/tmp.R%s", "");
	mkdir(wd, 0700);
	mkdir(path("%s/t/tmp.R/a%s", ""), 0700);
	mkdir(path("%s/t/tmp.R/a/b%s", ""), 0500);
	put(path("%s/t/tmp.R/a/f%s", ""), "x", 0400);
	mkdir(path("%s/keep%s", ""), 0700);
	put(path("%s/keep/precious%s", ""), "p", 0600);
	symlink(path("%s/keep%s", ""), path("%s/t/tmp.R/a/link%s", ""));
	listen();
	CHECK(rs_work_check(wd, t, &w, say) == 0 && rs_remove_work(&w) == 0 && !exists(wd),
	      "remove: the work directory and all in it are removed");
	rs_work_close(&w);
	CHECK(exists(path("%s/keep/precious%s", "")), "remove: not what a symbolic link in it leads to");
	mkdir(wd, 0700);
	CHECK(rs_work_check(wd, t, &w, say) == 0 && rmdir(wd) == 0 && rs_remove_work(&w) == 1,
	      "remove: one gone meanwhile (its stopped runner removed it) is no failure");
	rs_work_close(&w);
}

static void test_recover(void)
{
	char *sd = path("%s/state%s", ""), *t = path("%s/t%s", "");
	char *wd = path("%s/t/tmp.D%s", ""), me[32], text[2048];
	mkdir(sd, 0700);
	mkdir(wd, 0700);
	mkdir(path("%s/rdd%s", ""), 0700);
	mkdir(path("%s/rdd/logs%s", ""), 0700);
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	pid_t unit = runner(wd), other = runner(path("%s/t/tmp.O%s", ""));
	char us[32], os[32];
	rs_start(unit, us, sizeof(us));
	rs_start(other, os, sizeof(os));
	rs_start(getpid(), me, sizeof(me));

	snprintf(text, sizeof(text), "pid %d 1\nstarted S\nwork %s\nrundir %s\nunit %d %s guest\nunit %d %s guest\n",
		 (int)dead, wd, path("%s/rdd%s", ""), (int)unit, us, (int)other, os);
	put(path("%s/state/run-1.state%s", ""), text, 0600);
	snprintf(text, sizeof(text), "pid %d %s\nwork %s\n", (int)getpid(), me, path("%s/t/tmp.A%s", ""));
	put(path("%s/state/run-2.state%s", ""), text, 0600);
	put(path("%s/state/run-3.state%s", ""), "pid x\n", 0600);
	snprintf(text, sizeof(text), "pid %d\nwork %s\n", (int)dead, path("%s/t/tmp.A%s", ""));
	put(path("%s/state/run-4.state%s", ""), text, 0666);
	symlink(path("%s/state/run-1.state%s", ""), path("%s/state/run-5.state%s", ""));
	put(path("%s/state/other.txt%s", ""), "pid 1\n", 0600);

	/* A tracefs root as bufbench leaves it killed outright (tracefs_reap). */
	char inst[64];
	snprintf(inst, sizeof(inst), "/instances/preemptlab-%d", (int)dead);
	mkdir(path("%s/tracefs%s", ""), 0700);
	mkdir(path("%s/tracefs/instances%s", ""), 0700);
	mkdir(path("%s/tracefs%s", inst), 0700);
	const char *roots[] = { path("%s/tracefs%s", ""), NULL };
	struct rs_ctx c = { .tmp = t, .hp_root = path("%s/hp%s", ""), .tracefs = roots,
			    .self = getpid(), .say = NULL };
	listen();
	c.say = say;
	int fd = open(sd, O_PATH | O_DIRECTORY);
	rs_recover(&c, fd, sd);
	close(fd);
	char says[300];
	snprintf(says, sizeof(says), "a run killed outright (pid %d, S) left state behind (%s/run-1.state); undoing it:",
		 (int)dead, sd);
	CHECK(heard_has(says), "recover: the dead run is said");
	usleep(200000);
	CHECK(waitpid(unit, NULL, WNOHANG) == unit, "recover: its unit (its start time, in its work directory) is stopped");
	CHECK(kill(other, 0) == 0 && heard_has("is not its unit (another start time, or not running in"),
	      "recover: a process running elsewhere is not");
	CHECK(!exists(wd) && heard_has("its work directory ") && heard_has(": removed"),
	      "recover: its work directory is removed");
	CHECK(exists(path("%s/rdd/logs/killed-outright.txt%s", "")), "recover: its results are marked");
	CHECK(!exists(path("%s/state/run-1.state%s", "")), "recover: its state file is removed");
	CHECK(exists(path("%s/state/run-2.state%s", "")) && exists(path("%s/t/tmp.A%s", "")),
	      "recover: a live run's file (my pid, my start time) is left alone");
	CHECK(!exists(path("%s/state/run-3.state%s", "")), "recover: a file with no pid is removed");
	CHECK(exists(path("%s/state/run-4.state%s", "")) &&
		      heard_has("run-4.state is not a private file of yours: left alone (remove it yourself)"),
	      "recover: a world-writable state file is left alone");
	CHECK(exists(path("%s/state/run-5.state%s", "")) && heard_has("run-5.state is a symbolic link: refused"),
	      "recover: a symbolic link of a state file is left alone");
	CHECK(exists(path("%s/state/other.txt%s", "")), "recover: other names are not state files");
	snprintf(says, sizeof(says), "preemptlab: removed the tracefs instance %s%s of a run killed outright",
		 roots[0], inst);
	CHECK(!exists(path("%s/tracefs%s", inst)) && heard_has(says),
	      "recover: a dead bufbench's tracefs instance is removed, said as the runner's");
	reap(other);
	waitpid(unit, NULL, 0);
}

static void test_state_dir(void)
{
	int fd;
	char *nested = path("%s/sd/a/b%s", "");
	setenv("PREEMPTLAB_STATE_DIR", nested, 1);
	listen();
	char *d = rs_state_dir(path("%s/t%s", ""), &fd, say);
	struct stat st;
	CHECK(d && strcmp(d, nested) == 0 && stat(nested, &st) == 0 && (st.st_mode & 07777) == 0700,
	      "state dir: PREEMPTLAB_STATE_DIR is made, private");
	if (d)
		close(fd);
	free(d);
	chmod(nested, 0777);
	listen();
	d = rs_state_dir(path("%s/t%s", ""), &fd, say);
	CHECK(!d && heard_has("(mode 777): refused") &&
		      heard_has("a run's state there could be forged: make it yours and private (chmod 700) "
				"or set PREEMPTLAB_STATE_DIR"),
	      "state dir: a world-writable one is refused, naming the fix");
	put(path("%s/sd/file%s", ""), "", 0600);
	setenv("PREEMPTLAB_STATE_DIR", path("%s/sd/file%s", ""), 1);
	listen();
	d = rs_state_dir(path("%s/t%s", ""), &fd, say);
	CHECK(!d && heard_has("cannot create the state directory ") && heard_has("(PREEMPTLAB_STATE_DIR)"),
	      "state dir: a file in its place cannot be made one");
	unsetenv("PREEMPTLAB_STATE_DIR");
	setenv("TMPDIR", path("%s/t//%s", ""), 1);
	char *tmp = rs_tmp();
	CHECK(tmp && strcmp(tmp, path("%s/t%s", "")) == 0, "tmp: TMPDIR without its trailing slashes");
	free(tmp);
	setenv("TMPDIR", "", 1);
	tmp = rs_tmp();
	CHECK(tmp && strcmp(tmp, "/tmp") == 0, "tmp: /tmp when TMPDIR is empty");
	free(tmp);
}

int main(void)
{
	snprintf(top, sizeof(top), "/tmp/test_runstate.XXXXXX");
	if (!mkdtemp(top))
		return 1;
	test_parse();
	test_private();
	test_work();
	test_proc();
	test_give_back();
	test_mark();
	test_remove();
	test_recover();
	test_state_dir();
	if (say)
		fclose(say);
	free(said);
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "chmod -R u+rwx '%s'; rm -rf '%s'", top, top);
	if (system(cmd) != 0)
		return 1;
	return check_failures != 0;
}
