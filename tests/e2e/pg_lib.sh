# shellcheck shell=sh
# Helpers shared by the PostgreSQL end-to-end tests (sourced).  Not a test
# itself: tests/run.sh runs *.sh under tests/e2e, so this file only defines
# functions and prints nothing.

# Run on its own (tests/run.sh runs every *.sh here) there is no $top:
# only the functions are defined, and nothing is run.
if [ -n "${top:-}" ]; then
	# shellcheck source=scripts/pg-root-lib.sh
	. "$top/scripts/pg-root-lib.sh"
	PG_BINDIR=${PG_BINDIR:-$(pgroot_dir "" "$PG_SYSTEM_MAJOR" bin)}
fi

# pg_test_prereq: ($top is the checkout, set by the caller) why a PostgreSQL test cannot run here, or nothing.
pg_test_prereq() {
	[ "$(id -u)" = 0 ] || { echo "needs root (to run the server as postgres and reserve huge pages)"; return; }
	# shellcheck disable=SC2154 # set by the sourcing test
	[ -x "$top/build/pgsample" ] || { echo "no build/pgsample (HAVE_PQ=0: apt-get install libpq-dev)"; return; }
	if [ ! -x "$PG_BINDIR/postgres" ] || [ ! -x "$PG_BINDIR/pgbench" ]; then
		echo "no PostgreSQL $PG_SYSTEM_MAJOR in $PG_BINDIR (apt-get install postgresql-$PG_SYSTEM_MAJOR postgresql-contrib-$PG_SYSTEM_MAJOR)"
		return
	fi
	id -u postgres >/dev/null 2>&1 || { echo "no postgres user"; return; }
	command -v jq >/dev/null 2>&1 || { echo "no jq"; return; }
}

# pg_alive_pid PID: running and not a zombie.
pg_alive_pid() {
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	st=${st##*") "}
	[ "${st%% *}" != Z ]
}

# pg_server_pids RUNDIR: the postmaster of the cluster running under RUNDIR
# and its children, now.  Captured while the run is going, so the check
# afterwards concerns exactly this run's server even when other servers
# (a system cluster, another test) run on the machine.
pg_server_pids() {
	for f in "$1"/pgcluster.*/data/postmaster.pid; do
		pm=$(head -n1 "$f" 2>/dev/null) || continue
		echo "$pm"
		for d in /proc/[0-9]*; do
			st=$(cat "$d/stat" 2>/dev/null) || continue
			st=${st##*") "}
			st=${st#* }
			[ "${st%% *}" = "$pm" ] && echo "${d#/proc/}"
		done
	done
	return 0
}

# pg_mentions DIR: processes whose command line names DIR.
pg_mentions() {
	for d in /proc/[0-9]*; do
		[ "${d#/proc/}" = "$$" ] && continue
		cmd=$(tr '\0' ' ' 2>/dev/null < "$d/cmdline") || continue
		case $cmd in *"$1"*) echo "${d#/proc/} $cmd" ;; esac
	done
	return 0
}

# pg_leftovers DIR PIDS: what a run left: processes naming DIR, any of
# PIDS (from pg_server_pids) still running, cluster or socket directories.
# Waits up to 10 s, since an exiting backend takes a moment to go.
pg_leftovers() {
	i=0
	while :; do
		left=$(pg_mentions "$1")
		for p in $2; do
			pg_alive_pid "$p" && left="$left server-pid:$p"
		done
		for d in "$1"/pgcluster.* "$1"/pgsock.*; do
			[ -e "$d" ] && left="$left dir:$d"
		done
		[ -z "$left" ] && return 0
		i=$((i + 1))
		[ "$i" -ge 20 ] && { echo "$left"; return 0; }
		sleep 0.5
	done
}

hp_total() { cat /proc/sys/vm/nr_hugepages; }

# pg_hp_possible: 2 MB pages can be reserved here (writable pool).
pg_hp_possible() { [ -w /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages ]; }
