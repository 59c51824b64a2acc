#include "pgsample_runas.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int runas_main(int argc, char **argv)
{
	struct passwd *pw;

	if (argc < 4) {
		fprintf(stderr, "usage: pgsample run-as USER PROGRAM [ARGS...]\n");
		return 2;
	}
	pw = getpwnam(argv[2]);
	if (!pw) {
		fprintf(stderr, "pgsample: no user '%s' in /etc/passwd: create it "
				"(useradd --system %s, or scripts/pg-run.sh does it in a guest)\n",
			argv[2], argv[2]);
		return 2;
	}
	if (getuid() != pw->pw_uid) {
		if (geteuid() != 0) {
			fprintf(stderr, "pgsample: run-as %s needs root (running as uid %ld)\n",
				argv[2], (long)geteuid());
			return 2;
		}
		/* Groups first: after setuid we could no longer change them. */
		if (initgroups(pw->pw_name, pw->pw_gid) != 0 || setgid(pw->pw_gid) != 0 ||
		    setuid(pw->pw_uid) != 0) {
			fprintf(stderr, "pgsample: cannot become %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
	}
	/* initdb and pg_ctl look at HOME only for .pgpass; keep it sane. */
	setenv("HOME", pw->pw_dir && *pw->pw_dir ? pw->pw_dir : "/", 1);
	setenv("USER", pw->pw_name, 1);
	setenv("LOGNAME", pw->pw_name, 1);
	execvp(argv[3], argv + 3);
	fprintf(stderr, "pgsample: cannot run %s: %s\n", argv[3], strerror(errno));
	return 127;
}
