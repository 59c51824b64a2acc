/* reproduce.sh, and what the attachment's source is (attach.h). */
#include "attach.h"

#include <string.h>
#include <sys/stat.h>

/* test -s: PATH (followed) is there and not empty. */
static bool nonempty(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && st.st_size > 0;
}

bool attach_revision_ok(const char *rev)
{
	return rev[0] && strspn(rev, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-") ==
				 strlen(rev);
}

/* The run's name goes into a comment line: one line of plain characters. */
void attach_run_name(char *name)
{
	for (char *p = name; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+:@=,-", *p))
			*p = '_';
}

/* REV without one "-dirty" at its end: the commit it was made from. */
static int commit_len(const char *rev)
{
	size_t n = strlen(rev);
	return (int)(n >= 6 && !strcmp(rev + n - 6, "-dirty") ? n - 6 : n);
}

/* The lab's source at the run's revision, as git archive gives it.  A run
 * from a tree with uncommitted changes ran no commit: run-plan.sh kept them
 * (logs/lab-dirty.patch) and they go in beside it; where they were not
 * kept, the manifest says the source lacks them. */
void attach_source(const char *rev, const char *commit, const char *top, const char *patch,
		   const char *under, const struct attach_limit *file_max, struct attach_source *s)
{
	int n = commit_len(rev);
	s->dirty = (size_t)n != strlen(rev);
	s->patch = "";
	s->note[0] = '\0';
	if (!strcmp(rev, "unknown"))
		snprintf(s->note, sizeof(s->note), "the run's revision is unknown: source not enclosed");
	else if (!commit[0])
		snprintf(s->note, sizeof(s->note),
			 "revision %.*s is not in %s (not a git checkout, or not fetched): source not enclosed",
			 n, rev, top);
	else if (s->dirty && nonempty(patch) && attach_own_file(patch, under, file_max)) {
		s->patch = "source-dirty.patch";
		snprintf(s->note, sizeof(s->note),
			 "the run's tree had uncommitted changes: source-dirty.patch holds them as they were when the run started; reproduce.sh applies it");
	} else if (s->dirty)
		snprintf(s->note, sizeof(s->note),
			 "the run's tree had uncommitted changes that were not recorded: source.tar.xz is commit %.*s without them",
			 n, rev);
}

/* reproduce.sh: the run's make line in a checkout at the same revision, or
 * in the source beside it.  Readers run it as root, and the documents it
 * is made from may come from a guest, so nothing of them goes in unchecked:
 * build/report quotes every value of the make line for sh (@CMD@), the
 * revision is a revision's spelling (attach_revision_ok), the sha256 is
 * sha256sum's, the patch a fixed name, the run's name plain characters. */
static const char script[] =
	"#!/bin/sh\n"
	"# Reruns the matrix of @RUN@ (as root, Debian 12).\n"
	"# Usage: sh reproduce.sh [CHECKOUT]\n"
	"#   With a preemptlab checkout (the argument, or PREEMPTLAB_CHECKOUT) it\n"
	"#   runs there.  Without one it unpacks source.tar.xz from beside this\n"
	"#   script into PREEMPTLAB_SRC (default ./preemptlab-src), checks its\n"
	"#   sha256, applies source-dirty.patch if there is one, and runs there.\n"
	"# Then: ./configure, make, and the run's own make bench line.\n"
	"set -eu\n"
	"rev='@REV@'\n"
	"src_sha='@SHA@'\n"
	"patch='@PATCH@'\n"
	"here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
	"checkout=${1:-${PREEMPTLAB_CHECKOUT:-}}\n"
	"if [ -n \"$checkout\" ]; then\n"
	"\tcd \"$checkout\"\n"
	"\tif [ ! -f Makefile ] || [ ! -d lab/report ]; then\n"
	"\t\techo \"reproduce.sh: $checkout is not a preemptlab checkout\" >&2\n"
	"\t\texit 1\n"
	"\tfi\n"
	"\tif command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1; then\n"
	"\t\tnow=$(git describe --always --dirty 2>/dev/null || echo unknown)\n"
	"\t\tcase $now in\n"
	"\t\t\"${rev%-dirty}\"*) ;;\n"
	"\t\t*) echo \"reproduce.sh: checkout is at $now; the results came from $rev\" \\\n"
	"\t\t\t\"(git checkout ${rev%-dirty} for the same code)\" >&2 ;;\n"
	"\t\tesac\n"
	"\tfi\n"
	"else\n"
	"\tif [ -z \"$src_sha\" ] || [ ! -f \"$here/source.tar.xz\" ]; then\n"
	"\t\techo \"reproduce.sh: this attachment holds no source (see manifest.json's source.note);\" \\\n"
	"\t\t\t\"give a preemptlab checkout: sh reproduce.sh PATH\" >&2\n"
	"\t\texit 1\n"
	"\tfi\n"
	"\tgot=$(sha256sum \"$here/source.tar.xz\" | cut -d' ' -f1)\n"
	"\tif [ \"$got\" != \"$src_sha\" ]; then\n"
	"\t\techo \"reproduce.sh: source.tar.xz has sha256 $got, not $src_sha: damaged or altered\" >&2\n"
	"\t\texit 1\n"
	"\tfi\n"
	"\tdest=${PREEMPTLAB_SRC:-$PWD/preemptlab-src}\n"
	"\tif [ -f \"$dest/.lab-revision\" ]; then\n"
	"\t\techo \"reproduce.sh: using the source already unpacked in $dest\"\n"
	"\telse\n"
	"\t\tif [ -e \"$dest\" ] && [ -n \"$(ls -A \"$dest\")\" ]; then\n"
	"\t\t\techo \"reproduce.sh: $dest exists and is not empty; set PREEMPTLAB_SRC to another directory\" >&2\n"
	"\t\t\texit 1\n"
	"\t\tfi\n"
	"\t\tmkdir -p \"$dest\"\n"
	"\t\ttar -xJf \"$here/source.tar.xz\" -C \"$dest\" --strip-components=1\n"
	"\t\tif [ -n \"$patch\" ]; then\n"
	"\t\t\t# git apply works outside a repository and takes binary diffs.\n"
	"\t\t\tif command -v git >/dev/null; then (cd \"$dest\" && git apply \"$here/$patch\")\n"
	"\t\t\telse (cd \"$dest\" && patch -p1 < \"$here/$patch\"); fi\n"
	"\t\t\t# A run of this tree encloses the same patch (run-plan.sh).\n"
	"\t\t\tcp \"$here/$patch\" \"$dest/.lab-dirty.patch\"\n"
	"\t\tfi\n"
	"\t\t# The binaries stamp this revision into their documents (no .git here).\n"
	"\t\techo \"$rev\" > \"$dest/.lab-revision\"\n"
	"\t\techo \"reproduce.sh: source of $rev unpacked in $dest\"\n"
	"\tfi\n"
	"\tcd \"$dest\"\n"
	"fi\n"
	"if [ \"$(id -u)\" = 0 ]; then ./configure --install-deps; else ./configure; fi\n"
	"make -j\"$(nproc)\"\n"
	"@CMD@\n";

void attach_reproduce(FILE *out, const char *run_name, const char *rev, const char *src_sha,
		      const char *patch, const char *cmd)
{
	static const char *const keys[] = { "@RUN@", "@REV@", "@SHA@", "@PATCH@", "@CMD@" };
	const char *vals[] = { run_name, rev, src_sha, patch, cmd };
	for (const char *p = script; *p;) {
		const char *at = strchr(p, '@');
		size_t k = 0;
		while (at && k < 5 && strncmp(at, keys[k], strlen(keys[k])))
			k++;
		if (!at || k == 5) {
			size_t n = at ? (size_t)(at - p) + 1 : strlen(p);
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		fwrite(p, 1, (size_t)(at - p), out);
		fputs(vals[k], out);
		p = at + strlen(keys[k]);
	}
}
