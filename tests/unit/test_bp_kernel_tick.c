/*
 * The kernel's tick in every run's provenance: CONFIG_HZ and the tickless
 * mode parsed from real configs (tests/data/kconfig: Debian's 6.12, HZ
 * 250 NO_HZ_FULL; the 7.2-lab build, HZ 1000 NO_HZ_IDLE), read from the
 * first readable of the paths (a gzipped one as /proc/config.gz is), and
 * "unknown" with the reason where no config says it; then prov_collect
 * with a plan that names the config (a guest's --unit-conf kernel_config)
 * writes the value into the provenance object.
 */
#include "check.h"
#include "kernel_tick.h"
#include "provenance.h"
#include "unit_conf.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DATA PREEMPTLAB_TOP "/tests/data/kconfig/"

static int parse_file(const char *path, struct kernel_tick *t)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -2;
	int rc = kernel_tick_parse(f, t);
	fclose(f);
	return rc;
}

int main(void)
{
	struct kernel_tick t;
	char tmp[] = "/tmp/test_kernel_tick.XXXXXX";
	char path[300], cmd[700];

	CHECK(parse_file(DATA "config-6.12-debian", &t) == 0 && t.hz == 250 && !strcmp(t.nohz, "full"),
	      "Debian 6.12's config: HZ 250, NO_HZ_FULL (got %d, %s)", t.hz, t.nohz);
	CHECK(parse_file(DATA "config-7.2-lab", &t) == 0 && t.hz == 1000 && !strcmp(t.nohz, "idle"),
	      "7.2-lab's config: HZ 1000, NO_HZ_IDLE (got %d, %s)", t.hz, t.nohz);
	CHECK(parse_file(DATA "config-no-hz", &t) == -1 && t.hz == -1 && !strcmp(t.nohz, "idle"),
	      "CONFIG_HZ_250=y alone is not CONFIG_HZ: unknown HZ (got %d)", t.hz);

	const char *first_missing[] = { "/nonexistent/kernel.config", DATA "config-7.2-lab", NULL };
	CHECK(kernel_tick_read(first_missing, &t) == 0 && t.hz == 1000 &&
	      !strcmp(t.source, DATA "config-7.2-lab"),
	      "the first readable path is read, and named: %s", t.source);

	const char *none[] = { "/nonexistent/kernel.config", "/nonexistent/config.gz", NULL };
	CHECK(kernel_tick_read(none, &t) == -1 && t.hz == -1 && !strcmp(t.nohz, "unknown") &&
	      !strncmp(t.source, "unknown: /nonexistent/kernel.config: No such file", 49) &&
	      strstr(t.source, "; /nonexistent/config.gz: No such file"),
	      "nothing readable: unknown, every path and why: %s", t.source);

	const char *no_hz[] = { DATA "config-no-hz", NULL };
	CHECK(kernel_tick_read(no_hz, &t) == -1 && strstr(t.source, "config-no-hz has no CONFIG_HZ"),
	      "a config without CONFIG_HZ: unknown, said so: %s", t.source);

	/* No config: the jiffies rate from two real /proc/timer_list texts of
	 * this lab's host (6.18, CONFIG_HZ=250), 526 ms apart: 131 jiffies. */
	char *ta = NULL, *tb = NULL;
	size_t la = 0, lb = 0;
	FILE *fa = fopen(DATA "timer_list-6.18-a", "r"), *fb = fopen(DATA "timer_list-6.18-b", "r");
	if (fa && fb && getdelim(&ta, &la, '\0', fa) > 0 && getdelim(&tb, &lb, '\0', fb) > 0) {
		double rate = kernel_tick_rate(ta, tb);
		CHECK(rate > 248 && rate < 250, "timer_list texts: %.2f jiffies/s (131 in 0.526 s)", rate);
		CHECK(kernel_tick_rate(tb, ta) < 0, "time running backwards: no rate");
		CHECK(kernel_tick_rate("now at 5 nsecs\n", tb) < 0, "a text without jiffies: no rate");
	} else {
		CHECK(0, "the timer_list fixtures are readable");
	}
	free(ta);
	free(tb);
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	/* This machine, measured, against its own config where it has one. */
	const char *here[] = { "/proc/config.gz", NULL };
	struct kernel_tick cfg, meas;
	if (kernel_tick_read(here, &cfg) == 0 && access("/proc/timer_list", R_OK) == 0) {
		kernel_tick_measure(&meas, "test");
		CHECK(meas.hz == cfg.hz && !strncmp(meas.source, "measured: ", 10),
		      "measured here: HZ %d (%s), the config says %d", meas.hz, meas.source, cfg.hz);
	} else {
		SKIP("no /proc/config.gz or /proc/timer_list here: the measurement is not checked against a config");
	}

	if (!mkdtemp(tmp)) {
		CHECK(0, "mkdtemp");
		return CHECK_DONE();
	}
	/* /proc/config.gz's form: gzip'd text, read through gzip -dc. */
	snprintf(path, sizeof(path), "%s/config.gz", tmp);
	snprintf(cmd, sizeof(cmd), "gzip -c '%s' > '%s'", DATA "config-6.12-debian", path);
	if (system(cmd) == 0) {
		const char *gz[] = { path, NULL };
		CHECK(kernel_tick_read(gz, &t) == 0 && t.hz == 250 && !strcmp(t.nohz, "full") &&
		      !strcmp(t.source, path), "a gzip'd config is read: HZ %d from %s", t.hz, t.source);
	} else {
		SKIP("no gzip here: the gzip'd config is not tested");
	}

	/* A guest's plan names the config it shipped: prov_collect reads it
	 * before /boot and /proc, and prov_write records it. */
	snprintf(path, sizeof(path), "%s/unit.conf", tmp);
	FILE *f = fopen(path, "w");
	fprintf(f, "label\t7.2-lab\nkernel_config\t%s\n", DATA "config-7.2-lab");
	fclose(f);
	CHECK(unit_conf_load(path) == 0, "unit conf loaded");
	struct provenance p;
	char *argv[] = { "test", NULL };
	prov_collect(&p, 1, argv);
	CHECK(p.tick.hz == 1000 && !strcmp(p.tick.source, DATA "config-7.2-lab"),
	      "prov_collect reads the plan's config: HZ %d from %s", p.tick.hz, p.tick.source);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct json j;
	json_init(&j, m);
	json_begin_object(&j, NULL);
	prov_write(&j, &p);
	json_end_object(&j);
	json_finish(&j);
	fclose(m);
	CHECK(strstr(buf, "\"kernel_hz\": 1000") && strstr(buf, "\"kernel_nohz\": \"idle\"") &&
	      strstr(buf, "\"kernel_tick_source\": \"" DATA "config-7.2-lab\""),
	      "the provenance object has kernel_hz, kernel_nohz and kernel_tick_source");
	free(buf);
	unlink(path);
	snprintf(path, sizeof(path), "%s/config.gz", tmp);
	unlink(path);
	rmdir(tmp);
	return CHECK_DONE();
}
