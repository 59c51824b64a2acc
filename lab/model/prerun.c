#include "prerun.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "sha256.h"

int prerun_fresh(const char *run, char *err, size_t errlen)
{
	char runs[4096];
	snprintf(runs, sizeof(runs), "%s/runs", run);
	DIR *d = opendir(runs);
	if (!d)
		return 0;
	struct dirent *e;
	int held = 0;
	while (!held && (e = readdir(d)))
		held = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	if (!held)
		return 0;
	snprintf(err, errlen, "%s already holds runs: a prediction must come before the measurement", run);
	return -1;
}

int prerun_mkdir(const char *dir, char *err, size_t errlen)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -1;
	}
	for (char *p = path + 1;; p++) {
		char c = *p;
		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		*p = c;
		if (!c)
			return 0;
	}
}

void prerun_utc(time_t when, char out[32])
{
	struct tm tm;
	gmtime_r(&when, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int prerun_header(FILE *f, time_t when, const char *rev, const char *run, const char *what,
		  const char *path, char *err, size_t errlen)
{
	char hex[65], utc[32];
	if (sha256_file(path, hex) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	prerun_utc(when, utc);
	fprintf(f, "# written %s, lab %s, before any run in %s\n", utc, rev, run);
	fprintf(f, "# %s %s sha256 %s\n", what, path, hex);
	return 0;
}

void prerun_grid_command(FILE *f, time_t when, const char *bench, const char *run)
{
	char utc[32];
	prerun_utc(when, utc);
	fprintf(f, "# Measure after the predictions above (%s); from the checkout:\n"
		   "make build-all\n"
		   "%s scripts/bench.sh %s\n"
		   "scripts/model-validate.sh compare %s\n", utc, bench, run, run);
}
