/*
 * build/plan: turns `make bench` variables into RUN/plan.json and the flat
 * files the runners read (write.c), or with --check only validates them.
 *
 *   build/plan [--check] [--out RUN] [--top DIR] [--bufbench BIN]
 *              [--initramfs-bytes N] [VAR=value ...]
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

#include "plan.h"

static const char usage[] =
	"usage: build/plan [--check] [--out RUN] [--top DIR] [--bufbench BIN]\n"
	"                  [--initramfs-bytes N] [VAR=value ...]\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "check", no_argument, 0, 'c' }, { "out", required_argument, 0, 'o' },
		{ "top", required_argument, 0, 't' }, { "bufbench", required_argument, 0, 'b' },
		{ "initramfs-bytes", required_argument, 0, 'i' }, { "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	const char *out = NULL, *top = ".";
	char bufbench[4096] = "";
	bool check = false;
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
		default: fputs(usage, stderr); return 2;
		}
	}
	if (!check && !out) {
		fputs(usage, stderr);
		return 2;
	}
	if (!bufbench[0])
		snprintf(bufbench, sizeof(bufbench), "%s/build/bufbench", top);
	vars_from_args(argc, argv, optind);

	static struct plan p;
	plan_settings(&p, top);
	/* The unpacked initramfs costs guest RAM: 4x its gzipped size. */
	p.rootfs_mb = initramfs * 4 / (1 << 20);
	plan_sizing(&p, bufbench);
	plan_units(&p);
	plan_estimate(&p);
	if (check) {
		plan_print_summary(&p);
		return 0;
	}
	return plan_write(&p, out);
}
