/*
 * predict --fault-bench (lab/model/faultbench.c): a costbench --procs
 * document read, the median fault CPU time interpolated log-linearly in the
 * process count, clamped outside the measured counts, and the documents it
 * must refuse.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "model/faultbench.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

static const char *write_doc(const char *name, const char *text)
{
	static char path[256];
	snprintf(path, sizeof(path), "/tmp/test_model_faultbench-%s.json", name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

#define ENTRY(n, c, ef) "{\"procs\": " #n ", \"each_faulted\": " #ef ", \"cpu_ns\": {\"p50\": " #c "}, " \
			"\"wall_ns\": {\"p99\": 1e6}}"

int main(void)
{
	struct faultbench_sweep s;
	char err[512] = "";
	const char *p = write_doc("ok", "{\"tool\": \"costbench\", \"procs\": [" ENTRY(1, 10000, true) ", "
				  ENTRY(64, 12000, true) ", " ENTRY(1024, 20000, true) "]}");
	bool ok = faultbench_read(p, &s, err, sizeof(err));
	CHECK(ok && s.n == 3 && s.procs[2] == 1024 && s.cpu_p50_ns[1] == 12000, "three process counts read (%s)",
	      ok ? "ok" : err);
	bool cl = false;
	/* 8 processes: log(8)/log(64) = 0.5 of the way from 10000 to 12000. */
	double v = faultbench_cpu_at(&s, 8, &cl);
	CHECK(NEAR(v, 11000, 1e-6) && !cl, "8 processes: %.1f ns (by hand 11000), not clamped", v);
	/* 256 processes: log(4)/log(16) = 0.5 of the way from 12000 to 20000. */
	v = faultbench_cpu_at(&s, 256, &cl);
	CHECK(NEAR(v, 16000, 1e-6), "256 processes: %.1f ns (by hand 16000)", v);
	double g = faultbench_growth(&s, 8, 256, &cl);
	CHECK(NEAR(g, 16000.0 / 11000, 1e-12) && !cl, "growth 8 -> 256: %.4f", g);
	g = faultbench_growth(&s, 21, 4096, &cl);
	CHECK(cl && NEAR(g, 20000 / faultbench_cpu_at(&s, 21, &cl), 1e-12), "beyond 1024: the 1024 value, said clamped");

	p = write_doc("order", "{\"tool\": \"costbench\", \"procs\": [" ENTRY(64, 1, true) ", " ENTRY(1, 1, true) "]}");
	CHECK(!faultbench_read(p, &s, err, sizeof(err)) && strstr(err, "out of order"), "counts out of order refused: %s", err);
	p = write_doc("twice", "{\"tool\": \"costbench\", \"procs\": [" ENTRY(1, 10000, false) "]}");
	CHECK(!faultbench_read(p, &s, err, sizeof(err)) && strstr(err, "one fault per touch"),
	      "a sweep whose touches did not each fault once refused");
	p = write_doc("ops", "{\"tool\": \"costbench\", \"ops\": {}}");
	CHECK(!faultbench_read(p, &s, err, sizeof(err)) && strstr(err, "not a costbench --procs"),
	      "a costbench document without the sweep refused: %s", err);
	return CHECK_DONE();
}
