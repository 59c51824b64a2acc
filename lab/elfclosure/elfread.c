/*
 * The ELF reader of build/elfclosure (elfread.h): the header's machine,
 * PT_INTERP, and the dynamic section's DT_NEEDED, DT_RPATH and
 * DT_RUNPATH, whose strings are at DT_STRTAB, an address: the PT_LOAD
 * program headers map it to a file offset, as the loader maps the file.
 * Without program headers (a relocatable object) the section headers'
 * SHT_DYNAMIC and its linked string table serve instead.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfread.h"

void strlist_add(struct strlist *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			abort();
	}
	l->v[l->n] = strdup(s);
	if (!l->v[l->n++])
		abort();
}

int strlist_has(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strlist_sort_unique(struct strlist *l)
{
	size_t k = 0;
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp);
	for (size_t i = 0; i < l->n; i++) {
		if (k && !strcmp(l->v[k - 1], l->v[i]))
			free(l->v[i]);
		else
			l->v[k++] = l->v[i];
	}
	l->n = k;
}

void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct strlist){ 0 };
}

void elf_deps_free(struct elf_deps *d)
{
	free(d->interp);
	strlist_free(&d->needed);
	strlist_free(&d->paths);
	*d = (struct elf_deps){ 0 };
}

/* The open file, its class and byte order. */
struct file {
	int fd;
	int is64, big;
};

static int get(const struct file *f, uint64_t off, void *buf, size_t len)
{
	return off <= INT64_MAX - len && pread(f->fd, buf, len, (off_t)off) == (ssize_t)len;
}

/* An unsigned field of SIZE bytes at P, in the file's byte order. */
static uint64_t num(const struct file *f, const unsigned char *p, size_t size)
{
	uint64_t v = 0;
	for (size_t i = 0; i < size; i++)
		v |= (uint64_t)p[f->big ? size - 1 - i : i] << (8 * i);
	return v;
}

/* MEMBER of the struct TYPE at P, in <elf.h>'s Elf32_ or Elf64_ layout
 * as the file's class says. */
#define FIELD(f, p, type, member)                                                   \
	((f)->is64 ? num(f, (p) + offsetof(Elf64_##type, member),                   \
			 sizeof(((Elf64_##type *)0)->member))                        \
		   : num(f, (p) + offsetof(Elf32_##type, member),                   \
			 sizeof(((Elf32_##type *)0)->member)))

/* The NUL-terminated string at OFF, no further than LIMIT; NULL past it. */
static char *string_at(const struct file *f, uint64_t off, uint64_t limit)
{
	size_t cap = 64, n = 0;
	char *s = malloc(cap);
	while (s && off + n < limit) {
		if (n + 1 >= cap) {
			char *t = realloc(s, cap *= 2);
			if (!t)
				break;
			s = t;
		}
		if (!get(f, off + n, s + n, 1))
			break;
		if (s[n] == '\0')
			return s;
		n++;
	}
	free(s);
	return NULL;
}

struct seg {
	uint64_t type, offset, vaddr, filesz;
};

/* The dynamic entries at [OFF, OFF+SIZE) into D.  With segments the
 * strings are at DT_STRTAB, an address mapped through the PT_LOAD ones;
 * without, at the file offset STROFF, up to STRLIMIT.  0: unreadable. */
static int read_dynamic(const struct file *f, struct elf_deps *d, uint64_t off, uint64_t size,
			const struct seg *segs, size_t nsegs, uint64_t stroff, uint64_t strlimit)
{
	size_t esize = f->is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	size_t n = (size_t)(size / esize);
	unsigned char *buf = malloc(n * esize + 1);
	if (!buf || !get(f, off, buf, n * esize)) {
		free(buf);
		return 0;
	}
	uint64_t strtab = 0, strsz = 0;
	int have_strtab = 0;
	size_t end = n;
	for (size_t i = 0; i < n; i++) {
		uint64_t tag = FIELD(f, buf + i * esize, Dyn, d_tag);
		uint64_t val = FIELD(f, buf + i * esize, Dyn, d_un);
		if (tag == DT_NULL) {
			end = i;
			break;
		}
		if (tag == DT_STRTAB)
			strtab = val, have_strtab = 1;
		else if (tag == DT_STRSZ)
			strsz = val;
	}
	if (nsegs) {
		/* DT_STRTAB is an address: the file offset is the segment's. */
		int mapped = 0;
		for (size_t i = 0; have_strtab && i < nsegs; i++)
			if (segs[i].type == PT_LOAD && strtab >= segs[i].vaddr &&
			    strtab - segs[i].vaddr < segs[i].filesz) {
				stroff = strtab - segs[i].vaddr + segs[i].offset;
				strlimit = strsz ? stroff + strsz : segs[i].offset + segs[i].filesz;
				mapped = 1;
				break;
			}
		if (!mapped) {
			free(buf);
			return 0;
		}
	}
	for (size_t i = 0; i < end; i++) {
		uint64_t tag = FIELD(f, buf + i * esize, Dyn, d_tag);
		uint64_t val = FIELD(f, buf + i * esize, Dyn, d_un);
		if (tag != DT_NEEDED && tag != DT_RPATH && tag != DT_RUNPATH)
			continue;
		char *s = strlimit > stroff && val < strlimit - stroff ? string_at(f, stroff + val, strlimit) : NULL;
		if (!s)
			continue;
		strlist_add(tag == DT_NEEDED ? &d->needed : &d->paths, s);
		free(s);
	}
	free(buf);
	return 1;
}

/* Without program headers: the SHT_DYNAMIC section and its sh_link. */
static void dynamic_from_sections(const struct file *f, const unsigned char *eh, struct elf_deps *d)
{
	uint64_t shoff = FIELD(f, eh, Ehdr, e_shoff);
	uint64_t shentsize = FIELD(f, eh, Ehdr, e_shentsize), shnum = FIELD(f, eh, Ehdr, e_shnum);
	unsigned char sh[sizeof(Elf64_Shdr)], link[sizeof(Elf64_Shdr)];
	size_t shsize = f->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	if (shentsize < shsize)
		return;
	for (uint64_t i = 0; shoff && i < shnum; i++) {
		if (!get(f, shoff + i * shentsize, sh, shsize))
			return;
		if (FIELD(f, sh, Shdr, sh_type) != SHT_DYNAMIC)
			continue;
		uint64_t l = FIELD(f, sh, Shdr, sh_link);
		if (l >= shnum || !get(f, shoff + l * shentsize, link, shsize))
			return;
		uint64_t stroff = FIELD(f, link, Shdr, sh_offset);
		read_dynamic(f, d, FIELD(f, sh, Shdr, sh_offset), FIELD(f, sh, Shdr, sh_size), NULL, 0,
			     stroff, stroff + FIELD(f, link, Shdr, sh_size));
		return;
	}
}

int elf_read(const char *path, struct elf_deps *d)
{
	*d = (struct elf_deps){ 0 };
	struct file f = { .fd = open(path, O_RDONLY | O_CLOEXEC) };
	if (f.fd < 0)
		return -1;
	unsigned char eh[sizeof(Elf64_Ehdr)] = { 0 };
	int ok = get(&f, 0, eh, EI_NIDENT) && !memcmp(eh, ELFMAG, SELFMAG) &&
		 (eh[EI_CLASS] == ELFCLASS32 || eh[EI_CLASS] == ELFCLASS64) &&
		 (eh[EI_DATA] == ELFDATA2LSB || eh[EI_DATA] == ELFDATA2MSB);
	f.is64 = eh[EI_CLASS] == ELFCLASS64;
	f.big = eh[EI_DATA] == ELFDATA2MSB;
	ok = ok && get(&f, 0, eh, f.is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr));
	if (!ok) {
		close(f.fd);
		return 0;
	}
	d->machine = (unsigned)FIELD(&f, eh, Ehdr, e_machine);
	uint64_t phoff = FIELD(&f, eh, Ehdr, e_phoff);
	uint64_t phentsize = FIELD(&f, eh, Ehdr, e_phentsize), phnum = FIELD(&f, eh, Ehdr, e_phnum);
	size_t phsize = f.is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	struct seg *segs = phoff && phentsize >= phsize ? calloc(phnum + 1, sizeof(*segs)) : NULL;
	size_t nsegs = 0;
	for (uint64_t i = 0; segs && i < phnum; i++) {
		unsigned char ph[sizeof(Elf64_Phdr)];
		if (!get(&f, phoff + i * phentsize, ph, phsize))
			break;
		segs[nsegs++] = (struct seg){ FIELD(&f, ph, Phdr, p_type), FIELD(&f, ph, Phdr, p_offset),
					      FIELD(&f, ph, Phdr, p_vaddr), FIELD(&f, ph, Phdr, p_filesz) };
	}
	int dynamic = 0;
	for (size_t i = 0; i < nsegs; i++) {
		if (segs[i].type == PT_INTERP && !d->interp)
			d->interp = string_at(&f, segs[i].offset, segs[i].offset + segs[i].filesz);
		if (segs[i].type == PT_DYNAMIC && !dynamic)
			dynamic = read_dynamic(&f, d, segs[i].offset, segs[i].filesz, segs, nsegs, 0, 0);
	}
	if (!nsegs)
		dynamic_from_sections(&f, eh, d);
	free(segs);
	close(f.fd);
	return 1;
}
