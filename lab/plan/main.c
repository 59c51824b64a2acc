/*
 * build/plan: turns `make bench` variables into RUN/plan.json and the flat
 * files the runners read (write.c), or with --check only validates them.
 *
 *   build/plan [--check] [--out RUN] [--top DIR] [--bufbench BIN]
 *              [--initramfs-bytes N] [--accel-probed ACCEL] [VAR=value ...]
 *   build/plan --vocabulary      docs/vocabulary.md, from buffer_pool/vocab.c and lab/common/lab_vocab.c
 *   build/plan --variables       the variables' names, from lab/common/variables.def
 *   build/plan --variables-md    docs/variables.md, from the same table
 *   build/plan --boot-argv [ARCH= ACCEL= VCPUS= MEM_MB= ...]
 *                                one guest's QEMU argv, for a boot outside a plan
 *   build/plan --arch-info [ARCH [KEY]] | --catalog-get DIR SERIES KEY |
 *              --catalog-series DIR [SOURCE|--list] |
 *              --catalog-resolve DIR KERNEL [ARCH] |
 *              --catalog-pick SERIES SUITE REGEX [EXACT] |
 *              --runner-policy [KEY]
 *                                the architecture table and the kernel catalog,
 *                                for the scripts (info.c)
 *   build/plan --kernel-build DIR ARCH SERIES WHAT [ARG]
 *                                a built kernel's recipe, fragments and checks,
 *                                for scripts/kernel-build.sh (kernel_recipe.c)
 *   build/plan --kernel-resolution FILE
 *                                a cached kernel resolution, checked and
 *                                re-rooted (kernel_resolution.c)
 *   build/plan [--top DIR] --pg-major [MAJOR [KEY]] | --pg-source [MAJOR [KEY]] |
 *              --pg-suites | --pg-patches MAJOR | --pg-build MAJOR PATCH [KEY] |
 *              --pg-configure-flags SRCVER PATCH | --pg-guest-packages MAJOR |
 *              --pg-package-set MAJOR SUITE PACKAGES BASE PACKAGES |
 *              --pg-root-expect MAJOR
 *                                what the PostgreSQL materials scripts fetch and
 *                                build (pg_materials.c)
 *   build/plan --pg-runs MODELS BUILTINS CLIENTS REPEAT FIRST_REP
 *                                a pgbench cell's runs on this machine, for
 *                                scripts/pg-run.sh run by hand (pg_runs.c)
 *   build/plan --validation-grid INPUTS KERNEL [MODELS] | --capacity-grid [KERNEL]
 *                                the model's validation grids, tables that
 *                                scripts/model-validate.sh hands to build/predict
 *                                and build/capacity (validate_grid.c)
 *
 * --check with --out prints the summary and writes the plan.
 * --accel-probed: what scripts/bench.sh's KVM probe boot found, planned on
 * when ACCEL is auto (the probe needs the resolved kernel and the
 * initramfs, so it runs between the first plan and the final one).
 *
 * Variables come from the environment (make exports those the user set)
 * and from VAR=value arguments, which win.  Exit 0, or 2 with one line
 * naming the variable, the bad value and the valid ones.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel_recipe.h"
#include "kernel_resolution.h"
#include "plan.h"
#include "validate_grid.h"
#include "variables.h"
#include "lab_vocab.h"

static const char usage[] =
	"usage: build/plan [--check] [--out RUN] [--top DIR] [--bufbench BIN]\n"
	"                  [--initramfs-bytes N] [--accel-probed ACCEL] [VAR=value ...]\n"
	"       build/plan --vocabulary | --variables | --variables-md |\n"
	"                  --boot-argv [VAR=value ...]\n"
	"       build/plan --arch-info [ARCH [KEY]] | --catalog-get DIR SERIES KEY |\n"
	"                  --catalog-series DIR [SOURCE|--list] |\n"
	"                  --catalog-resolve DIR KERNEL [ARCH] |\n"
	"                  --catalog-pick SERIES SUITE REGEX [EXACT] |\n"
	"                  --runner-policy [KEY]\n"
	"       build/plan --kernel-build DIR ARCH SERIES WHAT [ARG] | --kernel-resolution FILE\n"
	"       build/plan [--top DIR] --pg-major [MAJOR [KEY]] | --pg-source [MAJOR [KEY]] |\n"
	"                  --pg-suites | --pg-patches MAJOR | --pg-build MAJOR PATCH [KEY] |\n"
	"                  --pg-configure-flags SRCVER PATCH | --pg-guest-packages MAJOR |\n"
	"                  --pg-package-set MAJOR SUITE PACKAGES BASE PACKAGES |\n"
	"                  --pg-root-expect MAJOR\n"
	"       build/plan --pg-runs MODELS BUILTINS CLIENTS REPEAT FIRST_REP\n"
	"       build/plan --validation-grid INPUTS KERNEL [MODELS] | --capacity-grid [KERNEL]\n";

/*
 * A guest boot outside any plan (tests that boot their own init): the
 * architecture's argv for ACCEL (icount), VCPUS (1) and MEM_MB (1024),
 * the command line boot_cmdline makes plus PREEMPTLAB_GUEST_APPEND.
 */
static int boot_argv_only(void)
{
	static struct plan p;
	char *argv[BOOT_MAX_ARGS], cmdline[2048];
	const char *accel = var_get("ACCEL") ? var_get("ACCEL") : "icount";
	arch_pick(&p);
	p.icount_shift = var_count("ICOUNT_SHIFT", "3");
	plan_icount_epoch(&p);
	long vcpus = var_count("VCPUS", "1");
	long mem = var_count("MEM_MB", "1024");
	boot_cmdline(&p, "", cmdline, sizeof(cmdline));
	int n = boot_argv(&p, accel, vcpus, mem, "off", p.icount_epoch, cmdline, argv);
	if (n < 0)
		plan_die("ACCEL=%s: use kvm, tcg or icount", accel);
	for (int i = 0; i < n; i++)
		printf("%s\n", argv[i]);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "check", no_argument, 0, 'c' }, { "out", required_argument, 0, 'o' },
		{ "top", required_argument, 0, 't' }, { "bufbench", required_argument, 0, 'b' },
		{ "initramfs-bytes", required_argument, 0, 'i' }, { "help", no_argument, 0, 'h' },
		{ "vocabulary", no_argument, 0, 'v' }, { "variables", no_argument, 0, 'V' },
		{ "accel-probed", required_argument, 0, 'a' }, { "boot-argv", no_argument, 0, 'B' },
		{ "arch-info", no_argument, 0, 'A' }, { "catalog-get", no_argument, 0, 'G' },
		{ "catalog-series", no_argument, 0, 'S' }, { "variables-md", no_argument, 0, 'M' },
		{ "catalog-resolve", no_argument, 0, 'R' }, { "runner-policy", no_argument, 0, 'P' },
		{ "validation-grid", no_argument, 0, 'g' }, { "capacity-grid", no_argument, 0, 'C' },
		{ "pg-runs", no_argument, 0, 'r' }, { "kernel-build", no_argument, 0, 'K' },
		{ "kernel-resolution", no_argument, 0, 'k' }, { "catalog-pick", no_argument, 0, 'p' },
		{ "pg-major", no_argument, 0, 'j' },
		{ "pg-source", no_argument, 0, 'u' }, { "pg-suites", no_argument, 0, 'U' },
		{ "pg-patches", no_argument, 0, 'x' }, { "pg-build", no_argument, 0, 'y' },
		{ "pg-configure-flags", no_argument, 0, 'f' }, { "pg-package-set", no_argument, 0, 'd' },
		{ "pg-guest-packages", no_argument, 0, 'q' }, { "pg-root-expect", no_argument, 0, 'e' },
		{ 0, 0, 0, 0 },
	};
	const char *out = NULL, *top = ".";
	char bufbench[4096] = "";
	bool check = false, argv_only = false;
	const char *probed = NULL;
	long initramfs = 0;
	int c;
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'c': check = true; break;
		case 'o': out = optarg; break;
		case 't': top = optarg; break;
		case 'b': snprintf(bufbench, sizeof(bufbench), "%s", optarg); break;
		case 'i': initramfs = parse_count("--initramfs-bytes", optarg, 0, 1L << 40); break;
		case 'h': fputs(usage, stdout); return 0;
		case 'a': probed = optarg; break;
		case 'B': argv_only = true; break;
		case 'A':
			if (argc - optind > 2)
				return fputs(usage, stderr), 2;
			return info_arch(optind < argc ? argv[optind] : NULL,
					 optind + 1 < argc ? argv[optind + 1] : NULL);
		case 'G':
			if (argc - optind != 3)
				return fputs(usage, stderr), 2;
			return info_catalog_get(argv[optind], argv[optind + 1], argv[optind + 2]);
		case 'S':
			if (argc - optind < 1 || argc - optind > 2)
				return fputs(usage, stderr), 2;
			return info_catalog_series(argv[optind],
						   optind + 1 < argc ? argv[optind + 1] : NULL);
		case 'P':
			if (argc - optind > 1)
				return fputs(usage, stderr), 2;
			return info_runner_policy(optind < argc ? argv[optind] : NULL);
		case 'r':
			if (argc - optind != 5)
				return fputs(usage, stderr), 2;
			return info_pg_runs(argv[optind], argv[optind + 1], argv[optind + 2],
					    argv[optind + 3], argv[optind + 4]);
		case 'j':
		case 'u':
			if (argc - optind > 2)
				return fputs(usage, stderr), 2;
			return (c == 'j' ? info_pg_major : info_pg_source)(
				top, optind < argc ? argv[optind] : NULL,
				optind + 1 < argc ? argv[optind + 1] : NULL);
		case 'U':
			return info_pg_suites();
		case 'd':
			if (argc - optind != 5)
				return fputs(usage, stderr), 2;
			return info_pg_package_set(argv[optind], argv[optind + 1], argv[optind + 2],
						   argv[optind + 3], argv[optind + 4]);
		case 'q':
		case 'e':
			if (argc - optind != 1)
				return fputs(usage, stderr), 2;
			return (c == 'q' ? info_pg_guest_packages : info_pg_root_expect)(argv[optind]);
		case 'x':
			if (argc - optind != 1)
				return fputs(usage, stderr), 2;
			return info_pg_patches(top, argv[optind]);
		case 'y':
			if (argc - optind < 2 || argc - optind > 3)
				return fputs(usage, stderr), 2;
			return info_pg_build(top, argv[optind], argv[optind + 1],
					     optind + 2 < argc ? argv[optind + 2] : NULL);
		case 'f':
			if (argc - optind != 2)
				return fputs(usage, stderr), 2;
			return info_pg_configure_flags(argv[optind], argv[optind + 1]);
		case 'R':
			if (argc - optind < 2 || argc - optind > 3)
				return fputs(usage, stderr), 2;
			return info_catalog_resolve(argv[optind], argv[optind + 1],
						    optind + 2 < argc ? argv[optind + 2] : NULL);
		case 'K':
			if (argc - optind < 4 || argc - optind > 5)
				return fputs(usage, stderr), 2;
			return recipe_main(argv[optind], argv[optind + 1], argv[optind + 2],
					   argv[optind + 3], optind + 4 < argc ? argv[optind + 4] : NULL);
		case 'p':
			if (argc - optind < 3 || argc - optind > 4)
				return fputs(usage, stderr), 2;
			return info_catalog_pick(argv[optind], argv[optind + 1], argv[optind + 2],
						 optind + 3 < argc ? argv[optind + 3] : NULL);
		case 'k':
			if (argc - optind != 1)
				return fputs(usage, stderr), 2;
			return kernel_resolution(argv[optind]);
		case 'g':
			if (argc - optind < 2 || argc - optind > 3)
				return fputs(usage, stderr), 2;
			return validation_grid(argv[optind], argv[optind + 1],
					       optind + 2 < argc ? argv[optind + 2] : NULL);
		case 'C':
			if (argc - optind > 1)
				return fputs(usage, stderr), 2;
			return capacity_grid(optind < argc ? argv[optind] : NULL);
		case 'V':
			/* The Makefile's BENCH_VARS must be this list: make fleet
			 * forwards only those (tests/e2e/make_vars.sh compares). */
			for (const struct variable *r = variables; r->name; r++)
				printf("%s\n", r->name);
			return 0;
		case 'M':
			variables_write_md(stdout);
			return 0;
		case 'v':
			fputs("# Vocabulary\n\nEvery value a dimension of the experiment can take, as "
			      "`make bench` and\nbufbench accept it. Generated by `build/plan "
			      "--vocabulary` from\n`buffer_pool/vocab.c` (the buffer pool's dimensions) and "
			      "`lab/common/lab_vocab.c`\n(the lab's own); `tests/e2e/plan.sh` fails "
			      "when this file differs.\n\n", stdout);
			for (int i = 0; vocab_all[i]; i++)
				vocab_write_md(stdout, vocab_all[i]);
			return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (argv_only) {
		vars_from_args(argc, argv, optind);
		return boot_argv_only();
	}
	if (probed && strcmp(probed, "kvm") && strcmp(probed, "tcg") && strcmp(probed, "icount")) {
		fprintf(stderr, "preemptlab: --accel-probed %s: use kvm, tcg or icount\n", probed);
		return 2;
	}
	if (!check && !out) {
		fputs(usage, stderr);
		return 2;
	}
	if (!bufbench[0])
		snprintf(bufbench, sizeof(bufbench), "%s/build/bufbench", top);
	vars_from_args(argc, argv, optind);
	plan_forced();	/* FORCE=yes is refused even when no limit is reached */

	static struct plan p;
	plan_settings(&p, top);
	if (probed && strcmp(p.accel, "auto") == 0)
		snprintf(p.accel, sizeof(p.accel), "%s", probed);
	plan_check_programs(&p);
	/* The unpacked initramfs costs guest RAM: 4x its gzipped size. */
	p.rootfs_mb = initramfs * 4 / (1 << 20);
	plan_sizing(&p, bufbench);
	if (strcmp(p.kernel.source, "host") != 0)
		kvm_backing(&p);
	plan_units(&p);
	plan_estimate(&p);
	plan_boots(&p);
	/* --check with --out: the summary, then the files (scripts/bench.sh's
	 * first plan, so that bad input is refused by the same call). */
	if (check) {
		plan_print_summary(&p);
		if (strcmp(p.kernel.source, "host") != 0)
			kvm_print(&p);
		if (!out)
			return 0;
	}
	return plan_write(&p, out, top);
}
