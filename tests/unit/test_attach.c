/*
 * build/attach's decisions (lab/attach/): which files are the run's own,
 * the config excerpts, the source's note, reproduce.sh's text, and what is
 * dropped to fit.  The shell's end to end: tests/e2e/attach_*.sh.
 */
#include "check.h"
#include "attach/attach.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/test_attach.XXXXXX";

static const char *at(const char *name)
{
	static char path[2][512];
	static int turn;
	snprintf(path[turn ^= 1], sizeof(path[0]), "%s/%s", dir, name);
	return path[turn];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");
	if (!f || fputs(text, f) == EOF || fclose(f)) {
		perror(name);
		exit(1);
	}
}

static char *slurp(const char *name)
{
	static char buf[4096];
	FILE *f = fopen(at(name), "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

static void excerpts(void)
{
	CHECK(attach_excerpt_line("CONFIG_PREEMPT_LAZY=y"), "the preemption model is kept");
	CHECK(attach_excerpt_line("# CONFIG_NUMA is not set"), "an option not set is kept");
	CHECK(attach_excerpt_line("CONFIG_SCHED_DEBUG=y"), "SCHED_ options are kept");
	CHECK(!attach_excerpt_line("CONFIG_SCHEDSTATS=y"), "SCHED without its '_' is not");
	CHECK(!attach_excerpt_line("#CONFIG_HZ_100=y"), "a comment without its space is not");
	CHECK(!attach_excerpt_line(" CONFIG_HZ=1000"), "an indented line is not");
	CHECK(!attach_excerpt_line("CONFIG_FOO=y"), "other options are not");
	put("config", "CONFIG_HZ=1000\nCONFIG_FOO=y\nCONFIG_CC_VERSION_TEXT=\"gcc\"");
	CHECK(attach_write_excerpt(at("config"), at("config.excerpt")) == 0 &&
		      !strcmp(slurp("config.excerpt"), "CONFIG_HZ=1000\nCONFIG_CC_VERSION_TEXT=\"gcc\"\n"),
	      "an excerpt holds the kept lines, each ended (the last had no newline)");
	CHECK(attach_write_excerpt(at("none"), at("none.excerpt")) < 0 && !slurp("none.excerpt")[0],
	      "an unreadable config gives an empty excerpt and -1");

	struct {
		const char *path, *base;
	} bases[] = { { "/c/build/7.0/config", "7.0-config" }, { "config", ".-config" },
		      { "/config", "-config" },		     { "x//y//config", "y-config" } };
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		char *b = attach_config_base(bases[i].path);
		CHECK(b && !strcmp(b, bases[i].base), "%s is %s in the attachment (%s)", bases[i].path,
		      bases[i].base, b);
		free(b);
	}
	CHECK(attach_release_ok("6.1.0-18-amd64") && attach_release_ok("6.12.1+deb13~bpo"),
	      "a release is a plain name");
	CHECK(!attach_release_ok("") && !attach_release_ok("..") && !attach_release_ok("../x") &&
		      !attach_release_ok("a/b") && !attach_release_ok("6.*"),
	      "an empty release, a path or a glob names no config of /boot");
}

static void own_files(void)
{
	struct attach_limit lim = { "ATTACH_FILE_MAX_KB", "1", 1 };
	char real[512];
	if (!realpath(dir, real))
		exit(1);
	mkdir(at("run"), 0777);
	put("run/doc.json", "{}");
	CHECK(attach_own_file(at("run/doc.json"), real, &lim), "a regular file inside is the run's own");
	char sub[600];
	snprintf(sub, sizeof(sub), "%s/run", real);
	CHECK(!attach_own_file(at("config"), sub, &lim), "a file outside UNDER is not");
	CHECK(!attach_own_file(at("run/missing.json"), real, &lim), "a file not there is not");
	symlink(at("config"), at("run/link.json"));
	CHECK(!attach_own_file(at("run/link.json"), real, &lim), "a link is not");
	mkfifo(at("run/fifo.json"), 0600);
	CHECK(!attach_own_file(at("run/fifo.json"), real, &lim), "a FIFO is not (and opening it did not hang)");
	link(at("run/doc.json"), at("run/hard.json"));
	CHECK(!attach_own_file(at("run/hard.json"), real, &lim), "a file of two hard links is not");
	unlink(at("run/hard.json"));
	put("run/a\tb.json", "{}");
	CHECK(!attach_own_file(at("run/a\tb.json"), real, &lim), "a name with a tab is not");
	char big[1100];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put("run/big.json", big);
	CHECK(!attach_own_file(at("run/big.json"), real, &lim), "a file over ATTACH_FILE_MAX_KB is not");
	CHECK(!strcmp(attach_shown("a\033[1mé"), "a?[1m??"), "a name is shown printable");

	put("run/chart one.svg", "");
	put("run/.hidden.svg", "");
	put("run/b.svg", "");
	size_t n;
	char **l = attach_glob(at("run"), "*.svg", &n);
	CHECK(n == 2 && !strcmp(attach_base(l[0]), "b.svg") && !strcmp(attach_base(l[1]), "chart one.svg"),
	      "the glob is the shell's: in byte order, no dot files, spaces kept");
	attach_free_list(l, n);

	setenv("ATTACH_MAX_KB", "", 1);
	CHECK(attach_limit("ATTACH_MAX_KB", "1024", &lim) && lim.kb == 1024, "an empty limit is the default");
	setenv("ATTACH_MAX_KB", "0012", 1);
	CHECK(attach_limit("ATTACH_MAX_KB", "1024", &lim) && lim.kb == 12, "a limit is a decimal number");
	setenv("ATTACH_MAX_KB", "12k", 1);
	CHECK(!attach_limit("ATTACH_MAX_KB", "1024", &lim), "12k is no number of KiB");
}

static void source(void)
{
	struct attach_limit lim = { "ATTACH_FILE_MAX_KB", "64", 64 };
	char real[512];
	if (!realpath(dir, real))
		exit(1);
	struct attach_source s;
	attach_source("unknown", "", "/lab", at("patch"), real, &lim, &s);
	CHECK(!s.dirty && !s.patch[0] && !strcmp(s.note, "the run's revision is unknown: source not enclosed"),
	      "an unknown revision encloses no source");
	attach_source("abc-dirty", "", "/lab", at("patch"), real, &lim, &s);
	CHECK(s.dirty && strstr(s.note, "revision abc is not in /lab"), "a commit not there is named (%s)", s.note);
	attach_source("abc", "abcdef", "/lab", at("patch"), real, &lim, &s);
	CHECK(!s.dirty && !s.patch[0] && !s.note[0], "a clean commit needs no note");
	put("patch", "");
	attach_source("abc-dirty", "abcdef", "/lab", at("patch"), real, &lim, &s);
	CHECK(s.dirty && !s.patch[0] && strstr(s.note, "not recorded: source.tar.xz is commit abc without them"),
	      "an empty record of the changes is none");
	put("patch", "diff\n");
	attach_source("abc-dirty", "abcdef", "/lab", at("patch"), real, &lim, &s);
	CHECK(s.dirty && !strcmp(s.patch, "source-dirty.patch") && strstr(s.note, "reproduce.sh applies it"),
	      "the recorded changes go in");

	CHECK(attach_revision_ok("b782f0f-dirty") && !attach_revision_ok("") && !attach_revision_ok("a$(b)"),
	      "a revision is a revision's spelling");
	char name[] = "a b:c$(x)@REV@";
	attach_run_name(name);
	CHECK(!strcmp(name, "a_b:c__x_@REV@"), "the run's name is plain characters (%s)", name);

	FILE *f = fopen(at("reproduce.sh"), "w");
	attach_reproduce(f, name, "b782f0f", "00ff", "", "make bench KERNEL=7.0");
	fclose(f);
	char *r = slurp("reproduce.sh");
	CHECK(!strncmp(r, "#!/bin/sh\n# Reruns the matrix of a_b:c__x_@REV@ (as root", 52),
	      "the run's name is in the comment, a value's @ not taken for a key");
	CHECK(strstr(r, "\nrev='b782f0f'\nsrc_sha='00ff'\npatch=''\n") != NULL, "the values are set first");
	CHECK(strstr(r, "\"${rev%-dirty}\"*) ;;\n") != NULL, "the script's own expansions are kept");
	const char *last = "\nmake bench KERNEL=7.0\n";
	size_t len = strlen(r);
	CHECK(len > strlen(last) && !strcmp(r + len - strlen(last), last), "the make line ends it");
}

static void fitting(void)
{
	mkdir(at("st"), 0777);
	mkdir(at("st/kernel-configs"), 0777);
	put("st/flame-C1.svg", "12345");
	put("st/flame-diff.svg", "123");
	put("st/kernel-configs/7.0-config", "1234");
	put("st/kernel-configs/7.0-config.excerpt", "1234567890");
	put("st/report.md", "x");
	long long b;
	char *v = attach_victim(at("st"), &b);
	CHECK(v && !strcmp(v, "flame-C1.svg") && b == 5, "the largest optional file goes first (%s)", v);
	free(v);
	put("st/kernel-configs/7.0-config", "12345");
	v = attach_victim(at("st"), &b);
	CHECK(v && !strcmp(v, "kernel-configs/7.0-config"), "of two the same size, the last by name (%s)", v);
	free(v);
	unlink(at("st/flame-C1.svg"));
	unlink(at("st/flame-diff.svg"));
	unlink(at("st/kernel-configs/7.0-config"));
	v = attach_victim(at("st"), &b);
	CHECK(!v, "excerpts and the rest are never dropped");

	put("st/report.md", "see flame-|X|&.svg and flame-|X|&.svg\nnone\nflame-|X|&.svg");
	CHECK(attach_mark_dropped(at("st/report.md"), "flame-|X|&.svg") == 0 &&
		      !strcmp(slurp("st/report.md"),
			      "see (dropped from the attachment) flame-|X|&.svg and flame-|X|&.svg\nnone\n"
			      "(dropped from the attachment) flame-|X|&.svg"),
	      "each line's first name is marked, as literal text, the last line unended");

	FILE *f = fopen(at("st/big one.txt"), "w");
	for (int i = 0; f && i < 3000; i++)
		fputc('x', f);
	if (f)
		fclose(f);
	char big[512];
	attach_largest(at("st"), big, sizeof(big));
	CHECK(!strcmp(big, "big one.txt (2 KiB), report.md (0 KiB), kernel-configs/7.0-config.excerpt (0 KiB)"),
	      "the largest first, whole names, in subdirectories too (%s)", big);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	excerpts();
	own_files();
	source();
	fitting();
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return CHECK_DONE();
}
