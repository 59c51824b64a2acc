/*
 * A built kernel's recipe (lab/plan/kernel_recipe.c) and its config
 * fragments (kernel_fragment.c) on a catalog of the test's own: the keys
 * an architecture reads, the recipe hash (pinned: the values are those
 * the shell's sha256sum pipeline gave before the recipe moved into C, so
 * that a build in the cache stays reused), the fragments' operations,
 * each symbol's last, and the options a .config lost; and the packaged
 * version a series or an exact version takes (catalog_pick).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "plan/kernel_recipe.h"
#include "plan/plan.h"

static char dir[64];

static void put(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static const char patch[] =
	"From: someone\nSubject: [PATCH] prose\n\nWhy.\n---\n"
	"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";

static void catalog(void)
{
	char sub[128];
	snprintf(dir, sizeof(dir), "/tmp/test_kernel_recipe.XXXXXX");
	if (!mkdtemp(dir))
		exit(1);
	snprintf(sub, sizeof(sub), "%s/fragments", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/patches", dir);
	mkdir(sub, 0755);
	put("s1", "# a recipe\ndescription: test\nsource: build\nsuite: sid\n"
		  "package: ^linux-source-7\\.2$\npatches: patches/p.patch\n"
		  "base: defconfig kvm_guest.config\nfragment: fragments/a.config fragments/b.config\n"
		  "build_minutes: 23\nbuild_steps: 3264\nmodels: lazy full\ndefault: lazy\n"
		  "base_arm64: defconfig virt.config\ntarget_arm64: Image\n"
		  "fragment_arm64: fragments/b.config\nmodels_arm64: none full\n");
	put("s2", "source: build\nsuite: sid\npackage: x\nbase: defconfig\ntarget: bzImage\n");
	put("patches/p.patch", patch);
	put("fragments/a.config", "# why\nCONFIG_A=y\nCONFIG_M=m  \n\n# CONFIG_D is not set\n"
				  "CONFIG_V=\"-lab\"\nCONFIG_LAST=1\n");
	put("fragments/b.config", "CONFIG_LAST=2\n# CONFIG_A is not set\n");
}

int main(void)
{
	static struct kernel_recipe r;
	struct frag_op ops[32];
	char bad[256];
	catalog();

	recipe_read(dir, "amd64", "s1", &r);
	CHECK(!strcmp(r.dir, "s1") && r.base_arch, "amd64 keeps build/s1 (%s)", r.dir);
	CHECK(!strcmp(r.target, "bzImage") && !strcmp(r.image, "bzImage"),
	      "no target: the architecture's image (%s)", r.target);
	CHECK(r.nfrag == 2 && r.npatch == 1 && !strcmp(strrchr(r.frag[1], '/'), "/b.config"),
	      "two fragments in order, one patch");
	CHECK(!strcmp(r.hash, "00f87f9d72ec"), "amd64 recipe hash as the shell gave it (%s)",
	      r.hash);
	CHECK(recipe_minutes(&r, 2) == 23 && recipe_minutes(&r, 4) == 12 &&
	      recipe_minutes(&r, 1) == 46, "23 measured minutes on 2 cores scale to 4 and 1");

	int n = fragment_ops(&r, ops, 32, bad, sizeof(bad));
	CHECK(n == 7, "seven operations (%d)", n);
	CHECK(n == 7 && ops[0].op == 'e' && !strcmp(ops[0].sym, "A") && ops[1].op == 'm' &&
	      !strcmp(ops[1].sym, "M") && ops[2].op == 'd' && !strcmp(ops[2].sym, "D") &&
	      ops[3].op == 'v' && !strcmp(ops[3].val, "\"-lab\""),
	      "=y -e, =m -m (trailing blanks dropped), is not set -d, a value --set-val");
	char config[] = "CONFIG_M=m\nCONFIG_D=y\nCONFIG_V=\"-lab\"\nCONFIG_LAST=2\n";
	n = fragment_final(ops, n);
	CHECK(n == 5 && !strcmp(ops[4].sym, "A") && ops[4].op == 'd' && !strcmp(ops[3].val, "2"),
	      "each symbol's last operation, in order (b.config's LAST and A)");
	CHECK(fragment_unstuck(ops, n, config, bad, sizeof(bad)) == 1 &&
	      !strcmp(bad, " D(unset)"), "the .config lost D's unsetting ('%s')", bad);
	char lost[] = "CONFIG_M=y\nCONFIG_V=\"-lab\"\nCONFIG_LAST=22\nCONFIG_A=y\n";
	CHECK(fragment_unstuck(ops, n, lost, bad, sizeof(bad)) == 3 &&
	      !strcmp(bad, " M=m LAST=2 A(unset)"), "whole lines are compared ('%s')", bad);

	recipe_read(dir, "arm64", "s1", &r);
	CHECK(!strcmp(r.dir, "s1-arm64") && !strcmp(r.target, "Image") &&
	      !strcmp(r.base, "defconfig virt.config"), "arm64 reads its own keys (%s, %s)",
	      r.dir, r.base);
	CHECK(!strcmp(r.models, "none full") && !strcmp(r.default_model, "lazy") &&
	      r.build_steps[0] == '\0' && !strcmp(r.build_minutes, "23"),
	      "arm64 falls back to the base keys, but not for its step count");
	CHECK(r.nfrag == 1 && !strcmp(r.hash, "5d7fa1e904f3"),
	      "arm64 recipe hash as the shell gave it (%s)", r.hash);

	/* The cover letter is prose: rewording it keeps the hash. */
	recipe_read(dir, "amd64", "s2", &r);
	CHECK(!strcmp(r.hash, "5a1f68f39fe5") && r.nfrag == 0 && r.npatch == 0,
	      "a recipe without fragments or patches (%s)", r.hash);
	char edited[sizeof(patch) + 16];
	snprintf(edited, sizeof(edited), "Subject: other%s", strstr(patch, "\n\nWhy"));
	put("patches/p.patch", edited);
	recipe_read(dir, "amd64", "s1", &r);
	CHECK(!strcmp(r.hash, "00f87f9d72ec"), "a reworded cover letter keeps the hash (%s)",
	      r.hash);

	put("fragments/b.config", "CONFIG_X\n");
	CHECK(fragment_ops(&r, ops, 32, bad, sizeof(bad)) < 0 && !strcmp(bad, "CONFIG_X"),
	      "a line that is no operation is named ('%s')", bad);

	/* kapt_candidates' lines, newest first. */
	char line[128], versions[128], cands[128];
	const char *packaged = "p 7.0.13 7.0.13-1\np 7.0.9 7.0.9-2\np 7.0.13 7.0.13-0\n";
	snprintf(cands, sizeof(cands), "%s", packaged);
	CHECK(catalog_pick(cands, "", line, sizeof(line), versions, sizeof(versions)) == 0 &&
	      !strcmp(line, "p 7.0.13 7.0.13-1"), "a series takes the newest (%s)", line);
	snprintf(cands, sizeof(cands), "%s", packaged);
	CHECK(catalog_pick(cands, "7.0.9", line, sizeof(line), versions, sizeof(versions)) == 0 &&
	      !strcmp(line, "p 7.0.9 7.0.9-2"), "an exact version takes its own (%s)", line);
	snprintf(cands, sizeof(cands), "%s", packaged);
	CHECK(catalog_pick(cands, "7.0.5", line, sizeof(line), versions, sizeof(versions)) == 2 &&
	      !strcmp(versions, "7.0.9 7.0.13 "), "a missing one lists those there are, once, "
	      "by version ('%s')", versions);
	CHECK(catalog_pick((char[]){ "" }, "", line, sizeof(line), versions, sizeof(versions)) == 1,
	      "no candidates at all");

	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? CHECK_DONE() : 1;
}
