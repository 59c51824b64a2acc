/*
 * The programs the cell runner starts (runner.h).  Each runs in the
 * runner's process group, so a signal to the group (scripts/run-plan.sh
 * stopping the unit) reaches it too; the runner waits for it, as the
 * shell did, before it acts on a signal of its own.
 */
#include "runner.h"
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* In the child: exec ARGV (with ENV added) or say why, as sh does. */
static void exec_or_die(char *const argv[], const char *env)
{
	if (env) {
		size_t n = 0;
		while (environ[n])
			n++;
		char **e = calloc(n + 2, sizeof(*e));
		if (e) {
			memcpy(e, environ, n * sizeof(*e));
			e[n] = (char *)env;
			environ = e;
		}
	}
	execvp(argv[0], argv);
	int code = errno == ENOENT ? 127 : 126;
	fprintf(stderr, "runner: %s: %s\n", argv[0], code == 127 ? "not found" : strerror(errno));
	_exit(code);
}

int run(char *const argv[], const char *out, int append, const char *env)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		if (in >= 0)
			dup2(in, 0);
		if (out) {
			int fd = open(out, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0666);
			if (fd < 0) {
				perror(out);
				_exit(1);
			}
			dup2(fd, 1);
			dup2(fd, 2);
		}
		exec_or_die(argv, env);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return text_shell_status(st);
}

int in_path(const char *name)
{
	const char *path = getenv("PATH");
	if (strchr(name, '/'))
		return !access(name, X_OK);
	if (!path)
		path = "/bin:/usr/bin";
	while (*path) {
		size_t l = strcspn(path, ":");
		char f[4096];
		snprintf(f, sizeof(f), "%.*s/%s", (int)l, l ? path : ".", name);
		if (!access(f, X_OK))
			return 1;
		path += l + (path[l] == ':');
	}
	return 0;
}
