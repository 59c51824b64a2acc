/*
 * build/elfclosure's reader and walk (lab/elfclosure/) on small ELF files
 * made here, in a sysroot made here: both classes and byte orders, the
 * interpreter, DT_NEEDED through DT_RUNPATH with $ORIGIN and the default
 * directories of the first file's machine, links followed inside the
 * root (absolute targets are the root's), host:PATH files, the missing
 * libraries named, and dirname(1)'s answers, which the printed paths
 * carry.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "elfclosure/closure.h"

static char top[] = "/tmp/test_elfclosure.XXXXXX";

struct img {
	unsigned char b[4096];
	int is64, big;
};

static void put(struct img *m, size_t off, size_t size, unsigned long long v)
{
	for (size_t i = 0; i < size; i++)
		m->b[off + (m->big ? size - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

/* A field of an Elf32_/Elf64_ struct at OFF, as the image's class lays it out. */
#define SET(m, off, type, member, v)                                                          \
	((m)->is64 ? put(m, (off) + offsetof(Elf64_##type, member),                           \
			 sizeof(((Elf64_##type *)0)->member), v)                              \
		   : put(m, (off) + offsetof(Elf32_##type, member),                           \
			 sizeof(((Elf32_##type *)0)->member), v))

/* Writes ROOT/PATH: an ELF file of MACHINE with INTERP (or none), a
 * DT_RUNPATH (or none) and the NULL-ended NEEDED; its strings are found
 * through DT_STRTAB, an address 0x10000 above their file offset. */
static void make_elf(const char *path, int is64, int big, unsigned machine, const char *interp,
		     const char *runpath, const char *const *needed)
{
	static struct img m;
	memset(&m, 0, sizeof(m));
	m.is64 = is64, m.big = big;
	size_t eh = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t ph = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	size_t dyn = is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	size_t str = 1024, dynoff = 2048, n = 1, nd = 0;
	unsigned long long base = 0x10000;
	memcpy(m.b, ELFMAG, SELFMAG);
	m.b[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	m.b[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	m.b[EI_VERSION] = EV_CURRENT;
	SET(&m, 0, Ehdr, e_type, ET_DYN);
	SET(&m, 0, Ehdr, e_machine, machine);
	SET(&m, 0, Ehdr, e_phoff, eh);
	SET(&m, 0, Ehdr, e_phentsize, ph);
	SET(&m, 0, Ehdr, e_phnum, 3);
	/* The strings, each with the dynamic entry that names it. */
	unsigned long long tags[16], vals[16];
	if (interp) {
		strcpy((char *)m.b + str + n, interp);
		SET(&m, eh + 2 * ph, Phdr, p_type, PT_INTERP);
		SET(&m, eh + 2 * ph, Phdr, p_offset, str + n);
		SET(&m, eh + 2 * ph, Phdr, p_filesz, strlen(interp) + 1);
		n += strlen(interp) + 1;
	}
	for (size_t i = 0; needed && needed[i]; i++) {
		strcpy((char *)m.b + str + n, needed[i]);
		tags[nd] = DT_NEEDED, vals[nd++] = n;
		n += strlen(needed[i]) + 1;
	}
	if (runpath) {
		strcpy((char *)m.b + str + n, runpath);
		tags[nd] = DT_RUNPATH, vals[nd++] = n;
		n += strlen(runpath) + 1;
	}
	tags[nd] = DT_STRTAB, vals[nd++] = base + str;
	tags[nd] = DT_STRSZ, vals[nd++] = n;
	tags[nd] = DT_NULL, vals[nd++] = 0;
	for (size_t i = 0; i < nd; i++) {
		SET(&m, dynoff + i * dyn, Dyn, d_tag, tags[i]);
		SET(&m, dynoff + i * dyn, Dyn, d_un, vals[i]);
	}
	SET(&m, eh, Phdr, p_type, PT_LOAD);
	SET(&m, eh, Phdr, p_vaddr, base);
	SET(&m, eh, Phdr, p_filesz, sizeof(m.b));
	SET(&m, eh + ph, Phdr, p_type, PT_DYNAMIC);
	SET(&m, eh + ph, Phdr, p_offset, dynoff);
	SET(&m, eh + ph, Phdr, p_vaddr, base + dynoff);
	SET(&m, eh + ph, Phdr, p_filesz, nd * dyn);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(m.b, 1, sizeof(m.b), f) != sizeof(m.b) || fclose(f) != 0)
		abort();
}

static char *at(const char *sub)
{
	static char buf[8][1024];
	static int i;
	snprintf(buf[i & 7], sizeof(buf[0]), "%s%s", top, sub);
	return buf[i++ & 7];
}

static void mkdirs(const char *path)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

static void text(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs("not ELF\n", f) < 0 || fclose(f) != 0)
		abort();
}

/* The list joined by ' '. */
static const char *joined(const struct strlist *l)
{
	static char out[4096];
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < l->n; i++)
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s", i ? " " : "", l->v[i]);
	return out;
}

static void test_dirname(void)
{
	const char *cases[][2] = { { "/usr/lib/x", "/usr/lib" }, { "//x", "/" }, { "x", "." },
				   { "/", "/" }, { "a/b//", "a" }, { "", "." }, { "/a//b", "/a" },
				   { "/x", "/" }, { "../lib", ".." } };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = closure_dirname(cases[i][0]);
		CHECK(!strcmp(d, cases[i][1]), "dirname '%s' is '%s' (got '%s')", cases[i][0], cases[i][1], d);
		free(d);
	}
}

static void test_read(void)
{
	const char *needed[] = { "liba.so.1", "libb.so.2", NULL };
	for (int is64 = 0; is64 < 2; is64++)
		for (int big = 0; big < 2; big++) {
			make_elf(at("/one"), is64, big, EM_AARCH64, "/lib/ld.so", "$ORIGIN/x:/y", needed);
			struct elf_deps d;
			int rc = elf_read(at("/one"), &d);
			CHECK(rc == 1 && d.machine == EM_AARCH64 && d.interp && !strcmp(d.interp, "/lib/ld.so") &&
				      !strcmp(joined(&d.needed), "liba.so.1 libb.so.2") &&
				      !strcmp(joined(&d.paths), "$ORIGIN/x:/y"),
			      "ELF%d %s: machine, interpreter, NEEDED and RUNPATH read (%d %u %s)",
			      is64 ? 64 : 32, big ? "big-endian" : "little-endian", rc, d.machine,
			      joined(&d.needed));
			elf_deps_free(&d);
		}
	struct elf_deps d;
	text(at("/text"));
	CHECK(elf_read(at("/text"), &d) == 0, "a text file is no ELF file");
	CHECK(elf_read(at("/none"), &d) == -1, "a missing file cannot be opened");
}

static void test_closure(void)
{
	char root[1024];
	snprintf(root, sizeof(root), "%s/root", top);
	mkdirs(at("/root/usr/bin"));
	mkdirs(at("/root/lib/aarch64-linux-gnu"));
	mkdirs(at("/root/usr/lib/x"));
	mkdirs(at("/root/usr/lib/real"));
	mkdirs(at("/host"));
	const char *prog_needs[] = { "libfoo.so.1", "libbaz.so", NULL };
	const char *foo_needs[] = { "libbar.so.2", NULL };
	make_elf(at("/root/usr/bin/prog"), 1, 0, EM_AARCH64, "/lib/ld-linux-aarch64.so.1",
		 "$ORIGIN/../lib/x", prog_needs);
	make_elf(at("/root/lib/aarch64-linux-gnu/libfoo.so.1"), 1, 0, EM_AARCH64, NULL, NULL, foo_needs);
	make_elf(at("/root/usr/lib/x/libbaz.so"), 1, 0, EM_AARCH64, NULL, NULL, NULL);
	text(at("/root/usr/lib/real/libbar.so.2.0"));
	text(at("/root/lib/aarch64-linux-gnu/ld.so"));
	/* An absolute link is the root's; a relative one is its directory's. */
	if (symlink("/usr/lib/real/libbar.so.2.0", at("/root/usr/lib/libbar.so.2")) ||
	    symlink("aarch64-linux-gnu/ld.so", at("/root/lib/ld-linux-aarch64.so.1")) ||
	    symlink("loop.b", at("/root/usr/lib/loop.a")) || symlink("loop.a", at("/root/usr/lib/loop.b")))
		abort();
	char *in = closure_in_root(root, "/usr/lib/libbar.so.2");
	CHECK(!strcmp(in, "/usr/lib/real/libbar.so.2.0"), "an absolute link is followed inside the root (%s)", in);
	free(in);
	in = closure_in_root(root, "/usr/lib/loop.a");
	CHECK(!strcmp(in, "/usr/lib/loop.a"), "a loop of links ends after 40 hops (%s)", in);
	free(in);

	struct closure c;
	char *files[] = { "/usr/bin/prog" };
	int rc = closure_run(root, files, 1, &c);
	CHECK(rc == 0 && c.missing.n == 0 &&
		      !strcmp(joined(&c.out), "/lib/aarch64-linux-gnu/libfoo.so.1 /lib/ld-linux-aarch64.so.1 "
					      "/usr/bin/../lib/x/libbaz.so /usr/lib/libbar.so.2"),
	      "the closure: RUNPATH's $ORIGIN, the aarch64 triplet's directory, /usr/lib, the interpreter (%s)",
	      joined(&c.out));
	closure_free(&c);

	/* A host file's $ORIGIN is its own directory on the host; its
	 * libraries are the root's. */
	const char *host_needs[] = { "libfoo.so.1", "libhost.so", NULL };
	make_elf(at("/host/prog"), 1, 0, EM_AARCH64, NULL, "${ORIGIN}/lib", host_needs);
	char hostfile[1100];
	snprintf(hostfile, sizeof(hostfile), "host:%s", at("/host/prog"));
	char *hfiles[] = { hostfile };
	rc = closure_run(root, hfiles, 1, &c);
	char want[1200];
	snprintf(want, sizeof(want), "libhost.so (needed by %s)", hostfile);
	CHECK(rc == 0 && c.missing.n == 1 && !strcmp(c.missing.v[0], want) &&
		      !strcmp(joined(&c.out), "/lib/aarch64-linux-gnu/libfoo.so.1 /usr/lib/libbar.so.2"),
	      "a host: file reads the host's file, finds the root's libraries, names what is missing (%s)",
	      joined(&c.out));
	closure_free(&c);

	/* Missing libraries and interpreter, each named with who needs it. */
	unlink(at("/root/usr/lib/real/libbar.so.2.0"));
	unlink(at("/root/lib/aarch64-linux-gnu/ld.so"));
	rc = closure_run(root, files, 1, &c);
	CHECK(rc == 0 &&
		      !strcmp(joined(&c.missing), "/lib/ld-linux-aarch64.so.1 (interpreter of /usr/bin/prog) "
						  "libbar.so.2 (needed by /lib/aarch64-linux-gnu/libfoo.so.1)"),
	      "a dangling link is a missing library, and so is the interpreter (%s)", joined(&c.missing));
	closure_free(&c);

	/* The first file's machine picks the directories: a big-endian ELF32
	 * of x86-64's number looks in x86_64-linux-gnu. */
	mkdirs(at("/root/usr/lib/x86_64-linux-gnu"));
	const char *q_needs[] = { "libq.so", NULL };
	make_elf(at("/root/usr/bin/q"), 0, 1, EM_X86_64, NULL, NULL, q_needs);
	make_elf(at("/root/usr/lib/x86_64-linux-gnu/libq.so"), 0, 1, EM_X86_64, NULL, NULL, NULL);
	char *qfiles[] = { "/usr/bin/q" };
	rc = closure_run(root, qfiles, 1, &c);
	CHECK(rc == 0 && !strcmp(joined(&c.out), "/usr/lib/x86_64-linux-gnu/libq.so"),
	      "ELF32 big-endian of x86-64: its triplet's directory (%s)", joined(&c.out));
	closure_free(&c);

	make_elf(at("/root/usr/bin/i386"), 1, 0, EM_386, NULL, NULL, NULL);
	char *ifiles[] = { "/usr/bin/i386" };
	rc = closure_run(root, ifiles, 1, &c);
	snprintf(want, sizeof(want), "%s/usr/bin/i386: not an ELF file of a known machine ('ELF machine 3')", root);
	CHECK(rc == -1 && c.error && !strcmp(c.error, want), "a machine the table lacks is refused: %s", c.error);
	closure_free(&c);
	char *nfiles[] = { "/usr/lib/x/none" };
	rc = closure_run(root, nfiles, 1, &c);
	snprintf(want, sizeof(want), "%s/usr/lib/x/none: not an ELF file of a known machine ('')", root);
	CHECK(rc == -1 && c.error && !strcmp(c.error, want), "a missing first file is refused: %s", c.error);
	closure_free(&c);
}

int main(void)
{
	if (!mkdtemp(top))
		return 1;
	test_dirname();
	test_read();
	test_closure();
	char cmd[1100];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		return 1;
	return CHECK_DONE();
}
