# shellcheck shell=sh
# What makes a directory a PostgreSQL root the lab can run (sourced, not
# run; needs common.sh): used by scripts/pg-fetch.sh (Debian's binary
# packages) and scripts/pg-build.sh (the lab's builds of Debian's source),
# and where the host's own server is for every script that runs or ships
# one (a guest's initramfs carries this file beside scripts/pg-run.sh).

# PG_VERSION=system (lab/plan/pg_version.c): the host's own Debian 12
# PostgreSQL 15, the root "" (/usr/lib/postgresql/MAJOR).  The one place a
# script says which major that is.
PG_SYSTEM_MAJOR=15

# pgroot_dir ROOT MAJOR bin|lib|share: where Debian's PostgreSQL MAJOR
# keeps its programs, its modules or its share files under ROOT ("": the
# host's own).
pgroot_dir() {
	case $3 in
	share) echo "$1/usr/share/postgresql/$2" ;;
	*) echo "$1/usr/lib/postgresql/$2/$3" ;;
	esac
}

# pg_system_package: "PACKAGE VERSION (host)", the Debian package of the
# host's system server; fails where dpkg does not know it (a guest).
pg_system_package() {
	psp=$(dpkg-query -S "$(pgroot_dir "" "$PG_SYSTEM_MAJOR" bin)/postgres" 2>/dev/null | cut -d: -f1) &&
		[ -n "$psp" ] || return 1
	echo "$psp $(dpkg-query -W -f '${Version}' "$psp" 2>/dev/null) (host)"
}

# pgroot_wrap ROOT MAJOR INTERP WHAT: move ROOT's bin/ to bin.elf/ and put
# in bin/ one wrapper a program that runs it through ROOT's own ld.so
# (INTERP, a path inside ROOT): --library-path before anything else,
# --inhibit-cache so the host's ld.so.cache cannot supply a library,
# --argv0 the wrapper's own path, so that PostgreSQL finds its share and
# lib directories, and its other programs (pg_ctl starts postgres, initdb
# runs it), beside the wrapper, as it would beside the binary.  WHAT names
# the build in the wrapper's comment.
pgroot_wrap() {
	pw_bin=/usr/lib/postgresql/$2/bin
	mv "$1$pw_bin" "$1$pw_bin.elf"
	mkdir "$1$pw_bin"
	for f in "$1$pw_bin.elf"/*; do
		pgroot_wrapper "$2" "$3" "$4" "${f##*/}" > "$1$pw_bin/${f##*/}"
		chmod 755 "$1$pw_bin/${f##*/}"
	done
}

# pgroot_wrapper MAJOR INTERP WHAT NAME: the wrapper pgroot_wrap writes
# for program NAME (scripts/pg-fetch.sh compares a reused root's with it).
pgroot_wrapper() {
	pw_bin=/usr/lib/postgresql/$1/bin pw_lib=/usr/lib/postgresql/$1/lib
	pw_triplet=$(arch_info "" triplet)
	cat <<WRAP
#!/bin/sh
# preemptlab (scripts/pg-root-lib.sh): PostgreSQL $1 ($3) runs
# through its own ld.so and libraries, never the host's.
r=\$(cd "\$(dirname "\$0")/../../../../.." && pwd)
exec "\$r$2" --inhibit-cache \\
	--library-path "\$r/usr/lib/$pw_triplet:\$r/lib/$pw_triplet:\$r$pw_lib" \\
	--argv0 "\$0" "\$r$pw_bin.elf/$4" "\$@"
WRAP
}

# pgroot_closure ROOT MAJOR OUT: every NEEDED of the programs and modules
# the lab runs, resolved inside ROOT (build/elfclosure, which only reads
# them), into OUT; fails naming each library ROOT lacks.
pgroot_closure() {
	pc_bin=/usr/lib/postgresql/$2/bin pc_lib=/usr/lib/postgresql/$2/lib
	for p in postgres initdb pg_ctl pgbench; do
		[ -x "$1$pc_bin/$p" ] || die "PostgreSQL $2 in $1 has no $pc_bin/$p"
	done
	"$(lab_top)/build/elfclosure" "$1" "$pc_bin/postgres" "$pc_bin/initdb" "$pc_bin/pg_ctl" \
		"$pc_bin/pgbench" "$pc_lib/plpgsql.so" "$pc_lib/dict_snowball.so" "$pc_lib/pg_buffercache.so" > "$3"
}

# pgroot_interp ROOT MAJOR: the program interpreter postgres asks for, when
# ROOT has it; fails otherwise.
pgroot_interp() {
	pi=$(readelf -l "$1/usr/lib/postgresql/$2/bin/postgres" | sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p')
	{ [ -n "$pi" ] && [ -e "$1$pi" ]; } || die "postgres asks for interpreter '$pi', not in $1"
	echo "$pi"
}

# A root is made in a .root.XXXXXX directory beside where it goes and moved
# into place when complete; a fetch or build killed mid-way (SIGKILL, a
# reboot) left that directory for ever (issue 35).  Its maker holds a lock
# on it for as long as it lives (pgroot_claim: flock, which the kernel
# drops when the last holder dies, whatever killed it), and the next fetch
# or build removes those nobody holds (pgroot_sweep).

# pgroot_claim DIR: lock DIR (just made) for the rest of this process, on
# fd 9.
pgroot_claim() {
	exec 9< "$1"
	flock -n 9 || die "cannot lock $1 (flock)"
}

# pgroot_commit TMP ROOT: TMP, complete, moved into place as ROOT.
pgroot_commit() { touch "$1/.complete"; rm -rf "$2"; mv "$1" "$2"; }

# pgroot_sweep PARENT: remove PARENT/.root.* that no live fetch or build
# holds.  One changed within the last 10 minutes is left: its maker may be
# between mktemp and pgroot_claim (or, while makers from before the locks
# may still run, busy in it).
pgroot_sweep() {
	for ps_d in "$1"/.root.*; do
		{ [ -d "$ps_d" ] && [ ! -L "$ps_d" ]; } || continue
		[ -n "$(find "$ps_d" -maxdepth 0 -mmin +10)" ] || continue
		flock -n "$ps_d" true 2>/dev/null || continue
		rm -rf "$ps_d"
		note "removed $ps_d, left by a PostgreSQL fetch or build killed mid-way"
	done
}
