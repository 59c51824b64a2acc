/*
 * tracefs_reap (lab/evidence/tracefs_reap.c, issue 28, D9): of the
 * instances/preemptlab-PID directories under a tracefs root, those whose
 * PID is gone are removed and named; a live process's, and any other
 * name, stay.  Run on a plain directory laid out like a tracefs root (this
 * machine's kernel has no tracefs instances to kill a bufbench over); the
 * real one differs only in accepting rmdir of a non-empty instance.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "evidence/tracefs_reap.h"

static int exists(const char *root, const char *name)
{
	char p[512];
	struct stat st;
	snprintf(p, sizeof(p), "%s/instances/%s", root, name);
	return stat(p, &st) == 0;
}

static void make(const char *root, const char *name)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/instances/%s", root, name);
	mkdir(p, 0700);
}

int main(void)
{
	/* A pid that is surely gone: a child's, waited for. */
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);

	char root[] = "/tmp/test_tracefs_reap.XXXXXX", inst[600];
	if (!mkdtemp(root))
		return 1;
	snprintf(inst, sizeof(inst), "%s/instances", root);
	mkdir(inst, 0700);
	char dead_name[64], live_name[64];
	snprintf(dead_name, sizeof(dead_name), "preemptlab-%d", (int)dead);
	snprintf(live_name, sizeof(live_name), "preemptlab-%d", (int)getpid());
	make(root, dead_name);
	make(root, live_name);
	make(root, "preemptlab-notapid");
	make(root, "someone-else");

	char *said = NULL;
	size_t said_len = 0;
	FILE *say = open_memstream(&said, &said_len);
	int n = tracefs_reap(root, say);
	fclose(say);
	CHECK(n == 1, "one instance removed (%d)", n);
	CHECK(!exists(root, dead_name), "the dead bufbench's %s is removed", dead_name);
	CHECK(said && strstr(said, dead_name) && strstr(said, "killed outright"), "and named: %s",
	      said ? said : "(nothing)");
	CHECK(exists(root, live_name), "a live process's instance stays");
	CHECK(exists(root, "preemptlab-notapid") && exists(root, "someone-else"),
	      "other names stay");
	CHECK(tracefs_reap("/nonexistent", stderr) == 0, "no tracefs: nothing, no error");
	free(said);

	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		return 1;
	return check_failures != 0;
}
