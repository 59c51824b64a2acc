/*
 * What build/elfclosure needs of one ELF file, read from the file itself
 * (ELF32 or ELF64, either byte order), never by running it: an aarch64
 * program does not run on an x86 host, so ldd cannot tell what it needs.
 */
#ifndef PREEMPTLAB_ELFCLOSURE_ELFREAD_H
#define PREEMPTLAB_ELFCLOSURE_ELFREAD_H

#include <stddef.h>

struct strlist {
	char **v;
	size_t n, cap;
};

void strlist_add(struct strlist *l, const char *s);
int strlist_has(const struct strlist *l, const char *s);
/* Sorted by bytes (LC_ALL=C sort's order), duplicates removed. */
void strlist_sort_unique(struct strlist *l);
void strlist_free(struct strlist *l);

struct elf_deps {
	unsigned machine;	/* e_machine */
	char *interp;		/* PT_INTERP, or NULL */
	struct strlist needed;	/* DT_NEEDED, in order */
	struct strlist paths;	/* DT_RPATH and DT_RUNPATH values, in order */
};

/* 1: PATH is an ELF file, read into D; 0: it is not one, or not one this
 * reader can make sense of (D empty); -1: it cannot be opened (errno). */
int elf_read(const char *path, struct elf_deps *d);
void elf_deps_free(struct elf_deps *d);

#endif
